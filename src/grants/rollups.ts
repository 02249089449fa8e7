/**
 * Rollups, materialized at ingest so graph-wide questions read totals instead of scanning edges:
 * per funder, per recipient, per funder–recipient pair with two or more grants, per state, and per
 * funder and state — a grant in the state of the recipient address filed for it (layout 3: a
 * recipient filed under two states counts in each for the grants filed there, so a state total is
 * exactly the grants filed to addresses in that state) — (plus one coverage node: how many filings, funders and
 * documents, which tax years) — each for one payment status, so paid and approved-for-future
 * amounts are never in one sum. A pair with one grant has no rollup: its grant is its total, and
 * the readers take the rollup or the edge (queries.ts). The rollup graph is cleared and rebuilt
 * from the edge graph in the store itself (SPARQL 1.1 Update with aggregate sub-queries), so
 * rebuilding twice gives the same triples and the same text runs on the embedded store and on an
 * endpoint. Each rollup carries its own class only (layout 2; layout 1 also wrote grants:Rollup).
 *
 * Rollup IRIs extend their organization's IRI (`…/org/ein-381211227/as-funder/Paid`), so they are
 * stable across rebuilds. The rollup graph also holds the unit links (units.ts: a recipient filed
 * as "Parent - Unit" carries its parent's name key), derived here from the names the graph holds.
 */
import sparqljs from 'sparqljs';
import { iriRef } from '../rdf/store.ts';
import { PROV } from '../rdf/vocab.ts';
import type { GrantStore } from './store.ts';
import { writeUnitLinks } from './units.ts';
import { writeUnnamedMarks } from './unnamed.ts';
import { G, SDO, type GrantIris } from './vocab.ts';

const status = 'STRAFTER(STR(?s), "#")';

