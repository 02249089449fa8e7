/**
 * The few entry points of the `jsonld` package (9.x) that Assay calls; the package ships no types.
 * Documents are plain JSON; N-Quads strings are used as the interchange with RDF.
 */
declare module 'jsonld' {
  type JsonLdDocument = Record<string, unknown> | Record<string, unknown>[];
  interface JsonLdApi {
    fromRDF(dataset: string, options: { format: 'application/n-quads'; useNativeTypes?: boolean }): Promise<Record<string, unknown>[]>;
    compact(input: JsonLdDocument, context: Record<string, unknown>, options?: { safe?: boolean }): Promise<Record<string, unknown>>;
    toRDF(input: JsonLdDocument, options: { format: 'application/n-quads'; safe?: boolean }): Promise<string>;
    canonize(input: string, options: { inputFormat: 'application/n-quads'; format: 'application/n-quads'; algorithm?: string }): Promise<string>;
  }
  const jsonld: JsonLdApi;
  export default jsonld;
}
