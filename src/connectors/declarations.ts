/**
 * The catalog's declarations of each operation, as the connectors need them: URL template, method,
 * body template, accepted key types, pagination, rate limit, credential rule, User-Agent rule.
 *
 * `OperationDecl` is the subset of the catalog's `AccessPath` (src/ard/catalog.ts) the connectors
 * use, so a loaded `Catalog` can be passed straight in. `readDeclarations` is the validated loader
 * of catalog.ts (hand-written descriptors only, without the generated measure lists or the SHACL
 * layer: a connector run must not pay for validating 37 MB of measures).
 */
import type { AccessPathData, Credentials, RateLimit } from '../ard/extension-schema.ts';

export interface OperationDecl {
  publisherId: string;
  id: string;
  data: AccessPathData;
  rateLimit: RateLimit | undefined;
  credentials: Credentials;
  userAgentRequired: boolean;
}

export interface Declarations {
  operation(source: string, operationId: string): OperationDecl | undefined;
  all(): OperationDecl[];
}

export function declarationsFrom(ops: readonly OperationDecl[]): Declarations {
  const byKey = new Map(ops.map((o) => [`${o.publisherId}/${o.id}`, o]));
  return { operation: (s, o) => byKey.get(`${s}/${o}`), all: () => [...ops] };
}

/**
 * Reads and validates every `<dir>/*.json` descriptor (not generated/) through the one loader
 * (catalog.ts), so a declaration a connector runs was checked by the same schemas as the catalog.
 */
export async function readDeclarations(dir = 'ard-okf', options: { baseUrls?: Readonly<Record<string, string>> } = {}): Promise<Declarations> {
  const { loadDescriptors } = await import('./catalog.ts');
  return (await loadDescriptors(dir, options)).declarations;
}

/** Fills an RFC 6570 level-1 URL template; every placeholder must have a value. */
export function fillUrl(template: string, args: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = args[name];
    if (v === undefined) throw new Error(`the URL template ${template} needs a value for {${name}}`);
    return encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2A/g, '*');
  });
}

/** Fills a JSON body template: `"{x}"` becomes a JSON string, bare `{x}` a JSON number/array literal. */
export function fillBody(template: string, args: Readonly<Record<string, unknown>>): string {
  const filled = template.replace(/"\{([A-Za-z_][A-Za-z0-9_]*)\}"|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, quoted: string | undefined, bare: string | undefined) => {
    const name = (quoted ?? bare)!;
    if (!(name in args)) throw new Error(`the body template needs a value for {${name}}`);
    return JSON.stringify(args[name]);
  });
  return JSON.stringify(JSON.parse(filled));
}
