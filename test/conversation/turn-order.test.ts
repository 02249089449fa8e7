/**
 * A conversation's turns come back in the order they ended, whatever the millisecond: the store
 * keeps an xsd:dateTime in canonical form ("…30.120Z" reads back "…30.12Z"), so ordering the text
 * put a turn that ended at .120 after one that ended at .123 — and a follow-up was then read
 * against the older turn (CI saw "what about Alphabet?" answered for 2023 after "and in 2022?").
 */
import { describe, expect, it } from 'vitest';
import { DurableStore } from '../../src/rdf/durable.ts';
import { factory } from '../../src/rdf/store.ts';
import { toNQuads } from '../../src/ask/record.ts';
import { ASSAY, DCT, PROV, XSD } from '../../src/rdf/vocab.ts';
import { conversationIri, previousTurn, turnsOf } from '../../src/conversation/turns.ts';

const BASE = 'http://assay.test/';
const n = factory.namedNode;

describe('conversation turn order', () => {
  it('orders by instant, not by the canonical text the store gives back', async () => {
    const store = DurableStore.inMemory();
    const conv = n(conversationIri(BASE, 'abcdef123456'));
    const turn = (id: string, endedAt: string, period: string) => {
      const run = n(`${BASE}run/${id}`);
      const g = n(`${BASE}graph/run/${id}`);
      const intent = { question: `in ${period}?`, shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'total revenue' };
      return [
        factory.quad(run, n(DCT.isPartOf), conv, g),
        factory.quad(run, n(PROV.endedAtTime), factory.literal(endedAt, n(XSD.dateTime)), g),
        factory.quad(run, n(ASSAY.question), factory.literal(`in ${period}?`), g),
        factory.quad(run, n(ASSAY.intentJson), factory.literal(JSON.stringify(intent)), g),
      ];
    };
    const quads = [...turn('first1', '2026-12-02T11:17:30.100Z', '2023'), ...turn('second', '2026-12-02T11:17:30.120Z', '2022'), ...turn('third1', '2026-12-02T11:17:30.123Z', '2021')];
    await store.apply({ kind: 'load', format: 'application/n-quads', data: toNQuads(quads) });
    expect(turnsOf(store, BASE, 'abcdef123456').map((t) => t.runId)).toEqual(['first1', 'second', 'third1']);
    expect(previousTurn(store, BASE, 'abcdef123456')?.runId).toBe('third1');
    await store.close();
  });
});
