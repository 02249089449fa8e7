/**
 * grants ingest: files → the grant graph (one named graph, role "grants") and its rollups.
 *
 * Input: e-file XML returns and CSV extracts (grants extracts; Business Master File extracts for
 * NTEE codes), each optionally beside a `<file>.provenance.json` sidecar saying where it came from.
 * Output: an IngestReport — per document what was added, skipped or replaced and why, and the
 * parse issues — with the graph and its rollups written to the store.
 *
 * Decides: idempotency (a document already held with the same SHA-256 is not written again, so a
 * second ingest of a file changes nothing), and overlap (a filing — funder, tax year, form — is held
 * from one document only: another document's copy of it is skipped with a reason unless `replace`
 * is set, so the same grants are never counted twice). EINs are reconciled with the identity
 * registry: an organization whose EIN the registry also holds is linked to it with owl:sameAs; a
 * registry entry of the same name with another EIN is reported, not merged.
 * Never: loses what is already held when a file is bad (a file that fails to parse writes nothing).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DCT, OWL, PROV, RDF, WD, XSD } from '../rdf/vocab.ts';
import { normaliseName, type IdentityRegistry } from '../resolve/registry.ts';
import { iri, sparql } from '../resolve/sparql-text.ts';
import { parseEfile, EfileFormatError } from './efile.ts';
import { parseCsvInput, ExtractFormatError } from './extract.ts';
import { TripleWriter, filingIriOf, formOf, iriNt, litNt, orgLocal, writeDoc, writeEdge, writeFiling, writeNtee } from './model.ts';
import { clearPendingUpdate, ensureLayout, finishLayout } from './layout.ts';
import { ingestStartedUpdate, rebuildRollups } from './rollups.ts';
import type { GrantStore } from './store.ts';
import type { FilingCover, ParsedDoc, ParseIssue } from './types.ts';
import { G, type GrantIris } from './vocab.ts';

export interface IngestInput { fileName: string; text: string }

export interface DocReport {
  file: string;
  docId: string;
  kind: ParsedDoc['doc']['kind'];
  /** upgraded: held already, in an earlier layout; its grants were written again in this build's (layout.ts). */
  outcome: 'added' | 'unchanged' | 'upgraded' | 'replaced' | 'skipped';
  edges: number;
  filings: number;
  ntee: number;
  /** Filings in this document that another document already supplies (not written). */
  heldElsewhere: Array<{ filing: string; heldBy: string }>;
  issues: ParseIssue[];
}

export interface IngestReport {
  docs: DocReport[];
  /** Files that could not be read at all (nothing from them was written). */
  failed: Array<{ file: string; message: string }>;
  reconciled: { linked: number; conflicts: Array<{ ein: string; name: string; registryId: string; registryEins: string[] }> };
  graph: { edges: number; filings: number; funders: number; triples: number; rollupTriples: number };
  /** The layout the graph was in when this ingest upgraded it to this build's (layout.ts); absent when it was current. */
  upgradedFrom?: number;
  /**
   * An upgrade this ingest could not finish: the graph was in layout `from`, and these documents'
   * grants (file as recorded at their ingest) are still in layout 2 — ingest those files again.
   */
  upgradePending?: { from: number; files: string[] };
}

export class IngestInputError extends Error {
  constructor(message: string) { super(message); this.name = 'IngestInputError'; }
}

/** Reads a file and its provenance sidecar (`<file>.provenance.json`: `{ "upstream": "...", "note": "..." }`). */
export async function readIngestFile(path: string): Promise<IngestInput & { upstream?: string; note?: string }> {
  const text = await readFile(path, 'utf8');
  let side: { upstream?: string; note?: string } = {};
  try { side = JSON.parse(await readFile(`${path}.provenance.json`, 'utf8')) as typeof side; } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new IngestInputError(`${path}.provenance.json is not valid JSON: ${(e as Error).message}`);
  }
  return { fileName: path, text, ...(side.upstream ? { upstream: side.upstream } : {}), ...(side.note ? { note: side.note } : {}) };
}

export function parseInput(f: IngestInput & { upstream?: string; note?: string }): ParsedDoc {
  const sha256 = createHash('sha256').update(f.text).digest('hex');
  const head = f.text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return parseEfile({ text: f.text, fileName: f.fileName, sha256 });
  return parseCsvInput({ text: f.text, fileName: f.fileName, sha256, upstream: f.upstream ?? null, note: f.note ?? null });
}

export interface IngestOptions {
  iris: GrantIris;
  registry?: IdentityRegistry;
  /** Let a document's filings replace the same filings held from another document. */
  replace?: boolean;
  /** Timestamp recorded as the documents' prov:generatedAtTime (default now). */
  now?: string;
  signal?: AbortSignal;
}

interface Held { docs: Map<string, string>; filings: Map<string, string> }