/** The SPARQL Update requests that rebuild the rollup graph, in order. */
export function rollupUpdates(iris: GrantIris): string[] {
  // every IRI here is Assay's own (minted from the configured base); iriRef refuses any that could not be one
  iriRef(iris.graph); iriRef(iris.rollups);
  // an edge's funder and status are its grant list's (layout 2)
  const edges = `GRAPH <${iris.graph}> { ?e <${G.recipient}> ?r ; <${G.amount}> ?a ; <${PROV.wasDerivedFrom}> ?l . ?l <${G.funder}> ?f ; <${G.paymentStatus}> ?s }`;
  // each grant's state: the region of the recipient address its filer gave for it (layout 3)
  const stateOf = `GRAPH <${iris.graph}> { ?e <${G.recipientAddress}> ?place . ?place <${SDO.addressRegion}> ?st }`;
  const types = (cls: string) => `a <${cls}>`;
  return [
    `CLEAR SILENT GRAPH <${iris.rollups}>`,
    `INSERT { GRAPH <${iris.rollups}> { ?node ${types(G.FunderRollup)} ; <${G.rollupFunder}> ?f ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k } }
WHERE { { SELECT ?f ?s (SUM(?a) AS ?total) (COUNT(?e) AS ?n) (COUNT(DISTINCT ?r) AS ?k) WHERE { ${edges} } GROUP BY ?f ?s }
  BIND(IRI(CONCAT(STR(?f), "/as-funder/", ${status})) AS ?node) }`,
    `INSERT { GRAPH <${iris.rollups}> { ?node ${types(G.RecipientRollup)} ; <${G.rollupRecipient}> ?r ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k } }
WHERE { { SELECT ?r ?s (SUM(?a) AS ?total) (COUNT(?e) AS ?n) (COUNT(DISTINCT ?f) AS ?k) WHERE { ${edges} } GROUP BY ?r ?s }
  BIND(IRI(CONCAT(STR(?r), "/as-recipient/", ${status})) AS ?node) }`,
    `INSERT { GRAPH <${iris.rollups}> { ?node ${types(G.PairRollup)} ; <${G.rollupFunder}> ?f ; <${G.rollupRecipient}> ?r ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n } }
WHERE { { SELECT ?f ?r ?s (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE { ${edges} } GROUP BY ?f ?r ?s HAVING (COUNT(?e) > 1) }
  BIND(IRI(CONCAT(STR(?f), "/to/", STRAFTER(STR(?r), "/org/"), "/", ${status})) AS ?node) }`,
    `INSERT { GRAPH <${iris.rollups}> { ?node ${types(G.StateRollup)} ; <${G.rollupState}> ?st ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k } }
WHERE { { SELECT ?st ?s (SUM(?a) AS ?total) (COUNT(?e) AS ?n) (COUNT(DISTINCT ?r) AS ?k) WHERE { ${edges} ${stateOf} } GROUP BY ?st ?s }
  BIND(IRI(CONCAT("${iris.rollup('state/')}", ENCODE_FOR_URI(STR(?st)), "/", ${status})) AS ?node) }`,
    `INSERT { GRAPH <${iris.rollups}> { ?node ${types(G.FunderStateRollup)} ; <${G.rollupFunder}> ?f ; <${G.rollupState}> ?st ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k } }
WHERE { { SELECT ?f ?st ?s (SUM(?a) AS ?total) (COUNT(?e) AS ?n) (COUNT(DISTINCT ?r) AS ?k) WHERE { ${edges} ${stateOf} } GROUP BY ?f ?st ?s }
  BIND(IRI(CONCAT(STR(?f), "/in-state/", ENCODE_FOR_URI(STR(?st)), "/", ${status})) AS ?node) }`,
    // the coverage: counts of what the graph holds, and each tax year, so an answer never scans the filings to state it
    `INSERT { GRAPH <${iris.rollups}> { <${iris.rollup('coverage')}> a <${G.CoverageRollup}> ; <${G.filingCount}> ?filings ; <${G.funderCount}> ?funders ; <${G.documentCount}> ?docs } }
WHERE { { SELECT (COUNT(DISTINCT ?filing) AS ?filings) (COUNT(DISTINCT ?f) AS ?funders) (COUNT(DISTINCT ?d) AS ?docs) WHERE { GRAPH <${iris.graph}> { ?filing a <${G.Filing}> ; <${G.funder}> ?f ; <${PROV.wasDerivedFrom}> ?d } } } }`,
    `INSERT { GRAPH <${iris.rollups}> { <${iris.rollup('coverage')}> <${G.taxYear}> ?y } }
WHERE { { SELECT DISTINCT ?y WHERE { GRAPH <${iris.graph}> { ?filing a <${G.Filing}> ; <${G.taxYear}> ?y } } } }`,
    // the rollups now count every filing the graph holds: the mark an ingest set when it began writing goes
    `DELETE WHERE { GRAPH <${iris.graph}> { <${iris.graph}> <${G.ingestStartedAt}> ?t } }`,
  ].map(checked);
}

/** The mark an ingest sets on the graph before its first write, removed by the last rollup update. */
export function ingestStartedUpdate(iris: GrantIris, at: string): string {
  return checked(`INSERT DATA { GRAPH <${iris.graph}> { <${iris.graph}> <${G.ingestStartedAt}> "${at.replace(/[^0-9TZ:.+-]/g, '')}"^^<http://www.w3.org/2001/XMLSchema#dateTime> } }`);
}

/** Parses the text with sparqljs: a malformed update fails here, not at the endpoint. */
function checked(text: string): string {
  new sparqljs.Parser().parse(text);
  return text;
}

/**
 * Rebuilds the rollup graph: the updates above, and before the last (which clears the mark of an
 * unfinished ingest) the unit links and the unnamed-recipient marks derived from the graph's names
 * (units.ts, unnamed.ts; layout 4), so they
 * are rebuilt with the rollups and a graph marked finished always has them.
 */
export async function rebuildRollups(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<void> {
  const updates = rollupUpdates(iris);
  for (const u of updates.slice(0, -1)) await store.update(u);
  await writeUnitLinks(store, iris, signal);
  await writeUnnamedMarks(store, iris, signal);
  await store.update(updates[updates.length - 1]!);
}
