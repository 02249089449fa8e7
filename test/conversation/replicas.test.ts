/**
 * A conversation lives in the store, so two gateway replicas on one remote store (Virtuoso, each
 * replica with its own connection) continue each other's conversations: the first turn is asked
 * on one, the follow-up on the other, which reads the previous turn's intent from the store.
 * Virtuoso comes from .ci/run (shared) or a private instance started for this file; without it the
 * file skips with the reason (in CI that is a failure; see test/rdf/helpers/virtuoso.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteStore } from '../../src/rdf/remote.ts';
import { loadAskServices, type AskServices } from '../../src/ask/services.ts';
import { askTurn } from '../../src/conversation/ask.ts';
import { turnsOf } from '../../src/conversation/turns.ts';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from '../rdf/helpers/virtuoso.ts';
import { testServices } from '../ask/services.ts';

const skip = await virtuosoUnavailable();

describe.skipIf(skip !== undefined)('a conversation across two replicas on one remote store', () => {
  let v: Virtuoso;
  const base = uniqueBase('conversation');
  const stores: RemoteStore[] = [];
  let a: AskServices;
  let b: AskServices;
  beforeAll(async () => {
    v = await startVirtuoso();
    const shared = await testServices(); // the catalog index, registry and cassettes, loaded once
    const replica = async () => {
      const store = await RemoteStore.open(v.store(), { baseIri: base });
      stores.push(store);
      return loadAskServices({ store, baseIri: base, index: shared.index, registry: shared.registry, runtime: shared.runtime });
    };
    a = await replica();
    b = await replica();
  }, 600_000);
  afterAll(async () => { for (const s of stores) await s.close(); await v?.stop(); }, 120_000);

  it('a follow-up asked on the other replica is read against the turn the first one recorded', async () => {
    const first = await askTurn(a, { question: "What was Apple's total revenue in 2023?" });
    expect(first.status).toBe('answered');
    const next = await askTurn(b, { question: 'and in 2022?', conversation: first.conversation });
    expect(next.status, JSON.stringify(next.refusal)).toBe('answered');
    expect(next.evidence[0]).toMatchObject({ entity: 'Apple Inc.', period: 'FY2022', value: 394328000000 });
    expect(next.followup).toMatchObject({ from_run: first.run, parts: ['period'] });
    // and the first replica sees both turns, in order, the second informed by the first
    const turns = turnsOf(a.store, base, first.conversation);
    expect(turns.map((t) => t.run)).toEqual([first.run, next.run]);
  }, 300_000);
});
