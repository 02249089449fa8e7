/**
 * Publisher failures end to end through the ask path (issue 10, rule 6): every publisher is pointed
 * by configuration alone (ASSAY_PUBLISHER_URLS) at a fake publisher on 127.0.0.1 that commits one
 * fault — 429 with a Retry-After beyond the deadline, 500 after retries, a hang, an HTML page with
 * status 200, truncated JSON. Each question ends as operationally_blocked naming the publisher's
 * failure and the request, within its deadline; never no_data, and no figure is published.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { connectorRuntime } from '../../src/connectors/runtime.ts';
import { FAULTS, startFakePublisher, type Behaviour, type FakePublisher } from '../http/fake-publisher.ts';
import { testServices } from './services.ts';

let base: AskServices;
let sources: string[];
let fake: FakePublisher | undefined;
beforeAll(async () => {
  base = await testServices();
  sources = [...new Set(base.runtime.declarations.all().map((d) => d.publisherId))];
}, 120_000);
afterEach(async () => { await fake?.close(); fake = undefined; });

async function askAgainst(behaviour: Behaviour, timeoutMs: number) {
  fake = await startFakePublisher(behaviour);
  const urls = Object.fromEntries(sources.map((s) => [s, fake!.url]));
  const runtime = await connectorRuntime({ mode: 'live', fetch: globalThis.fetch, env: { ASSAY_USER_AGENT: 'Assay-test tests@example.org', ASSAY_PUBLISHER_URLS: JSON.stringify(urls) } });
  return ask({ ...base, runtime }, { question: "What was Apple's total revenue in 2023?", timeoutMs });
}

describe("What was Apple's total revenue in 2023? against a failing publisher", () => {
  it.each([
    ['500 after retries', FAULTS.serverError, 'retries_exhausted', 30_000],
    ['HTML with status 200', FAULTS.htmlWith200, 'html_instead_of_data', 20_000],
    ['truncated JSON', FAULTS.truncatedJson, 'invalid_json', 20_000],
    ['a hang', FAULTS.hang, 'deadline', 2_500],
    // last: a Retry-After is remembered for the publisher by the process's pacer, so later questions would be blocked by it too
    ['429 with Retry-After beyond the deadline', FAULTS.rateLimited(600), 'rate_limited', 20_000],
  ] as const)('%s → operationally_blocked, never no_data', async (_, behaviour, code, timeoutMs) => {
    const r = await askAgainst(behaviour, timeoutMs);
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.code).toBe(code);
    expect(r.figures).toEqual([]);
    expect(r.evidence).toEqual([]);
    // the publisher and the request are named; the request went to the stand-in
    expect(fake!.calls.length).toBeGreaterThan(0);
    expect(r.refusal!.reason).toContain('sec-edgar');
    const reached = r.refusal!.reached ?? [];
    expect(reached.flatMap((g) => g.boundaries).some((b) => b.code === code && (b.request ?? '').includes(fake!.url) || code === 'deadline')).toBe(true);
    expect(reached.flatMap((g) => g.boundaries).every((b) => b.boundary !== 'no_data' || b.code !== 'not_found')).toBe(true);
  }, 90_000);
});
