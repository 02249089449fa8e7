import { describe, expect, it } from 'vitest';
import { HttpClient, MissingCassetteError, type RequestPolicy } from '../../src/http/client.ts';
import { PublisherError, ERROR_CODES } from '../../src/http/errors.ts';
import type { CallContext } from '../../src/http/context.ts';
import { VirtualClock } from './virtual-clock.ts';
import { fakeFetch, type Behaviour } from './fake-publisher.ts';

const URL_ = 'https://data.example.gov/api/thing.json?b=2&a=1';
const policy: RequestPolicy = { source: 'example', expect: 'json' };
const random = () => 0.5;

function setup(script: Behaviour[] | ((n: number, url: string) => Behaviour), opts: { timeoutMs?: number; maxAttempts?: number; deadlineMs?: number; userAgent?: string; credentials?: Record<string, string> } = {}) {
  const clock = new VirtualClock();
  const { fetch, calls } = fakeFetch(clock, script);
  const client = new HttpClient({ mode: 'live', fetch, timeoutMs: opts.timeoutMs ?? 5_000, retry: { maxAttempts: opts.maxAttempts ?? 4, random }, userAgent: opts.userAgent, credentials: opts.credentials });
  const ctl = new AbortController();
  const ctx: CallContext = { signal: ctl.signal, deadline: clock.now() + (opts.deadlineMs ?? 60_000), clock };
  return { clock, client, calls, ctx, ctl };
}

async function failure(p: Promise<unknown>): Promise<PublisherError> {
  try { await p; } catch (e) { if (e instanceof PublisherError) return e; throw e; }
  throw new Error('expected a PublisherError, got data');
}

describe('HttpClient: fault injection', () => {
  it('429 with Retry-After: waits at least that long, then returns the data', async () => {
    const { clock, client, calls, ctx } = setup([{ status: 429, headers: { 'retry-after': '3' } }, { status: 200, body: '{"ok":true}' }]);
    const raw = await clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx));
    expect(raw.json).toEqual({ ok: true });
    expect(raw.attempts).toBe(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(3_000);
  });

  it('500 then success: retried with backoff', async () => {
    const { clock, client, calls, ctx } = setup([{ status: 500, body: 'oops' }, { status: 200, body: '[1]' }]);
    const raw = await clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx));
    expect(raw.json).toEqual([1]);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at).toBeGreaterThan(calls[0]!.at);
  });

  it('500 every time: a transport error naming status, method and URL after maxAttempts', async () => {
    const { clock, client, calls, ctx } = setup([{ status: 500, body: 'down' }], { maxAttempts: 3 });
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(calls).toHaveLength(3);
    expect(e.kind).toBe('transport');
    expect(e.status).toBe(500);
    expect(e.message).toContain(`GET ${URL_}`);
    expect(e.message).toContain('"down"');
  });

  it('a hang: the per-call timeout fires, names the URL, and retries stop at maxAttempts', async () => {
    const { clock, client, calls, ctx } = setup([{ hang: true }], { timeoutMs: 2_000, maxAttempts: 2 });
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.kind).toBe('transport');
    expect(e.code).toBe('timeout');
    expect(e.message).toContain('within 2000 ms');
    expect(e.message).toContain(URL_);
    expect(calls).toHaveLength(2);
  });

  it('a hang until the caller aborts: cancelled, not a publisher failure', async () => {
    const { clock, client, ctx, ctl } = setup([{ hang: true }], { timeoutMs: 60_000 });
    const p = client.request({ method: 'GET', url: URL_ }, policy, ctx);
    void clock.sleep(1_000).then(() => ctl.abort(new Error('user left')));
    const e = await failure(clock.run(p));
    expect(e.kind).toBe('cancelled');
    expect(clock.now() - Date.UTC(2026, 0, 1)).toBe(1_000);
  });

  it('a hang past the deadline: an operational block at the deadline, no retry after it', async () => {
    const { clock, client, calls, ctx } = setup([{ hang: true }], { timeoutMs: 60_000, deadlineMs: 5_000 });
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.kind).toBe('blocked');
    expect(e.code).toBe('deadline');
    expect(clock.now()).toBe(ctx.deadline);
    expect(calls).toHaveLength(1);
  });

  it('HTML with status 200 is a malformed response, not data', async () => {
    const { clock, client, ctx } = setup([{ status: 200, body: '<!DOCTYPE html><html><head><title>Invalid Key</title></head></html>', headers: { 'content-type': 'text/html' } }]);
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.kind).toBe('malformed');
    expect(e.code).toBe('html_instead_of_data');
    expect(e.message).toContain('"Invalid Key"');
  });

  it('truncated JSON is a malformed response with the parser message', async () => {
    const { clock, client, ctx } = setup([{ status: 200, body: '{"facts":{"us-gaap":{"Assets":[1,2,' }]);
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.code).toBe('invalid_json');
    expect(e.kind).toBe('malformed');
    expect(e.message).toMatch(/not valid JSON/);
  });

  it('an empty 200 body is malformed; a 204 is passed on as no content', async () => {
    const a = setup([{ status: 200, body: '' }]);
    expect((await failure(a.clock.run(a.client.request({ method: 'GET', url: URL_ }, policy, a.ctx)))).code).toBe('empty_body');
    const b = setup([{ status: 204, body: '' }]);
    const raw = await b.clock.run(b.client.request({ method: 'GET', url: URL_ }, policy, b.ctx));
    expect(raw.status).toBe(204);
    expect(raw.json).toBeUndefined();
  });

  it('a 404 body is not-found, quoting the publisher, without retry', async () => {
    const body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';
    const { clock, client, calls, ctx } = setup([{ status: 404, body, headers: { 'content-type': 'application/xml' } }]);
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.kind).toBe('not_found');
    expect(e.message).toContain('NoSuchKey');
    expect(calls).toHaveLength(1);
  });

  it('429 past the deadline: rate limited (an operational block) without waiting for it', async () => {
    const { clock, client, calls, ctx } = setup([{ status: 429, headers: { 'retry-after': '120' } }], { deadlineMs: 10_000 });
    const e = await failure(clock.run(client.request({ method: 'GET', url: URL_ }, policy, ctx)));
    expect(e.kind).toBe('blocked');
    expect(e.code).toBe('rate_limited');
    expect(e.message).toContain('Retry-After 120 s');
    expect(calls).toHaveLength(1);
    expect(clock.now()).toBeLessThan(ctx.deadline);
  });
});

