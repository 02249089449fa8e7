import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCassettes, requestKey } from '../../src/http/cassette.ts';
import { HttpClient } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';

describe('cassette keys: the normalised request', () => {
  it('query parameter order, host case and percent-encoding do not matter', () => {
    const a = requestKey({ method: 'get', url: 'https://API.census.gov/data/2021/acs/acs5?get=NAME,B01001_001E&for=county:*&in=state:17' });
    const b = requestKey({ method: 'GET', url: 'https://api.census.gov/data/2021/acs/acs5?in=state%3A17&for=county%3A%2A&get=NAME%2CB01001_001E' });
    expect(a).toBe(b);
  });

  it('secrets are removed: the same request with or without a key has one key, and the key is not in it', () => {
    const withKey = requestKey({ method: 'GET', url: 'https://api.census.gov/data/x?get=NAME&key=SECRET123456' }, { secrets: ['key'] });
    expect(withKey).toBe(requestKey({ method: 'GET', url: 'https://api.census.gov/data/x?get=NAME' }));
    expect(withKey).not.toContain('SECRET');
    expect(requestKey({ method: 'GET', url: 'https://x.gov/a?api_key=S3CR3T&b=1' })).not.toContain('S3CR3T');
  });

  it('JSON bodies are compared canonically (key order and spacing do not matter); different bodies differ', () => {
    const a = requestKey({ method: 'POST', url: 'https://api.reporter.nih.gov/v2/projects/search', body: '{"offset":0,"criteria":{"org_names":["X"]}}' });
    const b = requestKey({ method: 'POST', url: 'https://api.reporter.nih.gov/v2/projects/search', body: '{ "criteria": { "org_names": ["X"] }, "offset": 0 }' });
    const c = requestKey({ method: 'POST', url: 'https://api.reporter.nih.gov/v2/projects/search', body: '{"offset":500,"criteria":{"org_names":["X"]}}' });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('declared vary headers are part of the key; others (User-Agent) are not', () => {
    const base = { method: 'GET', url: 'https://x.gov/a' };
    expect(requestKey({ ...base, headers: { 'User-Agent': 'a' } })).toBe(requestKey({ ...base, headers: { 'User-Agent': 'b' } }));
    expect(requestKey({ ...base, headers: { Accept: 'text/csv' } }, { varyHeaders: ['accept'] })).not.toBe(requestKey({ ...base, headers: { Accept: 'application/json' } }, { varyHeaders: ['accept'] }));
  });
});

describe('record mode', () => {
  it('records a replayable cassette with its origin and no credential anywhere in it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cassettes-'));
    try {
      const secret = 'census-secret-key-0001';
      const fetchImpl = (async (url: string) => new Response(JSON.stringify([['NAME', 'state'], ['Illinois', '17']]).replace('Illinois', url.includes(secret) ? 'Illinois' : 'NO KEY SENT'), { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;
      const policy = { source: 'census-acs', expect: 'json' as const, credential: { mode: 'optional' as const, env: 'CENSUS_API_KEY', queryParam: 'key' } };
      const url = 'https://api.census.gov/data/2021/acs/acs5?get=NAME&for=state:17';
      const recorder = new HttpClient({ mode: 'record', fetch: fetchImpl, cassettes: await openCassettes(dir, { repoRoot: dir }), credentials: { CENSUS_API_KEY: secret } });
      const live = await recorder.request({ method: 'GET', url }, policy, callContext());
      expect(live.cassette).toMatch(/^census-acs\/recorded\/.*\.cassette\.json$/);
      const files = await readdir(join(dir, 'census-acs', 'recorded'));
      const text = await readFile(join(dir, 'census-acs', 'recorded', files[0]!), 'utf8');
      expect(text).not.toContain(secret);
      expect(JSON.parse(text).origin.kind).toBe('recorded');
      const replay = new HttpClient({ mode: 'replay', cassettes: await openCassettes(dir, { repoRoot: dir }), missingCassette: 'throw' });
      const again = await replay.request({ method: 'GET', url }, policy, callContext());
      expect(again.json).toEqual([['NAME', 'state'], ['Illinois', '17']]);
      expect(again.sha256).toBe(live.sha256);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('every committed cassette opens, has an origin, and points at a body that exists and matches its hash', async () => {
    const store = await openCassettes('fixtures/publishers');
    expect(store.keys().length).toBeGreaterThan(40);
    const { createHash } = await import('node:crypto');
    for (const key of store.keys()) {
      const hit = (await store.lookup(key))!;
      expect(['sample', 'recorded', 'synthetic'], key).toContain(hit.origin.kind);
      if (hit.origin.kind === 'sample') expect(hit.origin.sample, key).toBeTruthy();
      const file = JSON.parse(await readFile(hit.location, 'utf8'));
      expect(createHash('sha256').update(hit.text).digest('hex'), key).toBe(file.response.bodySha256);
      expect(key).not.toMatch(/[?&](key|api_key|token)=/i);
    }
  });
});
