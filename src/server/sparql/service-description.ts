/**
 * The SPARQL 1.1 Service Description returned by GET /sparql with no query.
 *
 * It states what the endpoint really does: SPARQL 1.1 Query (and Update only when an
 * operator configured a token), the result formats the negotiator offers, and
 * sd:UnionDefaultGraph because, with no dataset in the request, the default graph is the
 * union of all graphs (Assay keeps all its data in named graphs). No sd:BasicFederatedQuery:
 * SERVICE is refused. assay:rowLimit gives the row cap behind the truncation flag.
 * Per-graph figures live in the VoID description (linked with rdfs:seeAlso), not here,
 * because listing graphs costs a scan of the store.
 */
import { RdfStore, factory, type Quad } from '../../rdf/store.ts';
import { ASSAY, FORMATS, RDF, RDFS, SD, XSD } from '../../rdf/vocab.ts';

export interface DescriptionInput {
  endpoint: string;
  voidUrl: string;
  updatesEnabled: boolean;
  maxRows: number;
}

export function serviceDescription(input: DescriptionInput): Quad[] {
  const { namedNode: n, literal, blankNode, quad } = factory;
  const service = n(input.endpoint);
  const dataset = blankNode();
  const defaultGraph = blankNode();
  const quads: Quad[] = [
    quad(service, n(RDF.type), n(SD.Service)),
    quad(service, n(SD.endpoint), n(input.endpoint)),
    quad(service, n(SD.supportedLanguage), n(SD.SPARQL11Query)),
    quad(service, n(SD.feature), n(SD.UnionDefaultGraph)),
    quad(service, n(SD.defaultDataset), dataset),
    quad(dataset, n(RDF.type), n(SD.Dataset)),
    quad(dataset, n(SD.defaultGraph), defaultGraph),
    quad(defaultGraph, n(RDF.type), n(SD.Graph)),
    quad(service, n(RDFS.seeAlso), n(input.voidUrl)),
    quad(service, n(ASSAY.rowLimit), literal(String(input.maxRows), n(XSD.integer))),
  ];
  if (input.updatesEnabled) quads.push(quad(service, n(SD.supportedLanguage), n(SD.SPARQL11Update)));
  for (const f of [
    FORMATS.SPARQL_Results_JSON, FORMATS.SPARQL_Results_XML, FORMATS.SPARQL_Results_CSV, FORMATS.SPARQL_Results_TSV,
    FORMATS.Turtle, FORMATS['N-Triples'], FORMATS['N-Quads'], FORMATS['JSON-LD'], FORMATS.RDF_XML,
  ]) {
    quads.push(quad(service, n(SD.resultFormat), n(f)));
  }
  return quads;
}

/** Serialize the description in one of the RDF offers' media types. */
export function serializeDescription(input: DescriptionInput, mediaType: string): string {
  const scratch = new RdfStore();
  scratch.add(serviceDescription(input));
  return scratch.dump({ format: mediaType, graph: '' });
}
