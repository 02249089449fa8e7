// The grant_graph shape executor on the engine's interface: registered for the shape, declines
// without a grant graph, answers with record evidence, refuses with a typed failure, and asks when
// the relation is ambiguous and the caller wants to be asked.
import { beforeAll, describe, expect, it } from 'vitest';
import { executeShape, type Planned } from '../../src/execute/shapes/index.ts';
import { queryContext } from '../../src/execute/context.ts';
import { connectorRuntime } from '../../src/connectors/runtime.ts';
import { openOfflineRegistry } from '../../src/resolve/registry.ts';
import { understand } from '../../src/understand/index.ts';
import type { Plan } from '../../src/plan/plan.ts';
import { EXTRACT, extractRows, ingestedStore, paid, sum } from './helpers.ts';

describe('grant_graph shape executor', async () => {
  const registry = await openOfflineRegistry();
  const runtime = await connectorRuntime({ mode: 'replay' });
  let g: Awaited<ReturnType<typeof ingestedStore>>;
  beforeAll(async () => { g = await ingestedStore([EXTRACT]); }, 120_000);
  const planned = { plan: { verdict: 'exact' } as Plan, candidates: [], units: new Map() } satisfies Planned;
  const run = async (q: string, onAmbiguity: 'answer' | 'ask' = 'answer', withGraph = true) => {
    const u = await understand(q, { interpreter: 'offline' });
    if (u.status !== 'understood') throw new Error(u.reason);
    let n = 0;
    const ctx = queryContext({ id: 'test', runtime, registry });
    try {
      return await executeShape({ ctx, intent: u.intent, planned, onAmbiguity, nextAttempt: () => ++n, ...(withGraph ? { grantGraph: { store: g.store, iris: g.iris } } : {}) });
    } finally { ctx.dispose(); }
  };

  it('answers with record evidence whose totals are the extract\'s', async () => {
    const mott = extractRows().filter((r) => r.foundation_ein === '38-1211227' && paid(r));
    const out = await run('What grants did the Mott Foundation make?');
    if (out.kind !== 'evidence') throw new Error(out.kind);
    expect(out.items[0]).toMatchObject({ source: 'assay-grant-graph', value: sum(mott), unit: 'USD', record: { kind: 'total_paid' } });
    expect(out.attempts).toHaveLength(1);
    expect(out.attempts[0]!.responses[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('declines without a grant graph, and refuses a funder the graph does not hold', async () => {
    expect((await run('What grants did the Mott Foundation make?', 'answer', false)).kind).toBe('declined');
    const out = await run('What grants did the Ford Foundation make?');
    expect(out).toMatchObject({ kind: 'refused', failure: { boundary: 'entity_unresolved', code: 'not_in_graph' } });
  });

  it('asks when "X grants" has grants both ways', async () => {
    const out = await run('Rochester Area Community Foundation grants', 'ask');
    expect(out).toMatchObject({ kind: 'clarify', intent: { interpretations: ['grants Rochester Area Community Foundation made', 'grants Rochester Area Community Foundation received'] } });
  });
});
