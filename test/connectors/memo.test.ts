/**
 * Operation results remembered across questions by content (src/connectors/memo.ts): the request is
 * sent every time; the records of an earlier run are reused only for byte-identical responses, with
 * pointers to this fetch; a changed response is read again; failures are not remembered; what is
 * remembered cannot be changed by a reader. Parsed JSON bodies likewise (src/http/client.ts).
 */
import { describe, expect, it } from 'vitest';
import { HttpClient, type RequestPolicy } from '../../src/http/client.ts';
import { systemClock, type Clock } from '../../src/http/context.ts';
import { freezeResult, memoized, memoSize } from '../../src/connectors/memo.ts';
import type { ConnectorContext } from '../../src/connectors/types.ts';
import { lazyRecords, measureRecords, pointer, type Observation, type OperationResult } from '../../src/connectors/records.ts';
import type { Declarations } from '../../src/connectors/declarations.ts';

const URL_ = 'https://data.example.gov/api/facts.json';
const policy: RequestPolicy = { source: 'example', expect: 'json' };

function setup() {
  let body = JSON.stringify({ facts: [{ year: 2023, value: 10 }, { year: 2022, value: 9 }] });
  let now = Date.parse('2026-12-01T10:00:00Z');
  const calls: string[] = [];
  const fetchImpl = (async (url: string) => {
    calls.push(url);
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  const http = new HttpClient({ mode: 'live', fetch: fetchImpl });
  const clock: Clock = { now: () => now, sleep: systemClock.sleep };
  const ctx: ConnectorContext = { signal: new AbortController().signal, deadline: Infinity, clock, http, declarations: {} as Declarations };
  let parses = 0;
  const run = async (c: ConnectorContext): Promise<OperationResult> => {
    parses++;
    const raw = await c.http.request({ method: 'GET', url: URL_ }, policy, c);
    const facts = (raw.json as { facts: { year: number; value: number }[] }).facts;
    const records: Observation[] = facts.map((f) => ({
      type: 'observation', source: 'example', operation: 'facts', measure: 'example/value', value: f.value, status: 'ok', unit: 'USD', scale: 1,
      period: { start: `${f.year}-01-01`, end: `${f.year}-12-31` }, attributes: {}, raw: pointer(raw),
    }) as unknown as Observation);
    return { source: 'example', operation: 'facts', records, responses: [pointer(raw)], complete: true, notes: [] };
  };
  return {
    http, ctx, calls, run, parses: () => parses,
    setBody: (b: unknown) => { body = JSON.stringify(b); },
    tick: (ms: number) => { now += ms; },
  };
}

describe('operation memo', () => {
  it('sends the request every time; reuses the records of a byte-identical response, with pointers to this fetch', async () => {
    const t = setup();
    const a = await memoized('example/facts {}', t.ctx, t.run);
    t.tick(60_000);
    const b = await memoized('example/facts {}', t.ctx, t.run);
    expect(t.calls).toHaveLength(2);
    expect(t.parses()).toBe(1);
    expect(memoSize(t.http)).toBe(1);
    expect(b.records.map((r) => (r as Observation).value)).toEqual([10, 9]);
    // fetched at query time: the second result cites the second fetch
    expect(a.records[0]!.raw.retrievedAt).toBe('2026-12-01T10:00:00.000Z');
    expect(b.records[0]!.raw.retrievedAt).toBe('2026-12-01T10:01:00.000Z');
    expect(b.responses[0]!.retrievedAt).toBe('2026-12-01T10:01:00.000Z');
    expect(b.records[0]!.raw.sha256).toBe(a.records[0]!.raw.sha256);
  });

  it('a changed response is read again, and replaces what was remembered', async () => {
    const t = setup();
    await memoized('example/facts {}', t.ctx, t.run);
    t.setBody({ facts: [{ year: 2024, value: 11 }] });
    const b = await memoized('example/facts {}', t.ctx, t.run);
    expect(t.calls).toHaveLength(2); // the fetch made for the check is the one the new run reads
    expect(t.parses()).toBe(2);
    expect(b.records.map((r) => (r as Observation).value)).toEqual([11]);
    const c = await memoized('example/facts {}', t.ctx, t.run);
    expect(t.parses()).toBe(2);
    expect(c.records.map((r) => (r as Observation).value)).toEqual([11]);
  });

  it('keys apart: other arguments run on their own', async () => {
    const t = setup();
    await memoized('example/facts {"a":1}', t.ctx, t.run);
    await memoized('example/facts {"a":2}', t.ctx, t.run);
    expect(t.parses()).toBe(2);
  });

  it('a failure is not remembered', async () => {
    const t = setup();
    let fail = true;
    const run = async (c: ConnectorContext) => { const r = await t.run(c); if (fail) throw new Error('shape'); return r; };
    await expect(memoized('example/facts {}', t.ctx, run)).rejects.toThrow('shape');
    expect(memoSize(t.http)).toBe(0);
    fail = false;
    await memoized('example/facts {}', t.ctx, run);
    expect(memoSize(t.http)).toBe(1);
  });

  it('what is remembered cannot be changed by a reader (records and parsed JSON are frozen)', async () => {
    const t = setup();
    const a = await memoized('example/facts {}', t.ctx, t.run);
    expect(() => { (a.records[0] as { value: number }).value = 1; }).toThrow(TypeError);
    expect(() => { a.records.pop(); }).toThrow(TypeError);
    const raw = await t.http.request({ method: 'GET', url: URL_ }, policy, t.ctx);
    expect(() => { (raw.json as { facts: unknown[] }).facts.push(1); }).toThrow(TypeError);
  });

  it('freezes every object and array a result holds, at any depth, by value', () => {
    const deep = { rows: [{ key: 'a', attributes: { STATE: 'RI', nested: [{ x: 1 }] } }], meta: { declared: 1 } };
    freezeResult(deep);
    const seen: unknown[] = [deep, deep.rows, deep.rows[0], deep.rows[0]!.attributes, deep.rows[0]!.attributes.nested, deep.rows[0]!.attributes.nested[0], deep.meta];
    expect(seen.map((o) => Object.isFrozen(o))).toEqual(seen.map(() => true));
  });

  it('a result whose records are made when read stays lazy: remembering it reads no records', async () => {
    const t = setup();
    let made = 0;
    const lazy = async (c: ConnectorContext): Promise<OperationResult> => {
      const r = await t.run(c);
      const { records, ...rest } = r;
      return lazyRecords(rest, () => { made++; return records; }, (m) => records.filter((x): x is Observation => x.type === 'observation' && x.measure === m));
    };
    await memoized('example/facts {}', t.ctx, lazy);
    const b = await memoized('example/facts {}', t.ctx, lazy);
    expect(made).toBe(0);
    expect(measureRecords(b, 'example/value').map((r) => (r as Observation).value)).toEqual([10, 9]);
    expect(made).toBe(0);
    expect(b.records).toHaveLength(2);
    expect(made).toBe(1);
  });

  it('parsed JSON is shared only for the same status, content type and bytes', async () => {
    const t = setup();
    const r1 = await t.http.request({ method: 'GET', url: URL_ }, policy, t.ctx);
    const r2 = await t.http.request({ method: 'GET', url: URL_ }, policy, t.ctx);
    expect(r2.json).toBe(r1.json);
    t.setBody({ facts: [] });
    const r3 = await t.http.request({ method: 'GET', url: URL_ }, policy, t.ctx);
    expect(r3.json).toEqual({ facts: [] });
    expect(r3.sha256).not.toBe(r1.sha256);
  });
});
