/**
 * The invariants: an invented number grades unverified and strict mode refuses; a deadline
 * stops a hanging publisher and the refusal says so; two questions in flight keep separate
 * budgets and memos; synthesis sees the fact sheet only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { HttpClient } from '../../src/http/client.ts';
import { readDeclarations } from '../../src/connectors/declarations.ts';
import { connectorRegistry } from '../../src/connectors/registry.ts';
import { DEFAULT_CATALOG_DIR } from '../../src/connectors/runtime.ts';
import { queryContext } from '../../src/execute/context.ts';
import { fixedModel, testServices } from './services.ts';

let offline: AskServices;
beforeAll(async () => { offline = await testServices(); }, 120_000);
const Q = "What was Apple's total revenue in 2023?";

describe('figures in a synthesis draft', () => {
  it('a number absent from the evidence grades unverified, and strict mode refuses the answer', async () => {
    const seen: string[] = [];
    // the semantic check rejects residuals, as a careful model would; the draft invents a headcount
    const model = fixedModel("Apple's total revenue for FY2023 was $383,285,000,000 [E1], earned by 161,000 employees.", seen, false);
    const services = { ...offline, model };
    const loose = await ask(services, { question: Q });
    expect(loose.status).toBe('answered');
    expect(loose.rendering).toBe('model');
    expect(loose.figures.map((f) => [f.text, f.grade])).toEqual([['$383,285,000,000', 'verified'], ['161,000', 'unverified']]);
    const strict = await ask(services, { question: Q, strict: true });
    expect(strict.status).toBe('refused');
    expect(strict.refusal).toMatchObject({ boundary: 'unverified_figures' });
    expect(strict.refusal!.reason).toMatch(/"161,000" is unverified/);
    // the drafting call saw the fact sheet, not raw responses or rejected attempts
    expect(seen[0]).toMatch(/\[E1\] Apple Inc\./);
    expect(seen[0]).not.toMatch(/SalesRevenueNet|rejected|"facts"/);
  }, 60_000);

  it('a figure tied to a fact whose value differs is a conflict, and strict refuses it', async () => {
    const services = { ...offline, model: fixedModel('Revenue was $380,000,000,000 [E1].', [], false) };
    const r = await ask(services, { question: Q });
    expect(r.figures.map((f) => f.grade)).toEqual(['conflict']);
    expect((await ask(services, { question: Q, strict: true })).refusal?.boundary).toBe('unverified_figures');
  }, 60_000);
});

describe('validation with a model', () => {
  it('a model approving everything cannot admit a structurally rejected record', async () => {
    const r = await ask({ ...offline, model: fixedModel('ok', [], true) }, { question: Q });
    const structural = r.attempts.filter((a) => /^(period|entity|measure|unit|sentinel):/.test(a.reason ?? ''));
    expect(structural.length).toBeGreaterThan(0);
    for (const a of structural) expect(a.disposition).toBe('rejected');
    expect(r.attempts.filter((a) => a.disposition === 'accepted')).toHaveLength(1);
  }, 60_000);

  it('a model rejecting the residual question rejects the record; it is asked only about residuals', async () => {
    const asked: string[] = [];
    const model = { ...fixedModel('x', [], false), async complete(req: Parameters<ReturnType<typeof fixedModel>['complete']>[0]) { if (req.role === 'classify') asked.push(req.messages[1]!.content); return fixedModel('x', [], false).complete(req); } };
    // a candidate the code accepts on its own exists: the model is not asked at all (it could only have chosen a worse one)
    const r = await ask({ ...offline, model }, { question: Q });
    expect(asked).toEqual([]);
    expect(r.evidence.map((e) => e.measure)).toEqual(['sec-edgar/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax']);
    // none does: the residual ones are put to the model, and its no rejects them
    const residual = await ask({ ...offline, model }, { question: 'What was the outstanding debt on March 31, 2024?' });
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) expect(q).toMatch(/its label does not lead with the words asked for/);
    expect(residual.status).toBe('refused');
    expect(residual.attempts.some((a) => /the model judged/.test(a.reason ?? ''))).toBe(true);
  }, 60_000);
});

describe('deadlines and per-question state', () => {
  it('a deadline stops a hanging publisher, and the refusal says so', async () => {
    let sawAbort = false;
    const hanging = ((_url: string, init?: RequestInit) => new Promise((_, reject) => {
      init?.signal?.addEventListener('abort', () => { sawAbort = true; reject(init.signal!.reason); }, { once: true });
    })) as typeof fetch;
    const runtime = {
      http: new HttpClient({ mode: 'live', fetch: hanging, userAgent: 'Assay tests test@example.org', retry: { maxAttempts: 1 } }),
      declarations: await readDeclarations(DEFAULT_CATALOG_DIR),
      registry: connectorRegistry(),
    };
    const services = { ...offline, runtime };
    // Long enough that understanding and planning finish even on a loaded machine, so the
    // deadline lands while the publisher hangs (the only wait in this run).
    const r = await ask(services, { question: Q, timeoutMs: 8_000 });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'deadline' });
    expect(r.refusal!.reason).toMatch(/deadline/);
    expect(sawAbort).toBe(true);
  }, 60_000);

  it('two questions in flight keep separate budgets, memos and attempt numbering', async () => {
    const [a, b] = await Promise.all([
      ask(offline, { question: Q }),
      ask(offline, { question: "What was Apple's profit in 2023?", on_ambiguity: 'ask' }),
    ]);
    expect(a.status).toBe('answered');
    expect(b.status).toBe('needs_clarification');
    expect(a.attempts[0]!.n).toBe(1);
    expect(b.attempts[0]!.n).toBe(1);
    expect(a.run).not.toBe(b.run);
    const ctx1 = queryContext({ id: 'c1', runtime: offline.runtime, registry: offline.registry, budget: 2 });
    const ctx2 = queryContext({ id: 'c2', runtime: offline.runtime, registry: offline.registry, budget: 2 });
    ctx1.budget.take(); ctx1.budget.take();
    expect(() => ctx1.budget.take()).toThrow(/attempt budget/);
    expect(() => ctx2.budget.take()).not.toThrow();
    ctx1.resolutionMemo.set('x', Promise.resolve([]));
    expect(ctx2.resolutionMemo.has('x')).toBe(false);
    expect(ctx1.fetchMemo).not.toBe(ctx2.fetchMemo);
    ctx1.dispose(); ctx2.dispose();
  }, 60_000);

  it('an exhausted attempt budget stops the search, and the refusal names the budget', async () => {
    const r = await ask({ ...offline, attemptBudget: 2 }, { question: Q });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'budget' });
    expect(r.attempts).toHaveLength(2);
  }, 60_000);
});
