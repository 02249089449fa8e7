/**
 * `assay introspect <file | --graph IRI | --endpoint URL>`: mine a graph with introspect/ and
 * print a schema card (default), VoID, SHACL shapes, the full JSON, a schema diff or facets.
 *
 * Inputs: an RDF file (syntax from its extension or --format; a sidecar `<file>.introspect.json`
 * is reused when newer than the file and written with --sidecar), a graph of the local store
 * (read-only, so it works beside a running gateway; '' or "default" = the default graph), or a
 * remote SPARQL endpoint (one CONSTRUCT of every triple, fetched as N-Triples).
 * Bad input (not RDF, unknown format, empty graph, budget too small, corrupt sidecar) is a
 * message and exit code 2, never a stack trace.
 */
import { stat } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { UserError } from '../errors.ts';
import { graphSource } from '../../void/kept.ts';
import {
  diff, diffText, facets, fromNTriples, IntrospectError, loadSidecar, mine, saveSidecar, sidecarPathFor,
  sourceFromFile, toCard, toJson, toShacl, toVoid, type FacetRequest, type Introspection, type TripleSource,
} from '../../../introspect/index.ts';

export interface IntrospectOptions {
  graph?: string;
  endpoint?: string;
  format?: string;
  data?: string;
  card?: number;
  void?: string;
  shacl?: boolean;
  json?: boolean;
  diff?: string;
  facets?: string[];
  seeds?: string[];
  minimize?: boolean;
  turtle?: boolean;
  sidecar?: boolean;
}

export function registerIntrospect(cli: Command): void {
  cli.command('introspect')
    .description('describe a graph: schema card, VoID, SHACL shapes, JSON, schema diff or facets')
    .argument('[file]', 'an RDF file (.ttl, .nt, .nq, .trig, .rdf, .n3)')
    .option('--graph <iri>', 'a graph of the local store instead of a file ("default" = the default graph)')
    .option('--endpoint <url>', 'a SPARQL 1.1 endpoint to read every triple from')
    .option('--format <syntax>', 'syntax of the file when its extension does not say (turtle, ntriples, nquads, trig, rdfxml, n3)')
    .addOption(new Option('--data <dir>', 'data directory of the local store (env ASSAY_DATA_DIR)'))
    .option('--card <chars>', 'schema card within this many characters (the default output, 4000)', positiveInt)
    .option('--seeds <iri...>', 'scope the card to these classes or predicates')
    .option('--void <datasetIri>', 'VoID description of the graph, with this dataset IRI')
    .option('--shacl', 'SHACL node shapes mined from the graph (the graph conforms to them)')
    .option('--json', 'the full mined result as JSON (the sidecar format)')
    .option('--diff <other.json>', 'schema diff from a saved result (JSON/sidecar) to this graph')
    .option('--facets <constraint...>', 'facets of the subjects matching every constraint: class=<IRI> or <predicate IRI>=<N-Triples value>')
    .option('--minimize', 'profile subjects under their most specific types only (rdfs:subClassOf in the graph)')
    .option('--turtle', 'write VoID and SHACL as Turtle instead of N-Triples')
    .option('--sidecar', 'write <file>.introspect.json beside the file (reused on later runs while newer than the file)')
    .action(async (file: string | undefined, opts: IntrospectOptions) => {
      try {
        await introspectCommand(file, opts);
      } catch (e) {
        if (e instanceof IntrospectError) throw new UserError(e.message);
        throw e;
      }
    });
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UserError(`--card must be a positive whole number of characters, not "${v}"`);
  return n;
}

