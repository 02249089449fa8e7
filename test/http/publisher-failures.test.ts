/**
 * Publisher failures are typed, end to end over loopback: a real server on 127.0.0.1 answers 429
 * with Retry-After, 500, a hang, HTML with 200 and truncated JSON, and the real fetch goes through
 * the one HttpClient. Each failure is its own code carrying the publisher, the request and the
 * failure, and every one ends as operationally_blocked — never as no data.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, type RequestPolicy } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';
import { PublisherError, failureBoundary } from '../../src/http/errors.ts';
import { isTruncatedJson } from '../../src/http/content.ts';
import { FAULTS, startFakePublisher, type Behaviour, type FakePublisher } from './fake-publisher.ts';

const policy: RequestPolicy = { source: 'example-publisher', operation: 'thing', expect: 'json' };
let fake: FakePublisher | undefined;
afterEach(async () => { await fake?.close(); fake = undefined; });

async function failureOf(behaviour: Behaviour, opts: { deadlineMs?: number; timeoutMs?: number; maxAttempts?: number; maxBodyBytes?: number } = {}): Promise<PublisherError> {
  fake = await startFakePublisher(behaviour);
  const client = new HttpClient({ mode: 'live', fetch: globalThis.fetch, timeoutMs: opts.timeoutMs ?? 5_000, retry: { maxAttempts: opts.maxAttempts ?? 2, baseMs: 1, maxMs: 5 }, ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}) });
  try {
    await client.request({ method: 'GET', url: `${fake.url}/api/thing.json?id=7` }, policy, callContext({ timeoutMs: opts.deadlineMs ?? 10_000 }));
  } catch (e) {
    if (e instanceof PublisherError) return e;
    throw e;
  }
  throw new Error('expected a publisher failure, got data');
}

describe('typed publisher failures over loopback', () => {
  it('429 with a Retry-After past the deadline: rate_limited, the wait asked for kept, no call after it', async () => {
    const e = await failureOf(FAULTS.rateLimited(120));
    expect(e.toFailure()).toMatchObject({ code: 'rate_limited', kind: 'blocked', source: 'example-publisher', method: 'GET', status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(e.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/thing\.json\?id=7$/);
    expect(fake!.calls).toHaveLength(1);
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('500 on every attempt: retries_exhausted with the last status and the attempts made', async () => {
    const e = await failureOf(FAULTS.serverError, { maxAttempts: 3 });
    expect(e.toFailure()).toMatchObject({ code: 'retries_exhausted', kind: 'transport', status: 500, attempts: 3 });
    expect(e.message).toContain('on each of 3 attempts');
    expect(fake!.calls).toHaveLength(3);
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a hang past the deadline: deadline, one call, stopped', async () => {
    const e = await failureOf(FAULTS.hang, { deadlineMs: 300, timeoutMs: 60_000 });
    expect(e.toFailure()).toMatchObject({ code: 'deadline', kind: 'blocked', attempts: 1 });
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a hang within the deadline: the per-call timeout, retried, then timeout with the attempts', async () => {
    const e = await failureOf(FAULTS.hang, { deadlineMs: 20_000, timeoutMs: 150, maxAttempts: 2 });
    expect(e.toFailure()).toMatchObject({ code: 'timeout', kind: 'transport', attempts: 2 });
    expect(fake!.calls).toHaveLength(2);
  });

  it('HTML served with 200: html_instead_of_data, the page title quoted', async () => {
    const e = await failureOf(FAULTS.htmlWith200);
    expect(e.toFailure()).toMatchObject({ code: 'html_instead_of_data', kind: 'malformed', status: 200 });
    expect(e.message).toContain('"Service Unavailable - Maintenance"');
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('truncated JSON: invalid_json marked truncated', async () => {
    const e = await failureOf(FAULTS.truncatedJson);
    expect(e.toFailure()).toMatchObject({ code: 'invalid_json', kind: 'malformed', status: 200, truncated: true });
    expect(e.message).toContain('cut off before it closes');
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a body that is not JSON at all is invalid_json, not truncated', async () => {
    const e = await failureOf({ status: 200, body: 'id,name\n7,thing\n' });
    expect(e.toFailure()).toMatchObject({ code: 'invalid_json', truncated: false });
  });

  it('a redirect loop: network, saying what failed rather than only "fetch failed"', async () => {
    const e = await failureOf({ status: 302, body: '', headers: { location: '/api/thing.json?id=7' } }, { maxAttempts: 1 });
    expect(e.toFailure()).toMatchObject({ code: 'network', kind: 'transport' });
    expect(e.message).toMatch(/redirect count exceeded/);
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a refused connection names the refusal', async () => {
    const client = new HttpClient({ mode: 'live', fetch: globalThis.fetch, timeoutMs: 5_000, retry: { maxAttempts: 1, baseMs: 1, maxMs: 5 } });
    const closed = await startFakePublisher({ status: 200, body: '{}' });
    await closed.close(); // nothing listens on its port any more
    const e = await client.request({ method: 'GET', url: `${closed.url}/api/thing.json` }, policy, callContext({ timeoutMs: 5_000 })).catch((x: unknown) => x);
    expect((e as PublisherError).code).toBe('network');
    expect((e as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('a body over the size limit: too_large, refused from its declared length, not retried', async () => {
    const body = JSON.stringify({ rows: 'x'.repeat(5_000) });
    const e = await failureOf({ status: 200, body, headers: { 'content-length': String(Buffer.byteLength(body)) } }, { maxBodyBytes: 1_000 });
    expect(e.toFailure()).toMatchObject({ code: 'too_large', kind: 'malformed', status: 200, attempts: 1 });
    expect(e.message).toMatch(/with a body of 5\d{3} bytes past the 1000-byte limit a response may have/);
    expect(fake!.calls).toHaveLength(1);
    expect(failureBoundary(e)).toBe('operationally_blocked');
  });

  it('a body with no declared length that keeps coming is cut at the limit, not held whole', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no content-length
      res.write('{"rows":[');
      const t = setInterval(() => { if (!res.write('"' + 'x'.repeat(1_000) + '",')) return; }, 1);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = new HttpClient({ mode: 'live', fetch: globalThis.fetch, timeoutMs: 10_000, maxBodyBytes: 50_000, retry: { maxAttempts: 2, baseMs: 1, maxMs: 5 } });
      const e = await client.request({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/endless.json` }, policy, callContext({ timeoutMs: 10_000 })).catch((x: unknown) => x);
      expect((e as PublisherError).code).toBe('too_large');
      expect((e as Error).message).toMatch(/a body that kept coming past the 50000-byte limit/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a body within the limit reads as before, a UTF-8 byte-order mark dropped as Response.text() drops it', async () => {
    fake = await startFakePublisher({ status: 200, body: '\uFEFF{"name":"Zoë"}' });
    const client = new HttpClient({ mode: 'live', fetch: globalThis.fetch, timeoutMs: 5_000, maxBodyBytes: 1_000 });
    const r = await client.request({ method: 'GET', url: `${fake.url}/api/thing.json` }, policy, callContext({ timeoutMs: 5_000 }));
    expect(r.text).toBe('{"name":"Zoë"}');
    expect(r.json).toEqual({ name: 'Zoë' });
  });

  it('only the publisher saying "no such record" is no data', async () => {
    const e = await failureOf({ status: 404, body: '{"error":"not found"}' });
    expect(e.code).toBe('not_found');
    expect(failureBoundary(e)).toBe('no_data');
  });
});

describe('isTruncatedJson', () => {
  it.each([
    ['{"a":[1,2,', true], ['[{"a":"x', true], ['{"a":"}"', true], ['{"a":1}', false], ['{"a":1}}', false], ['<html>', false], ['id,name', false], ['', false],
  ])('%s → %s', (text, truncated) => expect(isTruncatedJson(text)).toBe(truncated));
});
