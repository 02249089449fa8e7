/**
 * Which questions belong to the NL→SPARQL loop over Assay's own graphs rather than to the
 * publisher pipeline: questions about what the catalog holds ("How many measures does the catalog
 * hold for Census?"), what Assay cited or admitted ("Which publishers did Assay cite for Apple?"),
 * or its runs. Decided from the question's words alone (no graph, no model), as a typed route with
 * the cue that decided it; anything else stays with the publishers.
 */
import { graphIri } from '../rdf/vocab.ts';
import { stem, tokens } from './text.ts';

export type AssayGraphRole = 'catalog' | 'evidence' | 'runs';

export type Route =
  | { route: 'graph'; role: AssayGraphRole; cue: string }
  | { route: 'publishers' };

/** Words that name a part of Assay's catalog (its own vocabulary's classes, in plain words). */
const CATALOG_NOUNS = ['catalog', 'catalogue', 'measure', 'access path', 'operation', 'descriptor', 'dataset', 'data service', 'endpoint', 'rate limit', 'credential', 'pagination'];
const EVIDENCE_VERBS = ['cite', 'cited', 'citation', 'evidence', 'admitted', 'source did', 'sources did', 'retrieved', 'fetched'];
const RUN_NOUNS = ['run', 'runs', 'attempt', 'attempts', 'refusal', 'refusals', 'question asked', 'questions asked'];

export function routeQuestion(question: string): Route {
  const words = tokens(question).map((t) => t.norm);
  const text = ` ${words.join(' ')} `;
  const stems = ` ${words.map(stem).join(' ')} `;
  const has = (phrase: string) => text.includes(` ${phrase} `) || stems.includes(` ${phrase.split(' ').map(stem).join(' ')} `);
  const mentionsAssay = words.includes('assay') || words.includes("assay's");
  for (const v of EVIDENCE_VERBS) if (has(v) && (mentionsAssay || has('publisher') || has('source'))) return { route: 'graph', role: 'evidence', cue: v };
  for (const n of RUN_NOUNS) if (has(n) && mentionsAssay) return { route: 'graph', role: 'runs', cue: n };
  for (const n of CATALOG_NOUNS) {
    if (!has(n)) continue;
    if (n === 'catalog' || n === 'catalogue' || mentionsAssay) return { route: 'graph', role: 'catalog', cue: n };
    // "measure(s)"/"operation(s)" next to "hold", "offer", "list", "how many … does … have": about the catalog.
    if ((n === 'measure' || n === 'access path' || n === 'operation' || n === 'descriptor') && (has('hold') || has('offer') || has('declare') || has('list') || (has('how many') && (has('have') || has('has'))))) {
      return { route: 'graph', role: 'catalog', cue: n };
    }
  }
  return { route: 'publishers' };
}

export function isAboutAssaysGraphs(question: string): boolean {
  return routeQuestion(question).route === 'graph';
}

/** The named graph a route reads (evidence and runs: the union of every graph, since each run has its own). */
export function graphForRoute(route: Extract<Route, { route: 'graph' }>, baseIri: string): string | undefined {
  return route.role === 'catalog' ? graphIri(baseIri, 'catalog') : undefined;
}

/**
 * The question as the loop over Assay's own graphs reads it: "Assay" there names the system whose
 * graph is asked (the route already chose it), not something in the graph, so the word is left out
 * — otherwise it links to whatever the graph labels "Assay …" (a connector agent) and scopes the
 * query to it. Only for a question routed to Assay's graphs.
 */
export function withoutSelfReference(question: string): string {
  return question.replace(/\bAssay(?:['’]s)?\b/giu, ' ').replace(/\s+([?.!,])/gu, '$1').replace(/\s{2,}/gu, ' ').trim();
}
