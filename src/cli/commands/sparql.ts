/**
 * `assay sparql <query|@file>`: query the local store (read-only, so it works beside a
 * running gateway), the configured remote store (--store / ASSAY_STORE_URL), or any SPARQL 1.1
 * endpoint over the protocol (--endpoint).
 */
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../config.ts';
import type { AssayStore } from '../../rdf/backend.ts';
import { openStore } from '../../rdf/open.ts';
import type { Term } from '../../rdf/store.ts';
import { UserError } from '../errors.ts';

export interface SparqlOptions {
  endpoint?: string;
  format: string;
  data?: string;
  store?: string;
}

const MEDIA: Record<string, string> = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
};

async function queryText(arg: string): Promise<string> {
  if (!arg.startsWith('@')) return arg;
  try {
    return await readFile(arg.slice(1), 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the query file ${arg.slice(1)}: ${(e as Error).message}`);
  }
}

export async function sparqlCommand(arg: string, opts: SparqlOptions): Promise<void> {
  const query = await queryText(arg);
  if (opts.endpoint) {
    process.stdout.write(await remote(opts.endpoint, query, opts.format));
    return;
  }
  const config = loadConfig({ dataDir: opts.data, ...(opts.store ? { store: { url: opts.store } } : {}) });
  const store = await openStore(config, { readOnly: true });
  const options = { unionDefaultGraph: true };
  try {
    if (opts.format === 'table') {
      process.stdout.write(renderLocal(store, query, options));
    } else {
      let format = MEDIA[opts.format]!;
      // Graph results asked for as a results format (or the reverse) fall back sensibly.
      try {
        process.stdout.write(store.rdf.querySerialized(query, format, options));
      } catch (e) {
        if (!/format|serializ/i.test((e as Error).message)) throw e;
        format = opts.format === 'json' ? 'application/n-triples' : 'application/sparql-results+json';
        process.stdout.write(store.rdf.querySerialized(query, format, options));
      }
      process.stdout.write('\n');
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`the query failed: ${(e as Error).message}`);
  } finally {
    await store.close();
  }
}

function renderLocal(store: AssayStore, query: string, options: { unionDefaultGraph: boolean }): string {
  let json: string;
  try {
    json = store.rdf.querySerialized(query, 'application/sparql-results+json', options);
  } catch (e) {
    if (!/format|serializ/i.test((e as Error).message)) throw e;
    // CONSTRUCT/DESCRIBE: show the triples as a three-column table.
    const quads = store.rdf.construct(query, options);
    const rows = quads.map((q) => [q.subject, q.predicate, q.object].map(showTerm));
    return table(['subject', 'predicate', 'object'], rows) + count(rows.length, 'triple');
  }
  return renderResultsJson(json);
}

type ResultsJson = { boolean?: boolean; head?: { vars: string[] }; results?: { bindings: Record<string, { value: string; type: string }>[] } };

function renderResultsJson(body: string): string {
  const json = JSON.parse(body) as ResultsJson;
  if (typeof json.boolean === 'boolean') return `${json.boolean}\n`;
  const vars = json.head?.vars ?? [];
  const rows = (json.results?.bindings ?? []).map((b) => vars.map((v) => (b[v] ? show(b[v]!) : '')));
  return table(vars, rows) + count(rows.length, 'row');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}\n`;
}

function showTerm(t: Term): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  return t.value;
}

function show(b: { value: string; type: string }): string {
  if (b.type === 'uri') return `<${b.value}>`;
  if (b.type === 'bnode') return `_:${b.value}`;
  return b.value;
}

function table(vars: string[], rows: string[][]): string {
  const widths = vars.map((v, i) => Math.min(60, Math.max(v.length + 1, ...rows.map((r) => r[i]!.length))));
  const cut = (s: string, w: number) => (s.length > w ? s.slice(0, w - 1) + '…' : s.padEnd(w));
  const line = (cells: string[]) => cells.map((c, i) => cut(c, widths[i]!)).join(' | ').trimEnd() + '\n';
  return line(vars.map((v) => `?${v}`)) + widths.map((w) => '-'.repeat(w)).join('-+-') + '\n' + rows.map(line).join('');
}

async function remote(endpoint: string, query: string, format: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UserError(`--endpoint must be an absolute URL, not "${endpoint}"`);
  }
  const accept = format === 'table' ? 'application/sparql-results+json, text/turtle;q=0.9' : MEDIA[format]!;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', accept },
      body: query,
      signal: AbortSignal.timeout(60_000),
    });
  } catch (e) {
    throw new UserError(`POST ${url.href} failed: ${(e as Error).message}`, 1);
  }
  const body = await res.text();
  if (!res.ok) throw new UserError(`POST ${url.href} answered ${res.status} ${res.statusText}: ${body.slice(0, 500)}`, 1);
  if (format !== 'table' || !(res.headers.get('content-type') ?? '').includes('json')) return body.endsWith('\n') ? body : body + '\n';
  return renderResultsJson(body);
}