export async function introspectCommand(file: string | undefined, opts: IntrospectOptions): Promise<void> {
  const inputs = [file !== undefined, opts.graph !== undefined, opts.endpoint !== undefined].filter(Boolean).length;
  if (inputs !== 1) throw new UserError('give exactly one input: a file, --graph <iri> (local store) or --endpoint <url>');
  const options = { minimizeTypes: opts.minimize === true };

  if (opts.facets) {
    const source = await openSource(file, opts);
    process.stdout.write(`${JSON.stringify(facets(source, facetRequest(opts.facets)), null, 2)}\n`);
    return;
  }

  let ix: Introspection | undefined;
  if (file !== undefined && !opts.minimize) ix = await freshSidecar(file);
  if (!ix) {
    ix = mine(await openSource(file, opts), opts.void ? { ...options, minimizeTypes: false } : options);
    if (file !== undefined && opts.sidecar) await saveSidecar(ix, sidecarPathFor(file));
  }
  const format = opts.turtle ? 'turtle' : 'ntriples';
  if (opts.diff) {
    process.stdout.write(`${diffText(diff(await loadSidecar(opts.diff), ix))}\n`);
  } else if (opts.json) {
    process.stdout.write(toJson(ix));
  } else if (opts.void) {
    process.stdout.write(toVoid(ix, absoluteIri(opts.void, '--void'), { format }));
  } else if (opts.shacl) {
    process.stdout.write(toShacl(ix, { format }));
  } else {
    if (ix.triples === 0) throw new UserError('the graph is empty: nothing to describe. Load data into it, or pick another graph or file.');
    process.stdout.write(`${toCard(ix, opts.card ?? 4000, { seeds: opts.seeds })}\n`);
  }
}

async function freshSidecar(file: string): Promise<Introspection | undefined> {
  const side = sidecarPathFor(file);
  try {
    const [a, b] = await Promise.all([stat(file), stat(side)]);
    if (b.mtimeMs < a.mtimeMs) return undefined;
  } catch {
    return undefined;
  }
  return loadSidecar(side);
}

async function openSource(file: string | undefined, opts: IntrospectOptions): Promise<TripleSource> {
  if (file !== undefined) return sourceFromFile(file, { syntax: opts.format });
  if (opts.endpoint !== undefined) return remoteSource(opts.endpoint);
  const graph = opts.graph === 'default' || opts.graph === '' ? '' : absoluteIri(opts.graph!, '--graph');
  const config = loadConfig({ dataDir: opts.data });
  // Kept from empty: a thread folds the snapshot and journal while oxigraph loads them, so the
  // graph is read from those columns instead of dumped (src/void/kept.ts; a graph past the
  // keeper's bounds is dumped as before).
  const store = await openStore(config, { readOnly: true, keep: true });
  try {
    // Read once while the store is open; the source keeps the columns, not the store.
    const source = graphSource(store.rdf, graph);
    source.intern!();
    return source;
  } finally {
    await store.close();
  }
}

async function remoteSource(endpoint: string): Promise<TripleSource> {
  const url = absoluteIri(endpoint, '--endpoint');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', accept: 'application/n-triples' },
      body: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }',
      signal: AbortSignal.timeout(300_000),
    });
  } catch (e) {
    throw new UserError(`POST ${url} failed: ${(e as Error).message}`, 1);
  }
  const body = await res.text();
  if (!res.ok) throw new UserError(`POST ${url} answered ${res.status} ${res.statusText}: ${body.slice(0, 300)}`, 1);
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('n-triples') && !type.includes('text/plain')) {
    throw new UserError(`${url} answered ${type || 'no content type'} instead of N-Triples; it must support CONSTRUCT results as application/n-triples`, 1);
  }
  return fromNTriples(body, { groupedBySubject: false });
}

function absoluteIri(v: string, flag: string): string {
  try {
    new URL(v);
    return v;
  } catch {
    throw new UserError(`${flag} must be an absolute IRI, not "${v}"`);
  }
}

function facetRequest(specs: string[]): FacetRequest {
  const request: { class?: string; constraints: { predicate: string; value: string }[] } = { constraints: [] };
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new UserError(`--facets takes class=<IRI> or <predicate IRI>=<value>, not "${spec}"`);
    const key = spec.slice(0, eq).replace(/^<|>$/g, '');
    const value = spec.slice(eq + 1);
    if (key === 'class') request.class = value.replace(/^<|>$/g, '');
    else request.constraints.push({ predicate: absoluteIri(key, '--facets'), value: /^[<"_]/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"` });
  }
  return request;
}
