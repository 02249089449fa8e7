/**
 * The grant graph's layout version: which model (model.ts) its triples are written in.
 *
 * Input: the store and the graph's IRIs. Output: the layout the graph is marked with, and the
 * SPARQL Updates that upgrade a graph written in an earlier layout to this build's.
 * Decides: that a graph holding filings but no layout mark (or another one) is not read as this
 * layout — readers refuse it (`layout_outdated`, naming what to run), and the next ingest upgrades it
 * in place before it writes. Never: reads an old graph as if it were the new one, where a query
 * over lists would find no edges and answer "no grants" instead of saying why.
 *
 * Layout 1 (before 2026-12-02): every edge carried its type, funder, tax year and payment status
 * and derived from its filing; every funder–recipient pair had a rollup, and every rollup was also
 * typed grants:Rollup. Layout 2: an edge derives from its grant list (filing × payment status),
 * which states the funder, tax year and status once; pair rollups only for pairs of two or more.
 */
import sparqljs from 'sparqljs';
import { iriRef } from '../rdf/store.ts';
import { DCT, PROV, XSD } from '../rdf/vocab.ts';
import type { GrantStore } from './store.ts';
import { G, GRANT_LAYOUT, type GrantIris } from './vocab.ts';

/** The mark a graph written in this build's layout carries (replacing any other). */
export function layoutMarkUpdate(iris: GrantIris): string {
  const g = iriRef(iris.graph);
  return checked(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ;
INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> "${GRANT_LAYOUT}"^^<${XSD.integer}> } }`);
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
 * its list with the four statements the list now holds removed, then the mark. The rollups are
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
    layoutMarkUpdate(iris),
  ].map(checked);
}

/**
 * Brings the graph to this build's layout before an ingest writes to it: an empty graph is
 * marked; a graph in layout 1 (no mark, but filings) is upgraded in place. Returns the layout
 * found when it upgraded, else undefined. A graph marked with a layout this build does not know
 * (a newer Assay wrote it) is refused.
 */
export async function ensureLayout(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<{ upgradedFrom: number } | undefined> {
  const { layout, filings } = await readLayout(store, iris, signal);
  if (layout === GRANT_LAYOUT) return undefined;
  if (layout !== null && layout > GRANT_LAYOUT) throw new LayoutError(`the grant graph <${iris.graph}> is written in layout ${layout}, newer than this build's ${GRANT_LAYOUT}: ingest with the Assay that wrote it, or clear the graph and ingest its files again`);
  if (!filings) { await store.update(layoutMarkUpdate(iris)); return undefined; }
  for (const u of upgradeUpdates(iris)) await store.update(u);
  return { upgradedFrom: layout ?? 1 };
}

export class LayoutError extends Error {
  constructor(message: string) { super(message); this.name = 'LayoutError'; }
}

function checked(text: string): string {
  new sparqljs.Parser().parse(text);
  return text;
}