async function held(store: GrantStore, iris: GrantIris): Promise<Held> {
  const docs = new Map<string, string>();
  for (const r of await store.select(sparql`SELECT ?d ?sha WHERE { GRAPH ${iri(iris.graph)} { ?d ${iri(RDF.type)} ${iri(G.SourceDocument)} ; ${iri(G.sha256)} ?sha } }`)) docs.set(r.d!.value, r.sha!.value);
  const filings = new Map<string, string>();
  for (const r of await store.select(sparql`SELECT ?f ?d WHERE { GRAPH ${iri(iris.graph)} { ?f ${iri(RDF.type)} ${iri(G.Filing)} ; ${iri(PROV.wasDerivedFrom)} ?d } }`)) filings.set(r.f!.value, r.d!.value);
  return { docs, filings };
}

/** Removes one filing's edges, its grant lists and the filing node (the document node stays if other filings use it). */
function dropFiling(filing: string, graph: string): string {
  const g = iri(graph);
  return sparql`DELETE { GRAPH ${g} { ?e ?p ?o } } WHERE { GRAPH ${g} { ?l ${iri(DCT.isPartOf)} ${iri(filing)} . ?e ${iri(PROV.wasDerivedFrom)} ?l ; ?p ?o } } ;
DELETE { GRAPH ${g} { ?l ?p ?o } } WHERE { GRAPH ${g} { ?l ${iri(DCT.isPartOf)} ${iri(filing)} ; ?p ?o } } ;
DELETE WHERE { GRAPH ${g} { ${iri(filing)} ?p ?o } }`;
}

function dropDoc(doc: string, graph: string): string {
  return sparql`DELETE WHERE { GRAPH ${iri(graph)} { ${iri(doc)} ?p ?o } }`;
}

export async function ingest(store: GrantStore, inputs: ReadonlyArray<IngestInput & { upstream?: string; note?: string }>, opts: IngestOptions): Promise<IngestReport> {
  const { iris } = opts;
  const now = opts.now ?? new Date().toISOString();
  const report: IngestReport = { docs: [], failed: [], reconciled: { linked: 0, conflicts: [] }, graph: { edges: 0, filings: 0, funders: 0, triples: 0, rollupTriples: 0 } };
  const parsed: ParsedDoc[] = [];
  // parse everything first: a bad file is reported and writes nothing; the good ones still go in
  for (const f of inputs) {
    try { parsed.push(parseInput(f)); } catch (e) {
      if (e instanceof EfileFormatError || e instanceof ExtractFormatError) { report.failed.push({ file: f.fileName, message: e.message }); continue; }
      throw e;
    }
  }
  // a graph in an earlier layout is upgraded in place first, as far as the store alone can (layout.ts); an empty one is marked
  const layout = await ensureLayout(store, iris, opts.signal);
  const h = await held(store, iris);
  const newEins = new Map<string, string>();
  // until the rollups are rebuilt below, answers say an ingest is unfinished (one that dies midway leaves the mark)
  // (an upgrade too: the layout mark goes on before the rollup rebuild writes what it promises)
  if (parsed.length > 0 || layout.from !== undefined) await store.update(ingestStartedUpdate(iris, now));
  for (const p of parsed) {
    opts.signal?.throwIfAborted();
    const docIri = iris.doc(p.doc.docId);
    const r: DocReport = { file: p.doc.fileName, docId: p.doc.docId, kind: p.doc.kind, outcome: 'added', edges: 0, filings: 0, ntee: 0, heldElsewhere: [], issues: p.issues };
    report.docs.push(r);
    const sha = h.docs.get(docIri);
    const elsewhere = p.covers.map((c) => filingIriOf(iris, c)).filter((fi) => { const d = h.filings.get(fi); return d !== undefined && d !== docIri; });
    // a document held in layout 2 is written again: its grants get the addresses filed for them (the rest is what the graph holds)
    const upgrade = sha === p.doc.sha256 && layout.pending.has(docIri);
    if (sha === p.doc.sha256 && elsewhere.length === 0 && !upgrade) { r.outcome = 'unchanged'; continue; }
    if (upgrade && elsewhere.length === 0) r.outcome = 'upgraded';
    if (sha !== undefined && sha !== p.doc.sha256) {
      // the same document id with other bytes (a corrected return): its filings are replaced
      for (const [filing, d] of h.filings) if (d === docIri) { await store.update(dropFiling(filing, iris.graph)); h.filings.delete(filing); }
      await store.update(dropDoc(docIri, iris.graph));
      r.outcome = 'replaced';
    }
    const keep = new Set<string>();
    for (const c of p.covers) {
      const fi = filingIriOf(iris, c);
      const other = h.filings.get(fi);
      if (other && other !== docIri) {
        if (!opts.replace) { r.heldElsewhere.push({ filing: fi, heldBy: other }); continue; }
        await store.update(dropFiling(fi, iris.graph));
        r.outcome = 'replaced';
      }
      keep.add(fi);
      h.filings.set(fi, docIri);
    }
    if (keep.size === 0 && p.ntee.length === 0 && r.heldElsewhere.length > 0) { r.outcome = 'skipped'; continue; }
    const w = new TripleWriter();
    // an upgraded document keeps its node as first ingested (its ingest time and file name)
    if (r.outcome !== 'upgraded') writeDoc(w, iris, p.doc, now);
    const covers: FilingCover[] = p.covers.filter((c) => keep.has(filingIriOf(iris, c)));
    for (const c of covers) writeFiling(w, iris, c);
    for (const e of p.edges) {
      if (!keep.has(filingIriOf(iris, { funderEin: e.funder.ein, taxYear: e.taxYear, form: formOf(e.part) }))) continue;
      writeEdge(w, iris, e, normaliseName);
      r.edges++;
      newEins.set(e.funder.ein, e.funder.name);
      if (e.recipient.ein) newEins.set(e.recipient.ein, e.recipient.name);
    }
    for (const n of p.ntee) writeNtee(w, iris, n);
    r.filings = covers.length;
    r.ntee = p.ntee.length;
    await store.insertTriples(iris.graph, w.text());
    if (layout.pending.delete(docIri)) await store.update(clearPendingUpdate(iris, docIri));
    h.docs.set(docIri, p.doc.sha256);
  }
  if (layout.from !== undefined) {
    const left = await finishLayout(store, iris, opts.signal);
    if (left.length === 0) report.upgradedFrom = layout.from;
    else report.upgradePending = { from: layout.from, files: left.map((d) => d.file ?? d.doc) };
  }
  if (opts.registry && newEins.size > 0) report.reconciled = await reconcile(store, iris, opts.registry, newEins, opts.signal);
  await rebuildRollups(store, iris, opts.signal);
  report.graph = await graphFigures(store, iris);
  return report;
}

