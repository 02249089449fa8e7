/**
 * A name Assay will not guess, over HTTP on the offline default: POST /ask returns the typed
 * clarification (code, the words asked, each registered candidate with its kind, identifiers and
 * the keys the planned sources read it by); the pick comes back as a resume (run and option) or as
 * the conversation's next message ("yes", or the entity's name written any way), and the question
 * is then read for the entity picked and verified like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const BASE = 'http://assay.test/';
let dir: string;
let store: DurableStore;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-clarify-'));
  store = await DurableStore.open(join(dir, 'data'));
  app = await build({ config: loadConfig({ dataDir: join(dir, 'data'), baseIri: BASE }, {}), store });
}, 60_000);
afterAll(async () => { await app?.close(); await store?.close(); rmSync(dir, { recursive: true, force: true }); });

const ask = async (payload: Record<string, unknown>) => {
  const res = await app.inject({ method: 'POST', url: '/ask', payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('POST /ask: a name several registered names start with', () => {
  it('the clarification lists the candidates as data; the conversation\'s next message "Amazon.com" picks the SEC registrant', async () => {
    const first = await ask({ question: "What was Amazon's revenue in 2023?" });
    expect(first.status).toBe('needs_clarification');
    expect(first.clarification.code).toBe('entity_candidates');
    expect(first.clarification.asked).toBe('Amazon');
    expect(first.clarification.options.map((o: { n: number; entity: { label: string; kinds: string[]; readable_by: string[] } }) => [o.n, o.entity.label, o.entity.kinds, o.entity.readable_by])).toEqual([
      [1, 'AMAZON BIODIVERSITY CENTER', ['organization'], ['ein']],
      [2, 'AMAZON COM INC', ['company'], ['cik']],
      [3, 'AMAZON CONSERVATION ASSOCIATION', ['organization'], ['ein']],
    ]);
    expect(first.clarification.options[1].entity.identifiers.cik).toEqual(['0001018724']);
    expect(first.figures).toEqual([]);

    const picked = await ask({ conversation: first.conversation, question: 'Amazon.com' });
    expect(picked.resumed_from).toBe(first.run_id);
    // the registrant's filings are not in the offline snapshot: refused as such, never another figure
    expect(picked.status).toBe('refused');
    expect(picked.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'offline' });
    expect(picked.refusal.disclosures).toEqual(['"Amazon" read as AMAZON COM INC (SEC CIK 1018724), the registered entity chosen in answer to the clarification']);
  }, 120_000);

  it('a new question after a clarification is read as a question, not a pick', async () => {
    const first = await ask({ question: 'How much does Yale cost?' });
    expect(first.status).toBe('needs_clarification');
    const next = await ask({ conversation: first.conversation, question: "What was Apple's total revenue in 2023?" });
    expect(next.resumed_from).toBeUndefined();
    expect(next.status).toBe('answered');
    expect(next.figures.map((f: { value: number; grade: string }) => [f.value, f.grade])).toEqual([[383_285_000_000, 'verified']]);
  }, 120_000);
});

describe('POST /ask: "did you mean"', () => {
  it('a lower-case name: "yes" in the conversation accepts the one suggestion and answers, verified', async () => {
    const first = await ask({ question: "what was apple's total revenue in 2023?" });
    expect(first.status).toBe('needs_clarification');
    expect(first.clarification).toMatchObject({ code: 'did_you_mean', asked: 'apple' });
    expect(first.clarification.question).toMatch(/^Did you mean Apple Inc\. \(SEC CIK 320193\)\?/);
    const yes = await ask({ conversation: first.conversation, question: 'yes' });
    expect(yes.resumed_from).toBe(first.run_id);
    expect(yes.status).toBe('answered');
    expect(yes.figures.map((f: { value: number; grade: string }) => [f.value, f.grade])).toEqual([[383_285_000_000, 'verified']]);
  }, 120_000);

  it('a mistyped name: resumed by run and option, the chosen entity answered', async () => {
    const first = await ask({ question: "What was Appel's total revenue in 2023?" });
    expect(first.status).toBe('needs_clarification');
    const apple = first.clarification.options.find((o: { entity: { label: string } }) => o.entity.label === 'Apple Inc.');
    // two were offered (Apple Inc. and APPEAL INCORPORATED): "yes" picks neither
    const yes = await ask({ conversation: first.conversation, question: 'yes' });
    expect(yes.resumed_from).toBeUndefined();
    const r = await ask({ resume: { run: first.run_id, option: apple.n } });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e: { entity_key: string; value: number }) => [e.entity_key, e.value])).toEqual([['cik=0000320193', 383_285_000_000]]);
  }, 120_000);
});
