/**
 * The web page in a real browser (Debian's Chromium, headless), against a gateway listening on
 * loopback with the offline default (cassettes, offline interpreter, plain renderer, no model).
 * Screenshots go to test-artifacts/web/ (gitignored; CI keeps them as artefacts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { ensureBundle } from './bundle.ts';
import { openBrowser, screenshot, type Browser } from './browser.ts';

const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';

let app: FastifyInstance;
let store: DurableStore;
let origin: string;
let b: Browser;

beforeAll(async () => {
  await ensureBundle();
  store = DurableStore.inMemory();
  // Two catalog-like statements so the console's example query has rows to show.
  await store.apply({ kind: 'replaceGraph', graph: 'http://assay.test/graph/browser-test', format: 'text/turtle', data:
    `<http://assay.test/service/a> a <${DCAT}DataService> ; <${DCT}title> "Browser test service A" .\n<http://assay.test/service/b> a <${DCAT}DataService> ; <${DCT}title> "Browser test service B" .\n` });
  app = await build({ config: loadConfig({ dataDir: '/tmp/assay-web-test', baseIri: 'http://assay.test/' }, {}), store });
  origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  b = await openBrowser(origin);
}, 180_000);

afterAll(async () => {
  await b?.close();
  await app?.close();
  await store?.close();
});

async function ask(question: string, mode: 'answer' | 'ask' | 'all' = 'answer') {
  const { page } = b;
  await page.getByLabel({ answer: 'answer with the preferred reading', ask: 'ask me to choose', all: 'answer every reading' }[mode]).check();
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByLabel('Question', { exact: true }).press('Enter');
  const turn = page.locator('article.turn').first();
  await turn.locator('.answer').waitFor({ timeout: 240_000 });
  return turn;
}

describe('the web page in Chromium', () => {
  it('answers a question with live progress, graded figures, a legend and citations', async () => {
    const { page } = b;
    await page.goto(`${origin}/`, { headers: {} } as never);
    await page.waitForSelector('html[data-ready=true]');
    expect(await page.title()).toMatch(/Assay/);
    const turn = await ask("What was Apple's total revenue in 2023?");
    expect(await turn.locator('.answer').getAttribute('data-status')).toBe('answered');
    // Progress: one line per decision, streamed before the answer.
    const stages = await turn.locator('.progress li').evaluateAll((lis) => lis.map((l) => l.getAttribute('data-stage')));
    expect(stages).toEqual(expect.arrayContaining(['structure', 'measure', 'discovery', 'plan', 'validation', 'answer']));
    // The figure is marked with its grade, visibly and for screen readers.
    const mark = turn.locator('mark.fig').first();
    expect(await mark.getAttribute('data-grade')).toBe('verified');
    expect(await mark.innerText()).toContain('$383,285,000,000');
    expect(await mark.locator('.sr-only').textContent()).toBe(' (verified)');
    await expect.poll(() => turn.locator('.legend dt').allInnerTexts()).toEqual(['verified', 'derived', 'corroborated', 'conflict', 'unverified']);
    // Citations link to the publisher's URL and to the evidence IRI.
    const citation = turn.locator('.citations li').first();
    const hrefs = await citation.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.some((h) => h?.startsWith('https://data.sec.gov/api/xbrl/'))).toBe(true);
    expect(hrefs.some((h) => /^http:\/\/assay\.test\/evidence\/[0-9a-f]+\/1$/.test(h ?? ''))).toBe(true);
    expect(await turn.locator('.block', { hasText: 'Qualification' }).innerText()).toMatch(/asserted/);
    await screenshot(turn, '1-answer');

    // The panel: intent by the call that made it, discovery, plan, attempts, validation, evidence, cross-checks.
    await turn.getByText('How this answer was made').click();
    const panel = turn.locator('details.panel');
    expect(await panel.getAttribute('open')).not.toBeNull();
    const text = await panel.innerText();
    for (const part of ['Intent', 'decided by offline', 'Discovery', 'Plan', 'Attempts', 'Validation', 'Evidence', 'Cross-checks']) expect(text).toContain(part);
    expect(await panel.locator('table', { hasText: 'Every attempt' }).locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(panel, '2-panel');

    // Feedback on the answer: sent, confirmed and listed under it.
    const feedback = turn.locator('section.feedback');
    await feedback.getByLabel('Comment').fill('Right figure, but say it is the fiscal year up front.');
    await feedback.getByRole('button', { name: 'Helpful' }).click();
    await expect.poll(() => feedback.locator('.fb-status').innerText()).toMatch(/recorded as “helpful”/);
    expect(await feedback.locator('.fb-list li').first().innerText()).toMatch(/helpful.*fiscal year up front/);
    await screenshot(feedback, '2b-feedback');
  }, 300_000);

  it('offers a clarification as buttons and shows the resumed answer when one is clicked', async () => {
    const { page } = b;
    await ask("What was Apple's profit in 2023?", 'ask');
    // Pinned to the clarification's own turn: a resumed answer becomes the first turn.
    const turn = page.locator('article.turn', { has: page.locator('.answer[data-status=needs_clarification]') });
    expect(await turn.count()).toBe(1);
    const options = turn.locator('button.option');
    expect(await options.count()).toBeGreaterThan(1);
    const gross = options.filter({ hasText: /gross profit/i });
    await screenshot(turn, '3-clarification');
    await gross.focus();
    await page.keyboard.press('Enter'); // keyboard-usable
    const resumed = page.locator('article.turn').first();
    await expect.poll(() => resumed.locator('h3').innerText()).toMatch(/^Resumed with option \d+/);
    await resumed.locator('.answer').waitFor({ timeout: 240_000 });
    expect(await resumed.locator('.answer').getAttribute('data-status')).toBe('answered');
    expect(await resumed.locator('mark.fig').first().innerText()).toContain('$169,148,000,000');
    expect(await options.first().isDisabled()).toBe(true);
    await screenshot(resumed, '4-resumed');
  }, 300_000);

  it('draws a timeseries chart from the graded figures, with units and the source under it', async () => {
    const { page } = b;
    const turn = await ask('How did Apple revenue change from 2019 to 2023?');
    const chart = turn.locator('figure.chart');
    await chart.waitFor({ timeout: 30_000 });
    expect(await chart.getAttribute('data-kind')).toBe('line');
    expect(await chart.getAttribute('data-points')).toBe('5');
    expect(await chart.locator('svg circle').count()).toBe(5);
    const caption = await chart.locator('figcaption').innerText();
    expect(caption).toContain('Units: USD');
    expect(caption).toMatch(/Source: sec-edgar https:\/\/data\.sec\.gov\//);
    expect(await chart.getAttribute('aria-label')).toContain('FY2019: $260,174,000,000 (verified)');
    await screenshot(chart, '5-chart');
  }, 300_000);

  it('reads a follow-up against the previous question and says what it carried over', async () => {
    const { page } = b;
    expect(await page.getByLabel(/continue the conversation/).isChecked()).toBe(true);
    const turn = await ask('and in 2022?');
    expect(await turn.locator('.answer').getAttribute('data-status')).toBe('answered');
    const note = turn.locator('p.carried');
    expect(await note.getAttribute('data-followup')).toBe('period');
    expect(await note.innerText()).toMatch(/^Follow-up to “How did Apple revenue change from 2019 to 2023\?”: carried over .*entity Apple.*attribute revenue.*; this question set .*period 2022/);
    expect(await turn.locator('mark.fig').first().innerText()).toContain('$394,328,000,000');
    expect(await turn.locator('.progress li[data-stage=structure]').first().innerText()).toMatch(/follow-up reader/);
    await screenshot(turn, '5b-followup');
  }, 300_000);

  it('runs SPARQL in the console and shows a results table', async () => {
    const { page } = b;
    await page.locator('#sparql .cm-editor').waitFor();
    await page.getByRole('button', { name: 'Run query' }).click();
    const table = page.locator('#sparql-results table');
    await table.waitFor();
    expect(await table.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Browser test service A'), expect.stringContaining('Browser test service B')]);
    // Edit the query with the keyboard and run it with Ctrl+Enter.
    await page.locator('#sparql .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://assay.test/graph/browser-test> { ?s ?p ?o } }');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.locator('#sparql-results tbody td').first().innerText()).toMatch(/^4/);
    // A bad query shows the endpoint's own message.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('SELECT ?x WHERE { ?x ');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.locator('#sparql-results .error').innerText()).toMatch(/Error 400/);
    await screenshot(page.locator('#sparql'), '6-sparql');
  }, 300_000);

  it('shows the question-to-SPARQL box when the gateway serves /nlq, its query labelled unverified', async () => {
    const { page } = b;
    const served = app.hasRoute({ method: 'POST', url: '/nlq' });
    expect(await page.locator('#nlq').isVisible()).toBe(served);
    if (!served) return;
    await page.getByLabel('Question about the graph').fill('How many data services are there?');
    await page.getByRole('button', { name: 'Write SPARQL' }).click();
    const out = page.locator('#nlq-result');
    await out.locator('.unverified-label').waitFor({ timeout: 150_000 });
    expect(await out.locator('.unverified-label').innerText()).toMatch(/unverified/);
    expect(await out.locator('pre.nlq-query').innerText()).toMatch(/SELECT|ASK/);
    await page.getByRole('button', { name: 'Open in the SPARQL console' }).click();
    await expect.poll(() => page.locator('#sparql .cm-content').innerText()).toMatch(/SELECT|ASK/);
    await screenshot(page.locator('#nlq'), '7-nlq');
  }, 180_000);

  // Last of the page's interactions: it expands a 3,140-row table, which leaves the page heavy.
  it('draws a correlation as a scatter of the graded members, both measures and units on the axes', async () => {
    const turn = await ask('Is county poverty associated with diabetes prevalence?');
    const chart = turn.locator('figure.chart');
    await chart.waitFor({ timeout: 60_000 });
    expect(await chart.getAttribute('data-kind')).toBe('scatter');
    const n = Number(await chart.getAttribute('data-points'));
    expect(n).toBeGreaterThan(3000); // every aligned county whose two cells are graded
    expect(await chart.locator('svg circle').count()).toBe(n);
    const caption = await chart.locator('figcaption').innerText();
    expect(caption).toContain('Units: across %, up %');
    expect(caption).toMatch(/Source: .*svi\.cdc\.gov.*data\.cdc\.gov/s);
    expect(await chart.getAttribute('aria-label')).toMatch(/^Scatter plot, Diagnosed diabetes among adults against Persons below poverty \(percent\), \d+ members/);
    // The members' table shows its first rows and the rest on request (by keyboard here).
    const table = turn.locator('table.data[data-rows]');
    expect(Number(await table.getAttribute('data-rows'))).toBe(n);
    expect(await table.locator('tbody tr').count()).toBe(50);
    await turn.getByRole('button', { name: `Show all ${n.toLocaleString('en-US')} rows` }).press('Enter');
    expect(await table.locator('tbody tr').count()).toBe(n);
    await screenshot(chart, '5c-scatter');
  }, 300_000);

  it('needed nothing from any other origin, and logged no script errors', () => {
    expect(b.offOrigin).toEqual([]);
    expect(b.consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
