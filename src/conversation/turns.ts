/**
 * A conversation's turns, kept in the store and nowhere else: each turn's run graph says the run
 * is `dct:isPartOf` the conversation (a `schema:Conversation` at `<base>conversation/<id>`) and
 * `prov:wasInformedBy` the turn before it; a follow-up lists the intent fields it carried over
 * (`assay:carriedOver`). So a conversation survives a restart and any gateway replica on the same
 * store can continue it. Lookups go through `match()` with RDF terms: nothing a client sends
 * becomes query text.
 */
import { randomBytes } from 'node:crypto';
import type { AssayStore } from '../rdf/backend.ts';
import { factory, type Quad } from '../rdf/store.ts';
import { RDF_OUTPUT, serializeRdf } from '../rdf/serialize.ts';
import { ASSAY, DCT, PROV, RDF, SCHEMA, ensureSlash } from '../rdf/vocab.ts';
import { runIris } from '../evidence/iris.ts';
import { parseIntent, type Intent } from '../understand/intent.ts';

/** Conversation ids: like run ids, 6–64 letters, digits, "-" or "_". */
export const CONVERSATION_ID = /^[A-Za-z0-9_-]{6,64}$/;

export function newConversationId(): string { return randomBytes(8).toString('hex'); }

export function conversationIri(baseIri: string, id: string): string {
  return `${ensureSlash(baseIri)}conversation/${encodeURIComponent(id)}`;
}

export interface Turn { run: string; runId: string; question: string; intent: Intent | null; endedAt: string }

const n = factory.namedNode;

/** The conversation's turns, oldest first (by the time each run ended). */
export function turnsOf(store: AssayStore, baseIri: string, id: string): Turn[] {
  const conv = n(conversationIri(baseIri, id));
  const runPrefix = `${ensureSlash(baseIri)}run/`;
  const out: Turn[] = [];
  for (const q of store.rdf.match(null, n(DCT.isPartOf), conv, null)) {
    if (q.subject.termType !== 'NamedNode' || !q.subject.value.startsWith(runPrefix)) continue;
    const g = q.graph as Quad['graph'];
    const one = (p: string) => store.rdf.match(q.subject, n(p), null, g)[0]?.object.value;
    const json = one(ASSAY.intentJson);
    let intent: Intent | null = null;
    if (json) {
      try {
        const r = parseIntent(JSON.parse(json));
        if (r.ok) intent = r.intent;
      } catch { /* a run whose intent no longer parses carries nothing forward */ }
    }
    out.push({ run: q.subject.value, runId: decodeURIComponent(q.subject.value.slice(runPrefix.length)), question: one(ASSAY.question) ?? '', intent, endedAt: one(PROV.endedAtTime) ?? '' });
  }
  // By instant, not by text: the store keeps xsd:dateTime in canonical form, which drops trailing
  // zeros of the fraction ("…30.120Z" reads back "…30.12Z"), so the strings do not sort as times.
  return out.sort((a, b) => instant(a.endedAt) - instant(b.endedAt));
}

const instant = (t: string): number => { const ms = Date.parse(t); return Number.isNaN(ms) ? 0 : ms; };

/** The turn a follow-up is read against: the latest one whose question was understood. */
export function previousTurn(store: AssayStore, baseIri: string, id: string): Turn | null {
  const turns = turnsOf(store, baseIri, id).filter((t) => t.intent !== null);
  return turns[turns.length - 1] ?? null;
}

/** Links a finished run into its conversation (one journaled write, in the run's own graph). */
export async function recordTurn(store: AssayStore, baseIri: string, o: { conversation: string; runId: string; informedBy: string | null; carried: readonly string[] }): Promise<void> {
  const iris = runIris(baseIri, o.runId);
  const g = n(iris.runGraph);
  const run = n(iris.run);
  const conv = n(conversationIri(baseIri, o.conversation));
  const quads: Quad[] = [
    factory.quad(conv, n(RDF.type), n(SCHEMA.Conversation), g),
    factory.quad(run, n(DCT.isPartOf), conv, g),
    ...(o.informedBy ? [factory.quad(run, n(PROV.wasInformedBy), n(o.informedBy), g)] : []),
    ...o.carried.map((f) => factory.quad(run, n(ASSAY.carriedOver), factory.literal(f), g)),
  ];
  await store.apply({ kind: 'load', format: RDF_OUTPUT.nquads, data: await serializeRdf(quads, RDF_OUTPUT.nquads) });
}
