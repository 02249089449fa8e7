/**
 * Questions run in ask worker threads, not on the event loop that serves /health and /sparql:
 * with questions provably in flight (each has streamed progress, and none can finish, because
 * the owner's write queue is held and every question writes its run before it answers),
 * /health and /sparql answer. Then the queue is released and every question is answered.
 * No timing is asserted. Also: the ask worker's replica was adopted from a memory image of the
 * owner's store, not parsed from its files, and holds what the owner held.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type Running } from '../../src/server/listen.ts';
import type { DurableStore } from '../../src/rdf/durable.ts';

async function nextLine(reader: ReadableStreamDefaultReader<Uint8Array>, buffered: { text: string }): Promise<string | null> {
  const decoder = new TextDecoder();
  for (;;) {
    const at = buffered.text.indexOf('\n');
    if (at !== -1) {
      const line = buffered.text.slice(0, at);
      buffered.text = buffered.text.slice(at + 1);
      return line;
    }
    const { done, value } = await reader.read();
    if (done) return buffered.text.length > 0 ? buffered.text : null;
    buffered.text += decoder.decode(value, { stream: true });
  }
}

describe('asks in flight', () => {
  let gw: Running;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-inflight-'));
    gw = await startGateway(loadConfig({ dataDir: dir, port: 0, baseIri: 'http://127.0.0.1:9/', limits: { rateLimit: { askPerMinute: 0 } } }, {}), {
      // Something in the store before the ask worker is seeded: its replica must hold it.
      prepare: async (store) => store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://127.0.0.1:9/graph/test', data: '<http://example.org/s> <http://example.org/p> "seeded before the ask worker" .\n' }),
    });
    await gw.ready;
  }, 180_000);
  afterAll(async () => gw?.close());

  it('the ask worker adopted a memory image of the store', () => {
    // Ready once one ask worker is; any others may still be starting.
    const seeds = gw.app.askHost().seeds.map((s) => s.via);
    expect(seeds.length).toBeGreaterThan(0);
    expect(seeds.every((v) => v === 'image')).toBe(true);
  });

  it('/health and /sparql answer while questions are in flight; then every question is answered', async () => {
    const store = gw.store as DurableStore;
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const held = store.applyComputed(async () => { await gate; return null; });
    const questions = ["What was Apple's total revenue in 2023?", "What was Apple's total revenue in 2023?", 'What is the GDP of Mars?'];
    const streams = await Promise.all(questions.map(async (question) => {
      const res = await fetch(`${gw.url}/ask/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question }) });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const buffered = { text: '' };
      const first = JSON.parse((await nextLine(reader, buffered))!) as { event?: { stage: string } };
      expect(first.event?.stage).toBeTruthy();
      return { reader, buffered };
    }));
    // Every question has started and none can finish while the write queue is held.
    expect(gw.app.askHost().load).toBe(questions.length);
    const health = await fetch(`${gw.url}/health`);
    expect(health.status).toBe(200);
    const sparql = await fetch(`${gw.url}/sparql?query=${encodeURIComponent('SELECT ?o WHERE { GRAPH ?g { <http://example.org/s> ?p ?o } }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(sparql.status).toBe(200);
    expect(JSON.stringify(await sparql.json())).toContain('seeded before the ask worker');
    expect(gw.app.askHost().load).toBe(questions.length);
    release();
    await held;
    const results = await Promise.all(streams.map(async ({ reader, buffered }) => {
      let last: { result?: { status: string; citations?: { url: string }[] } } = {};
      for (let line = await nextLine(reader, buffered); line !== null; line = await nextLine(reader, buffered)) if (line.trim()) last = JSON.parse(line) as typeof last;
      return last.result;
    }));
    expect(results.map((r) => r?.status)).toEqual(['answered', 'answered', 'refused']);
    expect(results[0]!.citations![0]!.url).toBe('https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json');
    expect(gw.app.askHost().load).toBe(0);
  }, 180_000);
});