/**
 * Links each organization whose EIN the registry also holds (owl:sameAs the registry's entity).
 * The registry is asked by name (it is a name index); only a candidate carrying the same EIN links.
 */
async function reconcile(store: GrantStore, iris: GrantIris, registry: IdentityRegistry, eins: Map<string, string>, signal?: AbortSignal): Promise<IngestReport['reconciled']> {
  const w = new TripleWriter();
  const out: IngestReport['reconciled'] = { linked: 0, conflicts: [] };
  for (const [ein, name] of eins) {
    signal?.throwIfAborted();
    if (!name.trim()) continue;
    const bundles = await registry.lookup(name, {}, signal).catch(() => []);
    const same = bundles.find((b) => b.identifiers.ein?.includes(ein));
    if (same) {
      w.t(iris.org(orgLocal({ kind: 'ein', ein })), OWL.sameAs, iriNt(same.qid ? WD.ns + same.qid : same.id));
      out.linked++;
      continue;
    }
    const exact = bundles.find((b) => b.match === 'exact' && (b.identifiers.ein?.length ?? 0) > 0);
    if (exact) out.conflicts.push({ ein, name, registryId: exact.id, registryEins: exact.identifiers.ein ?? [] });
  }
  await store.insertTriples(iris.graph, w.text());
  return out;
}

export async function graphFigures(store: GrantStore, iris: GrantIris): Promise<IngestReport['graph']> {
  // an edge is what has a recipient in the edge graph (layout 2 writes no type triple per edge)
  const [row] = await store.select(sparql`SELECT (COUNT(?e) AS ?edges) WHERE { GRAPH ${iri(iris.graph)} { ?e ${iri(G.recipient)} ?r } }`);
  const [f] = await store.select(sparql`SELECT (COUNT(?f) AS ?filings) (COUNT(DISTINCT ?o) AS ?funders) WHERE { GRAPH ${iri(iris.graph)} { ?f ${iri(RDF.type)} ${iri(G.Filing)} ; ${iri(G.funder)} ?o } }`);
  return {
    edges: Number(row?.edges?.value ?? 0), filings: Number(f?.filings?.value ?? 0), funders: Number(f?.funders?.value ?? 0),
    triples: await store.graphSize(iris.graph), rollupTriples: await store.graphSize(iris.rollups),
  };
}

/** Declares (or withdraws) that the graph holds a complete bulk release, which makes its coverage complete. */
export async function declareCoverage(store: GrantStore, iris: GrantIris, complete: boolean, release: string | null): Promise<void> {
  const g = iri(iris.graph);
  await store.update(sparql`DELETE WHERE { GRAPH ${g} { ${g} ${iri(G.coverageComplete)} ?c } } ; DELETE WHERE { GRAPH ${g} { ${g} ${iri(DCT.description)} ?d } }`);
  const w = new TripleWriter();
  w.t(iris.graph, RDF.type, iriNt(G.GrantGraph));
  w.t(iris.graph, G.coverageComplete, litNt(String(complete), XSD.boolean));
  if (release) w.t(iris.graph, DCT.description, litNt(release));
  await store.insertTriples(iris.graph, w.text());
}
