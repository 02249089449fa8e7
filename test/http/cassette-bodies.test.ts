/**
 * A cassette store keeps body files it read, with their digest, only while the file is unchanged:
 * a body rewritten on disk is read again (never the old text with the old digest).
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCassettes, sha256 } from '../../src/http/cassette.ts';
import { HttpClient } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';
import { PublisherError } from '../../src/http/errors.ts';

let dir: string | undefined;
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); dir = undefined; });

/** A cassette for GET http://synthetic.test/x whose body file holds `text` (synthetic, not publisher data) and records its digest. */
async function syntheticCassette(at: string, text: string): Promise<string> {
  const body = join(at, 'body.json');
  await writeFile(body, text);
  await writeFile(join(at, 'x.cassette.json'), JSON.stringify({
    assayCassette: 1, source: 'synthetic', key: 'GET http://synthetic.test/x', request: { method: 'GET', url: 'http://synthetic.test/x' },
    response: { status: 200, contentType: 'application/json', bodyFile: 'body.json', bodySha256: sha256(text) },
    origin: { kind: 'synthetic', synthetic: true },
  }));
  return body;
}

describe('cassette body files', () => {
  it('are re-read when they change on disk, and served with the digest of what was read', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-cassette-bodies-'));
    const body = await syntheticCassette(dir, '{"synthetic":1}');
    const store = await openCassettes(dir, { repoRoot: dir });
    const a = await store.lookup('GET http://synthetic.test/x');
    const b = await store.lookup('GET http://synthetic.test/x');
    expect(a?.text).toBe('{"synthetic":1}');
    expect(b?.sha256).toBe(sha256('{"synthetic":1}'));
    // Same length, new content, new modification time: read again.
    await writeFile(body, '{"synthetic":2}');
    const later = new Date(Date.now() + 5_000);
    await utimes(body, later, later);
    const c = await store.lookup('GET http://synthetic.test/x');
    expect(c?.text).toBe('{"synthetic":2}');
    expect(c?.sha256).toBe(sha256('{"synthetic":2}'));
  });

  it('a body that no longer matches the digest its cassette recorded is refused by replay as cassette_damaged, never served as the publisher\'s response', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-cassette-damaged-'));
    const body = await syntheticCassette(dir, '{"synthetic":{"value":100}}');
    const client = new HttpClient({ mode: 'replay', cassettes: await openCassettes(dir, { repoRoot: dir }) });
    const policy = { source: 'synthetic', operation: 'x', expect: 'json' as const };
    const get = () => client.request({ method: 'GET', url: 'http://synthetic.test/x' }, policy, callContext({ timeoutMs: 5_000 }));
    expect((await get()).json).toEqual({ synthetic: { value: 100 } });
    // edited on disk: still valid JSON, a different figure
    await writeFile(body, '{"synthetic":{"value":999}}');
    const later = new Date(Date.now() + 5_000);
    await utimes(body, later, later);
    const e = await get().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PublisherError);
    expect((e as PublisherError).code).toBe('cassette_damaged');
    expect((e as Error).message).toMatch(/x\.cassette\.json does not match the digest its cassette recorded.*edited or damaged/);
    expect((e as Error).message).toMatch(/git checkout -- fixtures\/publishers/);
  });
});
