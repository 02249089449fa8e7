/**
 * The grant graph's layout version: which model (model.ts) its triples are written in.
 *
 * Input: the store and the graph's IRIs. Output: the layout the graph is marked with, and the
 * steps that upgrade a graph written in an earlier layout to this build's.
 * Decides: that a graph holding filings but no layout mark (or another one) is not read as this
 * layout — readers refuse it (`layout_outdated`, naming what to run), and ingests upgrade it in
 * place. Never: reads an old graph as if it were the new one, where a query over lists would find
 * no edges and answer "no grants", or a state total would count grants with no filed address.
 *
 * Layout 1 (before 2026-12-02): every edge carried its type, funder, tax year and payment status
 * and derived from its filing; every funder–recipient pair had a rollup, and every rollup was also
 * typed grants:Rollup. Layout 2: an edge derives from its grant list (filing × payment status),
 * which states the funder, tax year and status once; pair rollups only for pairs of two or more.
 * Layout 3: each edge also carries the recipient address filed for it (grants:recipientAddress);
 * the state rollups count each grant in its own filed state. Layout 4: the rollups graph also
 * holds the unit links (units.ts: a recipient filed as "Parent - Unit" with no EIN carries its
 * parent's name key), so a question about the parent counts its units' grants.
 *
 * 1 → 2 is SPARQL Update in the store (everything layout 2 states, layout 1 stated per edge). 2 → 3
 * is not: layout 2 kept a recipient's addresses on the recipient, so which address a grant was
 * filed to is in the source file only. The upgrade marks every document the graph holds filings
 * from as still in layout 2 (`grants:layout 2` on the document); an ingest of that document again
 * writes its grants' addresses and clears its mark; when no document is marked, the graph is marked
 * layout 3 (and the rollups the ingest rebuilds count grants by their own state). Until then every
 * reader refuses, naming the files still to ingest. 3 → 4 needs no file: the unit links are
 * derived from the names the graph holds, by the rollup rebuild every ingest ends with — any
 * ingest, one given no file (`assay grants ingest`) too, upgrades it; until then readers refuse.
 */
import sparqljs from 'sparqljs';
import { iriRef } from '../rdf/store.ts';
import { DCT, PROV, XSD } from '../rdf/vocab.ts';
import type { GrantStore } from './store.ts';
import { G, GRANT_LAYOUT, type GrantIris } from './vocab.ts';

/** The mark a graph written in `layout` (default this build's) carries, replacing any other. */
export function layoutMarkUpdate(iris: GrantIris, layout = GRANT_LAYOUT): string {
  const g = iriRef(iris.graph);
  return checked(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ;
INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> "${Math.trunc(layout)}"^^<${XSD.integer}> } }`);
}

/** The layout a graph is marked with (null: none); whether it holds any filing. */
export async function readLayout(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<{ layout: number | null; filings: boolean }> {
  const g = iriRef(iris.graph);
  const [row] = await store.select(`SELECT ?layout ?filing WHERE {
  OPTIONAL { GRAPH ${g} { ${g} <${G.layout}> ?layout } }
  OPTIONAL { { SELECT ?filing WHERE { GRAPH ${g} { ?filing a <${G.Filing}> } } LIMIT 1 } }
}`, signal);
  return { layout: row?.layout ? Number(row.layout.value) : null, filings: row?.filing !== undefined };
}

/**
 * Layout 1 → 2, in the store: the grant lists from what the edges state, each edge re-pointed at
 * its list with the four statements the list now holds removed, then the mark (2). The rollups are
 * rebuilt by the ingest that runs this (rollups.ts), which drops the single-edge pair rollups
 * and the grants:Rollup types.
 */
export function upgradeUpdates(iris: GrantIris): string[] {
  const g = iriRef(iris.graph);
  const listOf = `BIND(IRI(CONCAT(STR(?filing), "/", STRAFTER(STR(?s), "#"))) AS ?l)`;
  const old = `?e a <${G.Grant}> ; <${PROV.wasDerivedFrom}> ?filing ; <${G.funder}> ?f ; <${G.taxYear}> ?y ; <${G.paymentStatus}> ?s`;
  return [
    `INSERT { GRAPH ${g} { ?l a <${G.GrantList}> ; <${DCT.isPartOf}> ?filing ; <${G.funder}> ?f ; <${G.taxYear}> ?y ; <${G.paymentStatus}> ?s } }
WHERE { { SELECT DISTINCT ?filing ?f ?y ?s WHERE { GRAPH ${g} { ${old} } } } ${listOf} }`,
    `DELETE { GRAPH ${g} { ?e a <${G.Grant}> ; <${PROV.wasDerivedFrom}> ?filing ; <${G.funder}> ?f ; <${G.taxYear}> ?y ; <${G.paymentStatus}> ?s } }
INSERT { GRAPH ${g} { ?e <${PROV.wasDerivedFrom}> ?l } }
WHERE { GRAPH ${g} { ${old} } ${listOf} }`,
    layoutMarkUpdate(iris, 2),
  ].map(checked);
}

/** Layout 2 → 3, first step: every document the graph holds filings from is marked as still in layout 2. */
export function markPendingUpdate(iris: GrantIris): string {
  const g = iriRef(iris.graph);
  return checked(`INSERT { GRAPH ${g} { ?d <${G.layout}> "2"^^<${XSD.integer}> } }
