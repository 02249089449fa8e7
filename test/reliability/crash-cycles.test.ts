/**
 * The crash contract, tried as an operator would meet it: real processes SIGKILLed at random
 * points, cycle after cycle, during SPARQL updates (through `assay serve`), during `assay load`,
 * and during snapshot compaction. After every kill the store must open (stores that fail to
 * start: 0), hold every acknowledged write (lost: 0), and hold a load entirely or not at all.
 * Random points come from a seeded generator, so a failure can be replayed.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DurableStore } from '../../src/rdf/durable.ts';
import { TOKEN, sleep, startServe, tempDir } from './helpers/gateway.ts';
import { mulberry32 as prng } from '../../src/prng.ts';

async function subjects(dir: string, graph: string): Promise<Set<string>> {
  const store = await DurableStore.open(dir);
  try {
    return new Set(store.rdf.select(`SELECT ?s WHERE { GRAPH <${graph}> { ?s ?p ?o } }`).map((r) => r.get('s')!.value));
  } finally {
    await store.close();
  }
}

describe('SIGKILL cycles (real processes)', () => {
  it('during SPARQL updates through assay serve, including the fault-1 update: no acknowledged update lost, every restart succeeds', async () => {
    const dir = await tempDir();
    const rand = prng(11);
    const acked = new Set<string>();
    let n = 0;
    let starts = 0;
    for (let cycle = 0; cycle < 3; cycle++) {
      const gw = await startServe(dir, { ASSAY_UPDATE_TOKEN: TOKEN, ASSAY_UPDATE_TIMEOUT_MS: '20000' });
      await gw.ready;
      starts++;
      const post = (text: string) => fetch(`${gw.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, body: text });
      let alive = true;
      void gw.exited.then(() => { alive = false; });
      const writer = (async () => {
        while (alive) {
          const s = `urn:x:s${n++}`;
          const r = await post(`INSERT DATA { GRAPH <urn:x:acked> { <${s}> <urn:x:p> "${n}" } }`).catch(() => undefined);
          if (r?.status === 204) acked.add(s);
          else if (r) expect.fail(`update answered ${r.status}: ${await r.text()}`);
        }
      })();
      await sleep(300 + rand() * 1200);
      let heavy: Promise<unknown> = Promise.resolve();
      if (cycle === 2) {
        // The fault-1 update: slow (a cross product), then failing; the kill lands while it runs.
        heavy = post('INSERT { GRAPH <urn:x:none> { ?a <urn:x:q> ?f } } WHERE { GRAPH ?g { ?a ?x ?y } GRAPH ?h { ?d ?e ?f } FILTER(STRLEN(CONCAT(STR(?a),STR(?f))) < 0) } ; CREATE GRAPH <urn:x:atom>').catch(() => undefined);
        await sleep(500 + rand() * 1000);
      }
      gw.child.kill('SIGKILL');
      await gw.exited;
      await writer;
      await heavy;
      const have = await subjects(dir, 'urn:x:acked');
      const lost = [...acked].filter((s) => !have.has(s));
      expect(lost, `cycle ${cycle}: acknowledged updates lost`).toEqual([]);
      expect((await subjects(dir, 'urn:x:none')).size).toBe(0);
    }
    expect(starts).toBe(3);
    console.log(`[crash] updates: ${acked.size} acknowledged over 3 SIGKILL cycles, 0 lost, 3/3 restarts`);
  }, 180_000);

  it('during assay load: the store always opens, holding all of the file or none of it', async () => {
    const dir = await tempDir();
    const file = join(dir, '..', `load-${process.pid}.nt`);
    const N = 20_000;
    await writeFile(file, Array.from({ length: N }, (_, i) => `<urn:x:l${i}> <urn:x:p> "${i}" .`).join('\n') + '\n');
    const rand = prng(7);
    const outcomes: number[] = [];
    for (let cycle = 0; cycle < 4; cycle++) {
      const graph = `urn:x:load${cycle}`;
      const child = spawn(process.execPath, ['bin/assay.js', 'load', file, '--data', dir, '--graph', graph], { stdio: 'ignore' });
      const exited = new Promise((r) => child.on('exit', r));
      // The last cycle is not killed: it shows what a whole load leaves.
      if (cycle < 3) {
        await sleep(500 + rand() * 5000);
        child.kill('SIGKILL');
      }
      await exited;
      const size = (await subjects(dir, graph)).size;
      expect([0, N], `cycle ${cycle}`).toContain(size);
      outcomes.push(size);
    }
    console.log(`[crash] loads: ${outcomes.map((s) => (s === 0 ? 'none' : 'all')).join(', ')} after SIGKILL`);
  }, 180_000);

  it('during compaction: acknowledged writes survive kills that land while snapshots are written', async () => {
    const dir = await tempDir();
    const rand = prng(3);
    const acked = new Set<number>();
    let next = 0;
    for (let cycle = 0; cycle < 3; cycle++) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/rdf/helpers/durable-writer.ts', dir, String(next), '60000'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let buf = '';
      let started: () => void = () => {};
      const ready = new Promise<void>((r) => { started = r; });
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('ready ')) started();
        for (const m of buf.matchAll(/^ack (\d+)$/gm)) acked.add(Number(m[1]));
      });
      await Promise.race([ready, sleep(30_000)]);
      await sleep(300 + rand() * 1500);
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      const have = await subjects(dir, 'http://example.org/g');
      const lost = [...acked].filter((i) => !have.has(`http://example.org/s${i}`));
      expect(lost, `cycle ${cycle}`).toEqual([]);
      next = have.size + 1_000_000 * (cycle + 1);
    }
    console.log(`[crash] compaction: ${acked.size} acknowledged writes over 3 SIGKILL cycles, 0 lost`);
  }, 180_000);
});
