/**
 * Gateways are stateless over a shared store: two `assay serve` processes on one Virtuoso, under
 * one base IRI, answer each other's GET /runs/{id}, resume each other's clarifications, reuse the
 * catalog the first one wrote, and agree on /health and VoID after either writes. (Real processes:
 * nothing in one can reach the other's memory.) The catalog is one small descriptor, so the suite
 * does not spend a minute loading the full one into the store; questions still use the full
 * discovery index and the bundled cassettes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from '../rdf/helpers/virtuoso.ts';

const why = await virtuosoUnavailable();
const ROOT = new URL('../../', import.meta.url).pathname;

interface Gateway { url: string; output: string[]; child: ChildProcess }

async function serve(vt: Virtuoso, base: string, catalog: string, data: string): Promise<Gateway> {
  const store = vt.store();
  const child = spawn(process.execPath, ['bin/assay.js', 'serve', '--port', '0', '--base', base, '--catalog', catalog, '--store', store.url!], {
    cwd: ROOT,
    env: {
      ...process.env, ASSAY_DATA_DIR: data, ASSAY_STORE_UPDATE_URL: store.updateUrl, ASSAY_STORE_GSP_URL: store.graphStoreUrl,
      ASSAY_STORE_USER: store.user, ASSAY_STORE_PASSWORD: store.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start within 90 s:\n${output.join('')}`)), 90_000);
    const take = (chunk: Buffer) => {
      output.push(chunk.toString());
      const m = /listening on (http:\/\/\S+)/.exec(output.join(''));
      if (m && output.join('').includes('offline default')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the gateway exited with ${code}:\n${output.join('')}`)); });
  });
  return { url, output, child };
}

async function stop(g: Gateway | undefined): Promise<void> {
  if (!g || g.child.exitCode !== null) return;
  const exited = new Promise((r) => g.child.once('exit', r));
  g.child.kill('SIGTERM');
  await exited;
}

const post = async (g: Gateway, path: string, body: unknown) => {
  const r = await fetch(new URL(path, g.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() as Record<string, unknown> & { run_id: string; status: string } };
};

describe.skipIf(why !== undefined)('two gateways on one store', () => {
  let vt: Virtuoso;
  let dir: string;
  let a: Gateway;
  let b: Gateway;
  const base = uniqueBase('gateways');

  beforeAll(async () => {
    vt = await startVirtuoso();
    dir = await mkdtemp(join(tmpdir(), 'assay-two-gateways-'));
    await copyFile(join(ROOT, 'ard-okf/nih-reporter.json'), join(dir, 'nih-reporter.json'));
    // B starts once A has written the catalog (so B finds it). Each loads its question services
    // (catalog index, registry) on its first question: warm both at once, with a question that is
    // refused before it reaches a publisher.
    a = await serve(vt, base, dir, join(dir, 'data-a'));
    await Promise.all([
      post(a, '/ask', { question: 'Why?' }),
      serve(vt, base, dir, join(dir, 'data-b')).then(async (started) => { b = started; await post(b, '/ask', { question: 'Why?' }); }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
    await vt?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the second gateway reuses the catalog the first one wrote', () => {
    expect(a.output.join('')).toMatch(/catalog: rebuilt from/);
    expect(b.output.join('')).toMatch(/catalog: unchanged since it was last loaded/);
  });

  it('each serves the other\'s runs and resumes the other\'s clarification', async () => {
    const asked = await post(a, '/ask', { question: "What was Apple's profit in 2023?", on_ambiguity: 'ask' });
    expect(asked.json.status).toBe('needs_clarification');
    const run = await fetch(new URL(`/runs/${asked.json.run_id}`, b.url), { headers: { accept: 'text/turtle' } });
    expect(run.status).toBe(200);
    expect(await run.text()).toContain('assay:resumeState');

    const resumed = await post(b, '/ask', { resume: { run: asked.json.run_id, option: 3 } });
    expect(resumed.json.status).toBe('answered');
    expect(resumed.json.resumed_from).toBe(asked.json.run_id);
    expect((resumed.json.evidence as { measure: string; value: number }[])[0]).toMatchObject({ measure: 'sec-edgar/us-gaap/GrossProfit', value: 169148000000 });
    const back = await fetch(new URL(`/runs/${resumed.json.run_id}`, a.url), { headers: { accept: 'application/n-quads' } });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('169148000000');
    // The citation chain written by one gateway resolves on the other.
    expect((resumed.json.citations as { url: string }[])[0]!.url).toBe('https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json');
  }, 120_000);

  it('agree on the store\'s state after either writes: /health and VoID', async () => {
    const [ha, hb] = await Promise.all([a, b].map(async (g) => (await fetch(new URL('/health', g.url))).json() as Promise<{ lastWrite: number; quads: number }>));
    expect(hb).toEqual(ha);
    await post(b, '/ask', { question: "What was Apple's total revenue in 2023?" });
    const after = await (await fetch(new URL('/health', a.url))).json() as { lastWrite: number; quads: number };
    expect(after.lastWrite).toBeGreaterThan(ha!.lastWrite);
    const voidA = await fetch(new URL('/.well-known/void', a.url));
    expect(voidA.status).toBe(200);
    expect(Number(voidA.headers.get('assay-void-seq'))).toBe(after.lastWrite);
  }, 120_000);
});
