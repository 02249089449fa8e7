/**
 * A cassette store keeps body files it read, with their digest, only while the file is unchanged:
 * a body rewritten on disk is read again (never the old text with the old digest).
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCassettes, sha256 } from '../../src/http/cassette.ts';

let dir: string | undefined;
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); dir = undefined; });

describe('cassette body files', () => {
  it('are re-read when they change on disk, and served with the digest of what was read', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-cassette-bodies-'));
    const body = join(dir, 'body.json');
    // Synthetic response bodies (not publisher data).
    await writeFile(body, '{"synthetic":1}');
    await writeFile(join(dir, 'x.cassette.json'), JSON.stringify({
      assayCassette: 1, source: 'synthetic', key: 'GET http://synthetic.test/x', request: { method: 'GET', url: 'http://synthetic.test/x' },
      response: { status: 200, contentType: 'application/json', bodyFile: 'body.json', bodySha256: sha256('{"synthetic":1}') },
      origin: { kind: 'synthetic', synthetic: true },
    }));
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
});
