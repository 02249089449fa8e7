/**
 * Memory images of a data directory (DurableOptions.images, src/rdf/image-file.ts): a store is
 * adopted from an image only when the image holds exactly the state its files hold; a damaged,
 * truncated or foreign image file, or a changed store or catalog, is parsed as without images,
 * with the reason reported. Each run is a child process (an image needs an unused oxigraph instance).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const G = 'http://assay.test/graph/catalog';
/** A synthetic graph (not publisher data): n subjects with a label each. */
const graph = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `<http://assay.test/s/${i}> <http://www.w3.org/2000/01/rdf-schema#label> "${tag} ${i}" .`).join('\n') + '\n';

interface Run { opened: { code: string; reason?: string; key?: string } | null; log: { code: string; key?: string; reason?: string }[]; quads: number; dump: string }

function run(dir: string, images: string, steps: unknown[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/rdf/helpers/image-store.ts', dir, images, JSON.stringify(steps)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as Run) : reject(new Error(`image-store exited ${code}: ${err}`))));
  });
}

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'assay-images-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const imageFiles = async (d: string) => (await readdir(d)).filter((f) => f.endsWith('.img')).sort();

describe('memory images of the store', () => {
  it('adopts the image of exactly the state the files hold, and parses again once the store changed', { timeout: 120_000 }, async () => {
    const [data, images] = [await tmp(), await tmp()];
    const first = await run(data, images, [{ replace: graph(300, 'a'), graph: G }]);
    expect(first.opened).toBeNull(); // a fresh directory: nothing to adopt at open
    expect(first.log.map((e) => e.code)).toEqual(['none', 'saved', 'saved']); // the first write's image and the state's
    const second = await run(data, images);
    expect(second.opened?.code).toBe('adopted');
    expect(second.dump).toBe(first.dump);
    // A write changes the state: the next open finds no image for it until this one saves it.
    const third = await run(data, images, [{ load: graph(5, 'b'), graph: 'http://assay.test/graph/other' }]);
    expect(third.opened?.code).toBe('adopted');
    expect(third.quads).toBe(305);
    const fourth = await run(data, images);
    expect(fourth.opened?.code).toBe('adopted');
    expect(fourth.opened?.key).not.toBe(second.opened?.key);
    expect(fourth.dump).toBe(third.dump);
  });

  it('a fresh directory adopts the image of the same first write; a changed catalog gets its own', { timeout: 120_000 }, async () => {
    const images = await tmp();
    const a = await run(await tmp(), images, [{ replace: graph(200, 'v1'), graph: G }]);
    expect(a.log[0]?.code).toBe('none');
    const b = await run(await tmp(), images, [{ replace: graph(200, 'v1'), graph: G }]);
    expect(b.log[0]?.code).toBe('adopted');
    expect(b.dump).toBe(a.dump);
    const c = await run(await tmp(), images, [{ replace: graph(200, 'v2'), graph: G }]);
    expect(c.log[0]?.code).toBe('none'); // the changed catalog is parsed, never served from v1's image
    expect(c.dump).toContain('"v2 0"');
    expect(c.dump).not.toContain('"v1 0"');
    const d = await run(await tmp(), images, [{ replace: graph(200, 'v2'), graph: G }]);
    expect(d.log[0]?.code).toBe('adopted');
    expect(d.dump).toBe(c.dump);
  });

  it('a damaged or truncated image file is refused with the reason, the store parsed, and a new image saved', { timeout: 120_000 }, async () => {
    const [data, images] = [await tmp(), await tmp()];
    const first = await run(data, images, [{ replace: graph(300, 'a'), graph: G }]);
    const files = await imageFiles(images);
    expect(files.length).toBe(2);
    // Damage every image file past its header (one flipped byte in the page data).
    for (const f of files) {
      const bytes = await readFile(join(images, f));
      bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
      await writeFile(join(images, f), bytes);
    }
    const damaged = await run(data, images);
    expect(damaged.opened?.code).toBe('refused');
    expect(damaged.opened?.reason).toMatch(/fail their checksum/);
    expect(damaged.dump).toBe(first.dump);
    expect(damaged.log.map((e) => e.code)).toEqual(['refused', 'saved']);
    const repaired = await run(data, images);
    expect(repaired.opened?.code).toBe('adopted');
    expect(repaired.dump).toBe(first.dump);
    // Cut short (a partial file): refused as truncated.
    for (const f of await imageFiles(images)) await truncate(join(images, f), 5000);
    const partial = await run(data, images);
    expect(partial.opened?.code).toBe('refused');
    expect(partial.opened?.reason).toMatch(/truncated/);
    expect(partial.dump).toBe(first.dump);
  });
});