describe('HttpClient: credentials and User-Agent', () => {
  const census: RequestPolicy = { source: 'census-acs', expect: 'json', credential: { mode: 'optional', env: 'CENSUS_API_KEY', queryParam: 'key' } };

  it('sends the key but keeps it out of errors and the raw pointer', async () => {
    const secret = 'abcd1234secretkey';
    const { clock, client, calls, ctx } = setup([{ status: 400, body: `error: invalid key ${secret}` }], { credentials: { CENSUS_API_KEY: secret } });
    const e = await failure(clock.run(client.request({ method: 'GET', url: 'https://api.census.gov/data/2021/acs/acs5?get=NAME&for=state:*' }, census, ctx)));
    expect(calls[0]!.url).toContain(`key=${secret}`);
    expect(e.message).not.toContain(secret);
    expect(JSON.stringify(e.toJSON())).not.toContain(secret);
    const ok = setup([{ status: 200, body: '[["NAME"]]' }], { credentials: { CENSUS_API_KEY: secret } });
    const raw = await ok.clock.run(ok.client.request({ method: 'GET', url: 'https://api.census.gov/data/2021/acs/acs5?get=NAME&for=state:*' }, census, ok.ctx));
    expect(raw.url).not.toContain(secret);
    expect(raw.keyless).toBe(false);
  });

  it('a required credential that is missing is an operational block before any call', async () => {
    const { clock, client, calls, ctx } = setup([{ status: 200, body: '{}' }]);
    const e = await failure(clock.run(client.request({ method: 'GET', url: 'https://api.data.gov/ed/collegescorecard/v1/schools?id=1' }, { source: 'college-scorecard', expect: 'json', credential: { mode: 'required', env: 'DATA_GOV_API_KEY', queryParam: 'api_key' } }, ctx)));
    expect(e.kind).toBe('blocked');
    expect(e.code).toBe('missing_credential');
    expect(e.message).toContain('DATA_GOV_API_KEY');
    expect(calls).toHaveLength(0);
  });

  it('SEC is never called live without a User-Agent naming a contact address', async () => {
    const sec: RequestPolicy = { source: 'sec-edgar', expect: 'json', userAgentRequired: true, pacing: { requestsPerSecond: 10 } };
    for (const ua of [undefined, 'Assay/0.1']) {
      const { clock, client, calls, ctx } = setup([{ status: 200, body: '{}' }], { userAgent: ua });
      const e = await failure(clock.run(client.request({ method: 'GET', url: 'https://data.sec.gov/submissions/CIK0000320193.json' }, sec, ctx)));
      expect(e.code).toBe('missing_user_agent');
      expect(calls).toHaveLength(0);
    }
    const ok = setup([{ status: 200, body: '{}' }], { userAgent: 'Assay/0.1 ops@example.org' });
    await ok.clock.run(ok.client.request({ method: 'GET', url: 'https://data.sec.gov/submissions/CIK0000320193.json' }, sec, ok.ctx));
    expect(ok.calls[0]!.headers['user-agent']).toBe('Assay/0.1 ops@example.org');
  });
});

describe('HttpClient: replay mode', () => {
  it('a request with no cassette is "not in the offline snapshot" (blocked), or throws loudly in tests', async () => {
    const store = { keys: () => [], lookup: async () => undefined, record: async () => '' };
    const clock = new VirtualClock();
    const ctx: CallContext = { signal: new AbortController().signal, deadline: Infinity, clock };
    const offline = new HttpClient({ mode: 'replay', cassettes: store });
    const e = await failure(offline.request({ method: 'GET', url: URL_ }, policy, ctx));
    expect(e.kind).toBe('blocked');
    expect(e.code).toBe('offline');
    expect(e.message).toContain('not in the offline snapshot');
    const strict = new HttpClient({ mode: 'replay', cassettes: store, missingCassette: 'throw' });
    await expect(strict.request({ method: 'GET', url: URL_ }, policy, ctx)).rejects.toBeInstanceOf(MissingCassetteError);
  });
});

describe('error catalogue', () => {
  it('every code has an explanation and a fix', () => {
    for (const [code, doc] of Object.entries(ERROR_CODES)) {
      expect(doc.explain.length, code).toBeGreaterThan(10);
      expect(doc.fix.length, code).toBeGreaterThan(3);
    }
  });
});
