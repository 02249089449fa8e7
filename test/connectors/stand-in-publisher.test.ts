/**
 * A publisher's base URL is configuration: a local fake publisher stands in for SEC EDGAR by
 * config alone (no descriptor edited), serving a recorded body — and, when it fails, each failure
 * reaches the connector's caller as its own typed error naming the publisher and the request, to be
 * ended as operationally_blocked, never as no data.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { connectorRuntime } from '../../src/connectors/runtime.ts';
import { runOperation } from '../../src/connectors/registry.ts';
import { callContext } from '../../src/http/context.ts';
import { PublisherError, failureBoundary } from '../../src/http/errors.ts';
import type { Observation } from '../../src/connectors/records.ts';
import { FAULTS, startFakePublisher, type Behaviour, type FakePublisher } from '../http/fake-publisher.ts';

const ARGS = { cik: '320193', taxonomy: 'us-gaap', tag: 'Assets' };
const ENV = { ASSAY_USER_AGENT: 'Assay-test tests@example.org' };
let fake: FakePublisher | undefined;
afterEach(async () => { await fake?.close(); fake = undefined; });

async function run(behaviour: Behaviour, how: { env?: Record<string, string>; deadlineMs?: number } = {}) {
  fake = await startFakePublisher(behaviour);
  const env = how.env ?? { ...ENV, ASSAY_PUBLISHER_URL_SEC_EDGAR: fake.url };
  const rt = await connectorRuntime({ mode: 'live', fetch: globalThis.fetch, env });
  return runOperation(rt.registry, 'sec-edgar', 'companyconcept', ARGS, { ...callContext({ timeoutMs: how.deadlineMs ?? 20_000 }), http: rt.http, declarations: rt.declarations });
}

async function failure(behaviour: Behaviour, how: { deadlineMs?: number } = {}): Promise<PublisherError> {
  try { await run(behaviour, how); } catch (e) { if (e instanceof PublisherError) return e; throw e; }
  throw new Error('expected a publisher failure');
}

describe('a fake publisher standing in for SEC EDGAR by configuration', () => {
  it('serves the recorded body: the connector reads it as if from the publisher, from the stand-in URL', async () => {
    const body = await readFile('fixtures/publishers/sec-edgar/bodies/derived/companyconcept_CIK0000320193_us-gaap_Assets.DERIVED.json', 'utf8');
    const result = await run({ status: 200, body });
    expect(fake!.calls[0]!.path).toBe('/api/xbrl/companyconcept/CIK0000320193/us-gaap/Assets.json');
    expect(fake!.calls[0]!.headers['user-agent']).toBe(ENV.ASSAY_USER_AGENT);
    const obs = result.records.filter((r): r is Observation => r.type === 'observation');
    expect(obs.length).toBeGreaterThan(0);
    expect(obs[0]!.raw.url.startsWith(fake!.url)).toBe(true);
  });

  it('the JSON map does the same (ASSAY_PUBLISHER_URLS)', async () => {
    fake = await startFakePublisher({ status: 200, body: '{}' });
    const rt = await connectorRuntime({ mode: 'live', fetch: globalThis.fetch, env: { ...ENV, ASSAY_PUBLISHER_URLS: JSON.stringify({ 'sec-edgar': fake.url }) } });
    expect(rt.declarations.operation('sec-edgar', 'companyconcept')!.data.urlTemplate).toBe(`${fake.url}/api/xbrl/companyconcept/CIK{cik10}/{taxonomy}/{tag}.json`);
    // every host of the publisher goes to the stand-in
    expect(rt.declarations.all().filter((d) => d.publisherId === 'sec-edgar').every((d) => d.data.urlTemplate.startsWith(fake!.url))).toBe(true);
    // other publishers keep their own
    expect(rt.declarations.operation('census-acs', 'acs-county')!.data.urlTemplate).toMatch(/^https:\/\/api\.census\.gov\//);
  });

  it.each([
    ['429 with Retry-After past the deadline', FAULTS.rateLimited(600), 'rate_limited', 429],
    ['500 on every attempt', FAULTS.serverError, 'retries_exhausted', 500],
    ['HTML with 200', FAULTS.htmlWith200, 'html_instead_of_data', 200],
    ['truncated JSON', FAULTS.truncatedJson, 'invalid_json', 200],
  ] as const)('%s → %s, operationally blocked', async (_, behaviour, code, status) => {
    const e = await failure(behaviour);
    expect(e.toFailure()).toMatchObject({ code, source: 'sec-edgar', method: 'GET', status });
    expect(e.url).toBe(`${fake!.url}/api/xbrl/companyconcept/CIK0000320193/us-gaap/Assets.json`);
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a hang → deadline, operationally blocked', async () => {
    const e = await failure(FAULTS.hang, { deadlineMs: 400 });
    expect(e.toFailure()).toMatchObject({ code: 'deadline', kind: 'blocked', source: 'sec-edgar' });
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });
});
