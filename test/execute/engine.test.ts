/**
 * The one search engine on synthetic choice points (no connector, no publisher: every response
 * here is a SYNTHETIC OperationResult with no records). What is under test is the lifecycle the
 * engine owns for every shape: budget, per-search cap, cancellation, duplicate choices, responses
 * already held, operational blocks, subtree pruning, recording, classification of publisher
 * failures, and the account of every boundary reached.
 */
import { describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/connectors/records.ts';
import { queryContext } from '../../src/execute/context.ts';
import { exhausted, reachedBySource, search, summarise, type Choice, type Examination, type FetchChoice } from '../../src/execute/engine.ts';
import { classify } from '../../src/execute/failure.ts';
import { PublisherError } from '../../src/http/errors.ts';

const ctx = (o: { budget?: number; leafCap?: number; signal?: AbortSignal } = {}) => queryContext({ id: 't', runtime: {} as never, registry: {} as never, timeoutMs: Infinity, ...o });
const empty = (source: string, operation: string): OperationResult => ({ source, operation, records: [], responses: [], complete: true, notes: [] } as unknown as OperationResult);
const counter = () => { let n = 0; return () => ++n; };
const words = { noData: 'no value for X', nothingBound: 'nothing bound for X' };

type Verdict = 'admit' | 'reject' | 'prune' | 'absent' | Error;
/** A synthetic fetch choice: `verdict` says what the fetch and examination do. */
function choice(source: string, id: string, verdict: Verdict, extra: Partial<FetchChoice<string>> = {}): Choice<string> {
  return {
    kind: 'fetch', source, operation: 'op', args: { id }, bindings: { id }, label: id,
    fetch: async () => { if (verdict instanceof Error) throw verdict; return empty(source, 'op'); },
    examine: (): Examination<string> => verdict === 'admit' ? { admit: id, checks: [] }
      : verdict === 'absent' ? { reject: { boundary: 'no_data', code: 'not_found', message: `${id}: no record` }, checks: [], disposition: 'errored' }
        : { reject: { boundary: 'no_data', code: verdict === 'prune' ? 'different_question' : 'period', message: `${id}: rejected` }, checks: [], prune: verdict === 'prune' },
    ...extra,
  };
}
const provide = (choices: Choice<string>[]) => async function* () { yield* choices; };

describe('search: the attempt lifecycle', () => {
  it('backtracks past failures to the first admission and records every attempt with its disposition', async () => {
    const out = await search(ctx(), provide([choice('a', '1', 'absent'), choice('a', '2', 'reject'), choice('b', '3', 'admit'), choice('b', '4', 'admit')]), { nextAttempt: counter() });
    expect(out.admitted).toEqual(['3']);
    expect(out.attempts.map((a) => [a.n, a.disposition, a.failure ?? null])).toEqual([[1, 'errored', 'not_found'], [2, 'rejected', 'period'], [3, 'accepted', null]]);
  });

  it("a well-formed record answering a different question prunes its source's subtree; other sources are still tried", async () => {
    const out = await search(ctx(), provide([choice('a', '1', 'prune'), choice('a', '2', 'admit'), choice('b', '3', 'admit')]), { nextAttempt: counter() });
    expect(out.admitted).toEqual(['3']);
    expect(out.attempts.map((a) => a.bindings.id)).toEqual(['1', '3']);
    expect(out.notes).toContain('2: skipped, a pruned');
  });

  it('an operational block skips later choices under the keys it marks', async () => {
    const limited = new PublisherError('rate_limited', 'slow down', { url: 'https://x.test/1', source: 'a' });
    const out = await search(ctx(), provide([
      choice('a', '1', limited, { marksBlocked: ['a/op'], skipIfBlocked: ['a/op'] }),
      choice('a', '2', 'admit', { skipIfBlocked: ['a/op'] }),
      choice('b', '3', 'reject'),
    ]), { nextAttempt: counter() });
    expect(out.attempts.map((a) => a.bindings.id)).toEqual(['1', '3']);
    expect(out.attempts[0]!.requests).toEqual(['https://x.test/1']);
    expect(summarise(out, words)).toMatchObject({ boundary: 'no_data', code: 'period' });
  });

  it('a request the offline snapshot does not hold blocks that request only: another request to the operation is still tried', async () => {
    const offline = new PublisherError('offline', 'not in the offline snapshot', { url: 'https://x.test/1', source: 'a' });
    const out = await search(ctx(), provide([
      choice('a', '1', offline, { marksBlocked: ['a/op'], skipIfBlocked: ['a/op'] }),
      // the same request for another concept: skipped, no second attempt
      choice('a', '1', 'admit', { bindings: { id: '1b' }, identity: '1b', skipIfBlocked: ['a/op'] }),
      choice('a', '2', 'admit', { skipIfBlocked: ['a/op'] }),
    ]), { nextAttempt: counter() });
    expect(out.attempts.map((a) => [a.bindings.id, a.failure ?? null])).toEqual([['1', 'offline'], ['2', null]]);
    expect(out.admitted).toEqual(['2']);
  });

  it('after one request of an operation is missing offline, its later requests are tried only when the snapshot records them', async () => {
    const recordedIds = new Set(['3']);
    const runtime = {
      registry: new Map([['a', { buildRequest: (_d: unknown, args: Record<string, string>) => ({ request: { method: 'GET', url: `https://x.test/${args.id}` }, policy: {} }) }]]),
      declarations: { operation: () => ({}) },
      http: { recorded: (req: { url: string }) => recordedIds.has(req.url.slice(-1)) },
    };
    const c = queryContext({ id: 't', runtime: runtime as never, registry: {} as never, timeoutMs: Infinity });
    const offline = new PublisherError('offline', 'not in the offline snapshot', { url: 'https://x.test/1', source: 'a' });
    const out = await search(c, provide([
      choice('a', '1', offline),
      choice('a', '2', 'admit'),
      choice('a', '3', 'admit'),
    ]), { nextAttempt: counter() });
    // 2 is not recorded: a boundary without an attempt; 3 is, and is read
    expect(out.attempts.map((a) => [a.bindings.id, a.failure ?? null])).toEqual([['1', 'offline'], ['3', null]]);
    expect(out.reached.filter((f) => f.code === 'offline').map((f) => f.params?.skipped ?? 'attempted')).toEqual(['attempted', 'not_recorded']);
    expect(out.admitted).toEqual(['3']);
  });

  it('a duplicate choice is tried once, and a response already held settles a choice without a new attempt', async () => {
    const absentIn = () => ({ boundary: 'no_data' as const, code: 'not_found', message: 'not in the response held' });
    const out = await search(ctx(), provide([choice('a', '1', 'reject', { identity: 'x' }), choice('a', '1', 'reject', { identity: 'x' }), choice('a', '1', 'admit', { identity: 'y', absentIn, measure: 'm2' })]), { nextAttempt: counter() });
    expect(out.attempts).toHaveLength(1);
    expect(out.passedOver).toEqual(['m2']);
    expect(out.reached.map((f) => f.message)).toEqual(['1: rejected', 'not in the response held']);
  });

  it('the shared budget and the per-search cap stop the search, saying which', async () => {
    const budget = await search(ctx({ budget: 1 }), provide([choice('a', '1', 'reject'), choice('a', '2', 'admit')]), { nextAttempt: counter() });
    expect(budget.stopped).toMatchObject({ code: 'budget' });
    expect(budget.pending?.kind === 'fetch' && budget.pending.label).toBe('2');
    expect(summarise(budget, words)).toMatchObject({ boundary: 'operationally_blocked', code: 'budget' });
    expect(exhausted(budget)).toBe(false);
    const cap = await search(ctx(), provide([choice('a', '1', 'reject'), choice('a', '2', 'admit')]), { nextAttempt: counter(), cap: 1 });
    expect(cap.stopped).toMatchObject({ code: 'leaf_cap' });
    // a cap is not the reason: what the choices tried said is
    expect(summarise(cap, words)).toMatchObject({ boundary: 'no_data', code: 'period' });
  });

  it('a cancelled question stops before the next choice', async () => {
    const c = new AbortController();
    const out = await search(ctx({ signal: c.signal }), async function* () { yield choice('a', '1', 'reject'); c.abort(new Error('caller went away')); yield choice('a', '2', 'admit'); }, { nextAttempt: counter() });
    expect(out.attempts).toHaveLength(1);
    expect(summarise(out, words)).toMatchObject({ boundary: 'cancelled' });
  });

  it("'all' mode tries every choice within the limits (cross-checks)", async () => {
    const out = await search(ctx(), provide([choice('a', '1', 'admit'), choice('b', '2', 'admit')]), { nextAttempt: counter(), mode: 'all' });
    expect(out.admitted).toEqual(['1', '2']);
  });
});

describe('publisher failures are operationally blocked, never no data (rule 6)', () => {
  const signal = new AbortController().signal;
  it.each([
    ['http_status', 'the publisher answered 500 after all retries'],
    ['html_instead_of_data', 'a web page came back'],
    ['invalid_json', 'the body is truncated'],
    ['empty_body', 'empty'],
    ['timeout', 'one call timed out'],
    ['rate_limited', 'Retry-After past the deadline'],
  ] as const)('%s', (code, detail) => {
    const f = classify(new PublisherError(code, detail, { url: 'https://pub.test/data.json', source: 'pub' }), signal);
    expect(f).toMatchObject({ boundary: 'operationally_blocked', code, source: 'pub', request: 'GET https://pub.test/data.json' });
  });

  it('only the publisher saying it has no such record is no data', () => {
    expect(classify(new PublisherError('not_found', 'no such concept', { source: 'pub' }), signal)).toMatchObject({ boundary: 'no_data', code: 'not_found' });
  });

  it('a bug is rethrown, not classified', () => {
    expect(() => classify(new TypeError('x is undefined'), signal)).toThrow(TypeError);
  });

  it('a search whose only read failed at the publisher ends operationally blocked, naming the request', async () => {
    const out = await search(ctx(), provide([choice('pub', '1', new PublisherError('html_instead_of_data', 'a web page came back', { url: 'https://pub.test/1', source: 'pub' }))]), { nextAttempt: counter() });
    expect(summarise(out, words)).toMatchObject({ boundary: 'operationally_blocked', code: 'html_instead_of_data', request: 'GET https://pub.test/1' });
  });
});

describe('the account of every boundary reached', () => {
  it('groups by source, each code once with a count, and a judged record outranks a failed call', async () => {
    const out = await search(ctx(), provide([
      { kind: 'boundary', failure: { boundary: 'entity_unresolved', code: 'entity_unresolved', message: '"X" is not an organization', source: 'irs' } },
      choice('sec', '1', new PublisherError('offline', 'not recorded', { source: 'sec' })),
      choice('sec', '2', 'absent'),
      choice('sec', '3', 'absent'),
      choice('census', '4', 'reject'),
    ]), { nextAttempt: counter() });
    out.resolved = true;
    expect(reachedBySource(out.reached).map((s) => [s.source, s.boundaries.map((b) => `${b.code}×${b.count}`)])).toEqual([
      ['irs', ['entity_unresolved×1']], ['sec', ['offline×1', 'not_found×2']], ['census', ['period×1']],
    ]);
    expect(summarise(out, words)).toMatchObject({ boundary: 'no_data', code: 'period', message: 'no value for X: 4: rejected' });
    expect(exhausted(out)).toBe(true);
  });
});
