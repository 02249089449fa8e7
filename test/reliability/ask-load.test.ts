/**
 * Fault 3: /ask does not block everything else. A real `assay serve` answers five concurrent
 * /ask clients (each asking again as soon as it has an answer) while /health and /sparql
 * canaries run beside them: every canary is answered 200 and the questions are answered too.
 * The canary latencies are printed (bench/soak.ts measures them), never asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, sparqlGet, startServe, tempDir, type Gateway } from './helpers/gateway.ts';

const QUESTIONS = ["What was Apple's total revenue in 2023?", "What was Apple's profit in 2023?", 'Who funds Stanford?'];

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

describe('/ask under load (real process)', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startServe(await tempDir(), { ASSAY_RATE_ASK_PER_MINUTE: '0', ASSAY_ASK_WORKERS: '1' }, { startMs: 180_000 });
    await gw.ready;
  }, 200_000);
  afterAll(async () => gw?.stop());

  it('five /ask clients, and /health and /sparql canaries are all answered', async () => {
    const until = Date.now() + 8_000;
    const asks: number[] = [];
    const canaries = { health: [] as { status: number; ms: number }[], sparql: [] as { status: number; ms: number }[] };
    const client = async (k: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const r = await fetch(`${gw.url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: QUESTIONS[(k + i) % QUESTIONS.length] }) });
        const body = await r.json() as { status?: string };
        asks.push(r.status);
        expect(r.status, JSON.stringify(body)).toBe(200);
        expect(['answered', 'needs_clarification', 'refused']).toContain(body.status);
      }
    };
    const canary = async () => {
      while (Date.now() < until) {
        let t0 = performance.now();
        const h = await fetch(`${gw.url}/health`);
        await h.text();
        canaries.health.push({ status: h.status, ms: performance.now() - t0 });
        t0 = performance.now();
        const s = await sparqlGet(gw.url, 'ASK { ?s ?p ?o }');
        canaries.sparql.push({ status: s.status, ms: s.ms });
        await sleep(100);
      }
    };
    await Promise.all([0, 1, 2, 3, 4].map(client).concat([canary()]));
    console.log(`[ask-load] ${asks.length} asks; /health p50 ${p50(canaries.health.map((c) => c.ms)).toFixed(1)} ms over ${canaries.health.length}; /sparql p50 ${p50(canaries.sparql.map((c) => c.ms)).toFixed(1)} ms over ${canaries.sparql.length}`);
    expect(asks.length).toBeGreaterThanOrEqual(5);
    expect(canaries.health.length).toBeGreaterThan(5);
    expect(canaries.health.every((c) => c.status === 200)).toBe(true);
    expect(canaries.sparql.every((c) => c.status === 200)).toBe(true);
  }, 120_000);
});
