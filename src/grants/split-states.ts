/**
 * Recipients filed under addresses in more than one state, among those a state total counts.
 *
 * The graph keeps a recipient's addresses on the recipient, not on each grant, and the state
 * rollups count all of a recipient's grants in one of its states (the alphabetically first, so
 * every store agrees). A recipient that filers placed in two states (the American Cancer Society in
 * NY for one grant, in OH for another) therefore moves grants between state totals: a state total
 * that involves one is not the grants filed to addresses in that state, and is not published as if
 * it were. (An edge's funder is its grant list's: layout 2, model.ts.)
 *
 * Input: the state, and optionally the funders the total is of. Output: those recipients, each
 * with its states and one name, at most `limit`.
 */
import { iri, lit, sparql } from '../resolve/sparql-text.ts';
import { PROV } from '../rdf/vocab.ts';
import { num, type GrantStore } from './store.ts';
import { G, SDO, type GrantIris } from './vocab.ts';

export interface SplitRecipient { iri: string; name: string; states: string[] }

export function splitStateRecipientsQuery(iris: GrantIris, state: string, funders: readonly string[], limit: number): string {
  const st = lit(state.toUpperCase());
  const q = funders.length > 0
    ? sparql`SELECT ?r (SAMPLE(?nm) AS ?name) (GROUP_CONCAT(DISTINCT ?s; separator=" ") AS ?states) (COUNT(DISTINCT ?s) AS ?n) WHERE {
  GRAPH ${iri(iris.graph)} {
    { SELECT DISTINCT ?r WHERE { VALUES ?f { ${funders.map(iri)} } ?l ${iri(G.funder)} ?f . ?e ${iri(PROV.wasDerivedFrom)} ?l ; ${iri(G.recipient)} ?r . ?r ${iri(SDO.addressRegion)} ${st} } }
    ?r ${iri(SDO.addressRegion)} ?s .
    OPTIONAL { ?r ${iri(SDO.name)} ?nm }
  }
} GROUP BY ?r HAVING (COUNT(DISTINCT ?s) > 1) ORDER BY ?r LIMIT ${limit}`
    : sparql`SELECT ?r (SAMPLE(?nm) AS ?name) (GROUP_CONCAT(DISTINCT ?s; separator=" ") AS ?states) (COUNT(DISTINCT ?s) AS ?n) WHERE {
  GRAPH ${iri(iris.graph)} {
    ?r ${iri(SDO.addressRegion)} ${st} .
    ?r ${iri(SDO.addressRegion)} ?s .
    OPTIONAL { ?r ${iri(SDO.name)} ?nm }
  }
} GROUP BY ?r HAVING (COUNT(DISTINCT ?s) > 1) ORDER BY ?r LIMIT ${limit}`;
  return q;
}

export async function splitStateRecipients(store: GrantStore, iris: GrantIris, state: string, funders: readonly string[], signal?: AbortSignal, limit = 6): Promise<SplitRecipient[]> {
  const rows = await store.select(splitStateRecipientsQuery(iris, state, funders, limit), signal);
  return rows.filter((r) => num(r.n) > 1).map((r) => ({ iri: r.r!.value, name: r.name?.value ?? r.r!.value, states: r.states!.value.split(' ').sort() }));
}