WHERE { { SELECT DISTINCT ?d WHERE { GRAPH ${g} { ?filing a <${G.Filing}> ; <${PROV.wasDerivedFrom}> ?d } } } }`);
}

/** A document's grants now carry their filed addresses: its layout-2 mark goes. */
export function clearPendingUpdate(iris: GrantIris, doc: string): string {
  const g = iriRef(iris.graph);
  return checked(`DELETE WHERE { GRAPH ${g} { ${iriRef(doc)} <${G.layout}> ?v } }`);
}

export interface PendingDocument { doc: string; file: string | null }

/**
 * The documents an upgrade to layout 3 still waits for: marked, and still the source of a filing
 * (a document whose filings were all replaced by another's has nothing left to upgrade).
 */
export async function pendingDocuments(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<PendingDocument[]> {
  const g = iriRef(iris.graph);
  const rows = await store.select(checked(`SELECT ?d (MIN(?at) AS ?file) WHERE {
  GRAPH ${g} { ?d <${G.layout}> ?v . FILTER EXISTS { ?filing a <${G.Filing}> ; <${PROV.wasDerivedFrom}> ?d } OPTIONAL { ?d <${PROV.atLocation}> ?at } }
} GROUP BY ?d ORDER BY ?d`), signal);
  return rows.map((r) => ({ doc: r.d!.value, file: r.file?.value ?? null }));
}

/**
 * What a reader refusing an earlier layout names to ingest again: the pending documents of an
 * upgrade under way, else every document the graph holds filings from; the first `limit` by IRI, and
 * how many there are.
 */
export async function filesToIngestAgain(store: GrantStore, iris: GrantIris, limit = 5, signal?: AbortSignal): Promise<{ files: string[]; total: number }> {
  let docs = await pendingDocuments(store, iris, signal);
  if (docs.length === 0) {
    const g = iriRef(iris.graph);
    const rows = await store.select(checked(`SELECT ?d (MIN(?at) AS ?file) WHERE {
  GRAPH ${g} { ?filing a <${G.Filing}> ; <${PROV.wasDerivedFrom}> ?d . OPTIONAL { ?d <${PROV.atLocation}> ?at } }
} GROUP BY ?d ORDER BY ?d`), signal);
    docs = rows.map((r) => ({ doc: r.d!.value, file: r.file?.value ?? null }));
  }
  return { files: docs.slice(0, limit).map((d) => d.file ?? d.doc), total: docs.length };
}

export interface LayoutState {
  /** The layout the graph was in when this ingest began, when it was not this build's. */
  from?: number;
  /** Documents whose grants are still in layout 2: an ingest of one of them writes their addresses. */
  pending: Set<string>;
}

/**
 * Brings the graph toward this build's layout before an ingest writes to it: an empty graph is
 * marked; a graph in layout 1 (no mark, but filings) is upgraded in place to layout 2; a graph in
 * layout 2 has its documents marked as pending (2 → 3 needs the files); a graph in layout 3 needs
 * only the rollup rebuild the ingest ends with (3 → 4). Returns the layout found
 * and the pending documents; `finishLayout` marks the graph layout 3 once none is left. A graph
 * marked with a layout this build does not know (a newer Assay wrote it) is refused.
 */
export async function ensureLayout(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<LayoutState> {
  const { layout, filings } = await readLayout(store, iris, signal);
  if (layout === GRANT_LAYOUT) return { pending: new Set() };
  if (layout !== null && layout > GRANT_LAYOUT) throw new LayoutError(`the grant graph <${iris.graph}> is written in layout ${layout}, newer than this build's ${GRANT_LAYOUT}: ingest with the Assay that wrote it, or clear the graph and ingest its files again`);
  if (!filings) { await store.update(layoutMarkUpdate(iris)); return { pending: new Set() }; }
  // 3 → 4: nothing to write here; the rollup rebuild derives the unit links from the names held, and finishLayout marks it
  if (layout === 3) return { from: 3, pending: new Set() };
  if (layout === null) for (const u of upgradeUpdates(iris)) await store.update(u);
  // an upgrade an earlier ingest began (some documents already ingested again) goes on from where it was
  const g = iriRef(iris.graph);
  const begun = await store.select(checked(`SELECT ?d WHERE { GRAPH ${g} { ?d <${G.layout}> ?v ; a <${G.SourceDocument}> } } LIMIT 1`), signal);
  if (begun.length === 0) await store.update(markPendingUpdate(iris));
  return { from: layout ?? 1, pending: new Set((await pendingDocuments(store, iris, signal)).map((d) => d.doc)) };
}

/**
 * After an ingest that found the graph in an earlier layout: marks it this build's layout when no document is
 * pending any more (and clears the marks of documents that no longer hold a filing); otherwise
 * returns the documents still to ingest, and the graph keeps its layout-2 mark.
 */
export async function finishLayout(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<PendingDocument[]> {
  const left = await pendingDocuments(store, iris, signal);
  if (left.length > 0) return left;
  const g = iriRef(iris.graph);
  await store.update(checked(`DELETE { GRAPH ${g} { ?d <${G.layout}> ?v } } WHERE { GRAPH ${g} { ?d <${G.layout}> ?v ; a <${G.SourceDocument}> } }`));
  await store.update(layoutMarkUpdate(iris));
  return [];
}

export class LayoutError extends Error {
  constructor(message: string) { super(message); this.name = 'LayoutError'; }
}

function checked(text: string): string {
  new sparqljs.Parser().parse(text);
  return text;
}
