/**
 * `/.well-known/ai-catalog.json`: Assay's own Agentic Resource Discovery catalog (ARD v0.9,
 * ai-catalog `specVersion` 1.0), advertising what the gateway offers to agents: the SPARQL 1.1
 * endpoint, the question-answering API, the MCP server for agents, the web page for people, the
 * VoID description, the DCAT catalog of publishers and the SHACL shapes.
 *
 * Identifiers are domain-anchored as ARD §4.2.1 asks: `urn:air:<host of the base IRI>:assay:<name>`.
 * `metadata` values are strings, as the ai-catalog schema allows only scalars there.
 */
import type { FastifyInstance } from 'fastify';
import { ensureSlash } from '../../rdf/vocab.ts';
import { ALL_RDF_OUTPUT, TRIPLE_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { connectorRegistry } from '../../connectors/registry.ts';

/** SELECT/ASK result formats the endpoint writes (SPARQL 1.1 Protocol §2.1). */
const RESULT_FORMATS = ['application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values'];
/** CONSTRUCT/DESCRIBE formats the endpoint writes. */
const GRAPH_FORMATS = ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/ld+json'];

/** The ARD publisher segment: the base IRI's host, reduced to the characters a URN allows. */
export function urnPublisher(baseIri: string): string {
  const host = new URL(baseIri).hostname.replace(/^\[|\]$/g, '');
  return host.replace(/[^a-zA-Z0-9.-]/g, '-') || 'localhost';
}

export function assayAiCatalog(baseIri: string): Record<string, unknown> {
  const base = ensureSlash(baseIri);
  const urn = (name: string) => `urn:air:${urnPublisher(base)}:assay:${name}`;
  return {
    specVersion: '1.0',
    host: { displayName: 'Assay knowledge-graph gateway' },
    entries: [
      {
        identifier: urn('sparql'),
        displayName: 'Assay SPARQL 1.1 endpoint',
        type: 'application/sparql-query',
        url: `${base}sparql`,
        description: 'SPARQL 1.1 Protocol endpoint over everything Assay knows: the catalog of US public-data publishers (DCAT 3 plus access paths and measures), admitted evidence with PROV-O provenance, and question runs. Read-only; every query runs under a time limit and a row cap, and a truncated result says so. GET without a query returns the SPARQL Service Description.',
        tags: ['sparql', 'rdf', 'knowledge-graph', 'linked-data', 'us-public-data', 'provenance'],
        capabilities: ['SPARQL11Query', 'ServiceDescription', 'UnionDefaultGraph'],
        representativeQueries: [
          'which US federal data publishers can answer questions about company financials',
          'list the API operations that return nonprofit grant data',
          'run a SPARQL query over a catalog of public data sources',
          'find measures published by the Census Bureau with their units',
        ],
        metadata: {
          protocol: 'SPARQL 1.1 Protocol',
          protocolSpecification: 'https://www.w3.org/TR/sparql11-protocol/',
          queryLanguage: 'SPARQL 1.1 Query',
          resultFormats: RESULT_FORMATS.join(', '),
          graphFormats: GRAPH_FORMATS.join(', '),
          serviceDescription: `${base}sparql`,
          voidDescription: `${base}.well-known/void`,
          updates: 'refused unless the operator configures a credential',
        },
      },
      {
        identifier: urn('ask'),
        displayName: 'Assay cited answers',
        type: 'application/json',
        url: `${base}ask`,
        description: 'Ask a question in plain English about US public data (POST {"question": "..."}; or send an intent). Answers come from the publishers\' own responses: every number is graded by code (verified, derived, corroborated, conflict, unverified) and cited to the publisher response it came from; ambiguous questions get a clarification with options and values; unanswerable ones a typed refusal saying why. POST /ask/stream sends NDJSON progress events then the result; GET /runs/{id} returns the run graph.',
        // the publishers answered from: every source the connector registry declares
        tags: ['question-answering', 'citations', 'provenance', 'us-public-data', ...connectorRegistry().keys()],
        capabilities: ['CitedAnswers', 'Clarification', 'Refusal', 'ProgressStream'],
        representativeQueries: [
          "What was Apple's total revenue in 2023?",
          'Is the American National Red Cross tax-exempt?',
          'How did Apple revenue change from 2019 to 2023?',
        ],
        metadata: {
          request: 'POST application/json {question, on_ambiguity?: answer|all|ask, strict?: boolean, intent?: object, conversation?: id}',
          conversations: 'every result carries a conversation id; send it back with a follow-up ("and in 2022?") to have it read against the previous turn',
          stream: `${base}ask/stream`,
          runs: `${base}runs/{id}`,
        },
      },
      {
        identifier: urn('mcp'),
        displayName: 'Assay MCP server',
        type: 'application/json',
        url: `${base}mcp`,
        description: "Model Context Protocol server (Streamable HTTP, stateless: POST JSON-RPC, answers as JSON) with Assay's tools: ask and resume (cited answers with every figure graded by code, clarifications, typed refusals), sparql (read-only, under the endpoint's limits), schema_card, list_sources, describe_source and resolve_entity, plus resources for run graphs and evidence items. The same server runs over stdio as `assay mcp`.",
        tags: ['mcp', 'model-context-protocol', 'agents', 'tools', 'question-answering', 'citations', 'sparql'],
        capabilities: ['MCPTools', 'MCPResources', 'StreamableHTTP', 'Stdio'],
        representativeQueries: [
          'connect an agent to a tool that answers questions about US public data with citations',
          'an MCP server for SEC EDGAR and Census figures graded against the publisher',
          'run read-only SPARQL from an agent',
        ],
        metadata: {
          protocol: 'Model Context Protocol',
          protocolSpecification: 'https://modelcontextprotocol.io/specification',
          transport: 'streamable-http (stateless, JSON responses); stdio via `assay mcp`',
          tools: 'ask, resume, sparql, schema_card, list_sources, describe_source, resolve_entity',
          resources: `${base}runs/{id}, ${base}evidence/{run}/{n}`,
        },
      },
      {
        identifier: urn('web'),
        displayName: 'Assay web page',
        type: 'text/html',
        url: base,
        description: "The gateway's page for people (served as HTML to browsers; RDF clients get RDF at the same URL): ask a question and watch each decision as it is made, read the answer with every figure marked by its grade and cited, see how it was made, choose among clarification options, draw charts of series and rankings, give feedback, and run SPARQL in a console.",
        tags: ['web', 'question-answering', 'sparql-console', 'charts'],
        capabilities: ['WebPage'],
        representativeQueries: [
          'a web page to ask questions about US public data with cited answers',
          'chart a company\'s revenue over several years with every value cited',
        ],
        metadata: { contentNegotiation: 'text/html for browsers; RDF (Turtle, JSON-LD, …) otherwise' },
      },
      {
        identifier: urn('void'),
        displayName: 'Assay VoID description',
        type: 'text/turtle',
        url: `${base}.well-known/void`,
        description: 'VoID description of every named graph in the store: triples, entities, distinct subjects and objects, classes, properties, class and property partitions, vocabularies and the URI space, computed from the live store.',
        tags: ['void', 'statistics', 'rdf', 'schema'],
        capabilities: ['VoID'],
        representativeQueries: [
          'which classes and properties does this knowledge graph use',
          'how many triples are in each named graph of the Assay store',
        ],
        metadata: { formats: ALL_RDF_OUTPUT.join(', '), specification: 'https://www.w3.org/TR/void/' },
      },
      {
        identifier: urn('catalog'),
        displayName: 'Assay DCAT catalog of US public-data publishers',
        type: 'text/turtle',
        url: `${base}catalog`,
        description: 'DCAT 3 catalog (conforming to DCAT-AP 3.0.0) of the publishers Assay can query: their datasets, distributions and data services with endpoint URLs and descriptions.',
        tags: ['dcat', 'dcat-ap', 'catalog', 'datasets', 'us-public-data'],
        capabilities: ['DCAT'],
        representativeQueries: [
          'which public data APIs cover IRS exempt organizations',
          'find a data catalog of US federal statistics publishers',
          'what datasets does the SEC EDGAR API serve',
        ],
        metadata: { formats: TRIPLE_RDF_OUTPUT.join(', '), conformsTo: 'DCAT-AP 3.0.0' },
      },
      {
        identifier: urn('shapes'),
        displayName: 'Assay SHACL shapes',
        type: 'text/turtle',
        url: `${base}shapes`,
        description: "SHACL shapes that Assay's catalog graph is validated against, with Assay's own vocabulary.",
        tags: ['shacl', 'shapes', 'validation', 'vocabulary'],
        capabilities: ['SHACL'],
        representativeQueries: [
          'what constraints does the Assay catalog graph satisfy',
          'get the SHACL shapes for access paths and measures',
        ],
        metadata: { formats: TRIPLE_RDF_OUTPUT.join(', ') },
      },
    ],
  };
}

export async function aiCatalogRoutes(app: FastifyInstance): Promise<void> {
  const body = JSON.stringify(assayAiCatalog(app.assay.config.baseIri), null, 2) + '\n';
  app.get('/.well-known/ai-catalog.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
