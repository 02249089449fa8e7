/**
 * Assay's MCP server through the SDK's own client, over both transports: Streamable HTTP at /mcp
 * on a gateway listening on loopback, and stdio (`assay mcp` as a subprocess). The same
 * specification runs against each: list the tools, call every one, read the resources, and send
 * bad arguments (a tool error that says what was wrong). Every structured result — answers,
 * clarifications and refusals alike — is validated with Ajv against the output schema the tool
 * list declares, the JSON Schema a client nobody here wrote would check it with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const BASE = 'http://assay.test/';
const ROOT = new URL('../..', import.meta.url).pathname;

interface Connected { client: Client; close(): Promise<void> }

async function overHttp(): Promise<Connected> {
  const store = DurableStore.inMemory();
  const app: FastifyInstance = await build({ config: loadConfig({ dataDir: '/tmp/assay-mcp-test', baseIri: BASE }, {}), store });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ name: 'assay-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin)));
  return { client, async close() { await client.close(); await app.close(); await store.close(); } };
}

async function overStdio(): Promise<Connected> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath, args: [join(ROOT, 'bin/assay.js'), 'mcp', '--data', join(dir, 'data'), '--base', BASE],
    cwd: ROOT, stderr: 'pipe',
  });
  const client = new Client({ name: 'assay-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, async close() { await client.close(); rmSync(dir, { recursive: true, force: true }); } };
}

// nlq is offered only by a gateway that serves POST /nlq (issue 13); expect it exactly when this build does.
let servesNlq = false;
beforeAll(async () => {
  const store = DurableStore.inMemory();
  const app = await build({ config: loadConfig({ dataDir: '/tmp/assay-mcp-test', baseIri: BASE }, {}), store });
  await app.ready();
  servesNlq = app.hasRoute({ method: 'POST', url: '/nlq' });
  await app.close();
  await store.close();
}, 60_000);

type CallResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> };
const text = (r: CallResult) => r.content.map((c) => c.text ?? '').join('\n');

describe.each([
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
] as const)('MCP over %s', (_name, connect) => {
  let c: Connected;
  // The SDK's default request timeout is 60 s; a first question loads the discovery index, which on a
  // busy shared machine can take longer. Correctness, not speed, is under test here.
  const validators = new Map<string, ValidateFunction>();
  const validated = new Set<string>();
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await c.client.callTool({ name, arguments: args }, undefined, { timeout: 240_000 }) as CallResult;
    if (!r.isError) {
      const validate = validators.get(name)!;
      expect(validate(r.structuredContent), `${name} ${JSON.stringify(args)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const status = (r.structuredContent as { status?: string }).status;
      validated.add(status ? `${name}:${status}` : name);
    }
    return r;
  };
  beforeAll(async () => {
    c = await connect();
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const t of (await c.client.listTools()).tools) validators.set(t.name, ajv.compile(t.outputSchema!));
  }, 120_000);
  afterAll(async () => c?.close());

  it('lists its tools, each with an input and an output schema', async () => {
    const { tools } = await c.client.listTools();
    const expected = ['ask', 'describe_source', 'list_sources', 'resolve_entity', 'resume', 'schema_card', 'sparql', ...(servesNlq ? ['nlq'] : [])];
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(40);
    }
    const ask = tools.find((t) => t.name === 'ask')!;
    // The intent's own schema (src/understand/intent.ts), not an opaque object.
    expect(JSON.stringify(ask.inputSchema.properties?.intent)).toContain('timeseries');
    expect(ask.outputSchema?.required).toEqual(expect.arrayContaining(['status', 'figures', 'citations', 'run_id']));
  });

  it('ask answers with graded, cited figures; resume answers a clarification', async () => {
    const r = await call('ask', { question: "What was Apple's total revenue in 2023?" });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { status: string; figures: Array<{ value: number; grade: string }>; citations: Array<{ url: string }>; run_id: string };
    expect(s.status).toBe('answered');
    expect(s.figures[0]).toMatchObject({ value: 383285000000, grade: 'verified' });
    expect(s.citations[0]!.url).toMatch(/^https:\/\/data\.sec\.gov\//);
    expect(text(r)).toContain('$383,285,000,000: verified');

    // A follow-up in the same conversation is read against this turn.
    const conversation = (r.structuredContent as { conversation: string }).conversation;
    expect(text(r)).toContain(`Conversation: ${conversation}`);
    const next = await call('ask', { question: 'and in 2022?', conversation });
    expect(next.structuredContent).toMatchObject({ status: 'answered', conversation, followup: { parts: ['period'], from_question: "What was Apple's total revenue in 2023?" } });
    expect((next.structuredContent as { figures: Array<{ value: number }> }).figures[0]!.value).toBe(394328000000);

    const q = await call('ask', { question: "What was Apple's profit in 2023?", on_ambiguity: 'ask' });
    const clar = q.structuredContent as { status: string; run_id: string; clarification: { options: Array<{ n: number; id: string }> } };
    expect(clar.status).toBe('needs_clarification');
    const gross = clar.clarification.options.find((o) => o.id === 'us-gaap:GrossProfit')!;
    expect(text(q)).toContain(`call resume with run "${clar.run_id}"`);
    const resumed = await call('resume', { run: clar.run_id, option: gross.n });
    expect(resumed.structuredContent).toMatchObject({ status: 'answered', resumed_from: expect.any(String) });
    expect((resumed.structuredContent as { figures: Array<{ value: number }> }).figures[0]!.value).toBe(169148000000);

    // Resources: the run graph and an evidence item, as Turtle, at the gateway's own URLs.
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([`${BASE}evidence/{run}/{n}`, `${BASE}runs/{id}`]);
    const run = await c.client.readResource({ uri: `${BASE}runs/${s.run_id}` });
    expect(run.contents[0]).toMatchObject({ mimeType: 'text/turtle' });
    expect((run.contents[0] as { text: string }).text).toContain('383285000000');
    const evidence = await c.client.readResource({ uri: `${BASE}evidence/${s.run_id}/1` });
    expect((evidence.contents[0] as { text: string }).text).toContain('prov:wasGeneratedBy');
    await expect(c.client.readResource({ uri: `${BASE}runs/nosuchrun000` })).rejects.toThrow(/no run nosuchrun000/);
  }, 300_000);

  it('sparql runs read-only queries under the endpoint\'s limits and refuses updates', async () => {
    const sel = await call('sparql', { query: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }' });
    expect(sel.structuredContent).toMatchObject({ kind: 'select', vars: ['n'], truncated: false });
    expect(Number((sel.structuredContent as { rows: Array<{ n: { value: string } }> }).rows[0]!.n.value)).toBeGreaterThan(0);
    const ask = await call('sparql', { query: 'ASK { ?s ?p ?o }' });
    expect(ask.structuredContent).toMatchObject({ kind: 'ask', boolean: true });
    const graph = await call('sparql', { query: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 2' });
    expect(graph.structuredContent).toMatchObject({ kind: 'graph' });
    const update = await call('sparql', { query: 'INSERT DATA { <urn:a> <urn:b> <urn:c> }' });
    expect(update.isError).toBe(true);
    expect(text(update)).toMatch(/read-only: this text is a SPARQL Update/);
    const broken = await call('sparql', { query: 'SELECT ?x WHERE { ?x' });
    expect(text(broken)).toMatch(/POST \/sparql answered 400: /);
  }, 60_000);

  it('schema_card, list_sources, describe_source and resolve_entity', async () => {
    const card = await call('schema_card', { budget: 2000 });
    expect(card.isError, text(card)).toBeFalsy();
    expect((card.structuredContent as { card: string }).card.length).toBeGreaterThan(100);

    const list = await call('list_sources', {});
    const sources = (list.structuredContent as { sources: Array<{ id: string; operations: number }> }).sources;
    expect(sources.map((s) => s.id)).toEqual(expect.arrayContaining(['sec-edgar', 'census-acs', 'irs-eo-bmf']));
    expect(sources.every((s) => s.operations > 0)).toBe(true);

    const sec = await call('describe_source', { id: 'sec-edgar' });
    const d = sec.structuredContent as { iri: string; operation_list: Array<{ id: string; kind: string }>; measure_sample: unknown[] };
    expect(d.iri).toBe(`${BASE}source/sec-edgar`);
    expect(d.operation_list.map((o) => o.id)).toEqual(expect.arrayContaining(['companyfacts', 'companyconcept', 'frames']));
    expect(d.measure_sample.length).toBe(25);
    const unknown = await call('describe_source', { id: 'no-such-source' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/no source "no-such-source".*sec-edgar/);

    const apple = await call('resolve_entity', { name: 'Apple', type: 'company' });
    const cands = (apple.structuredContent as { candidates: Array<{ label: string; identifiers: Record<string, string[]> }> }).candidates;
    expect(cands[0]!.identifiers.cik).toEqual(['0000320193']);
  }, 60_000);

  it('nlq writes SPARQL for a question about the graph, labelled unverified (when the gateway serves /nlq)', async () => {
    if (!servesNlq) return; // the tool is not offered; the tool list test above says so
    await call('ask', { question: "What was Apple's total revenue in 2023?" }); // the store holds a run to ask about
    const r = await call('nlq', { question: 'How many attempts are there?' });
    expect(r.isError, text(r)).toBeFalsy();
    const s = r.structuredContent as { status: string; sparql?: string; verified?: boolean };
    expect(['answered', 'not_answered']).toContain(s.status);
    if (s.status === 'answered') {
      expect(s.verified).toBe(false);
      expect(text(r)).toContain('Generated SPARQL (unverified)');
    }
    const bad = await call('nlq', { question: '' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/question/);
  }, 180_000);

  it('refusals validate against the same output schema and say why', async () => {
    // A follow-up with no previous turn: refused as not understood, saying why.
    const lone = await call('ask', { question: 'and in 2022?' });
    expect(lone.structuredContent).toMatchObject({ status: 'refused', refusal: { boundary: 'not_understood' } });
    expect(text(lone)).toMatch(/Refused \(not_understood\)/);
    // A question no catalogued publisher answers (state poverty rankings became answerable offline).
    const ranked = await call('ask', { question: 'What was the average rainfall in Seattle in 2020?' });
    expect(ranked.structuredContent).toMatchObject({ status: 'refused', refusal: { boundary: 'no_candidate_source' } });
    expect((ranked.structuredContent as { refusal: { reason: string } }).refusal.reason.length).toBeGreaterThan(10);
  }, 240_000);

  // One row per class of bad argument: each answer names the field and what it must be.
  it.each([
    ['one-of', 'ask', {}, /exactly one of question or intent/],
    ['one-of', 'ask', { question: 'x', intent: { question: 'x', shape: 'point' } }, /exactly one of question or intent/],
    ['wrong type', 'ask', { question: 42 }, /expected string, received number.*question/s],
    ['missing', 'sparql', {}, /expected string, received undefined.*query/s],
    ['missing', 'resume', { option: 1 }, /expected string, received undefined.*run/s],
    ['enum', 'ask', { question: 'x', on_ambiguity: 'sometimes' }, /expected one of "answer"\|"all"\|"ask".*on_ambiguity/s],
    ['enum', 'resolve_entity', { name: 'Apple', type: 'planet' }, /expected one of .*"company".*type/s],
    ['nested', 'ask', { intent: { question: 'x', shape: 'no-such-shape' } }, /intent\.shape/],
    ['range', 'resume', { run: 'abc', option: 0 }, />=1.*option/s],
    ['range', 'ask', { question: 'x', timeout_ms: 10_000_000 }, /<=300000.*timeout_ms/s],
    ['range', 'schema_card', { budget: 0 }, />=1.*budget/s],
    ['integer', 'resume', { run: 'abc', option: 1.5 }, /expected int.*option/s],
    ['length', 'ask', { question: 'x'.repeat(2001) }, /<=2000 characters.*question/s],
    ['length', 'sparql', { query: '' }, />=1 characters.*query/s],
    ['length', 'schema_card', { seed: Array.from({ length: 21 }, (_, i) => `urn:x:${i}`) }, /<=20 items.*seed/s],
    ['format', 'ask', { question: 'and in 2022?', conversation: 'no' }, /conversation id is the "conversation" of an earlier ask result.*conversation/s],
    ['unknown key', 'describe_source', { id: 'sec-edgar', extra: 1 }, /Unrecognized key.*"extra"/s],
    ['unknown key', 'list_sources', { verbose: true }, /Unrecognized key.*"verbose"/s],
    ['unknown value', 'describe_source', { id: 'no-such-source' }, /no source "no-such-source".*sec-edgar/s],
    ['syntax', 'sparql', { query: 'SELECT ?x WHERE { ?x' }, /POST \/sparql answered 400: /],
    ['read-only', 'sparql', { query: 'DELETE WHERE { ?s ?p ?o }' }, /read-only: this text is a SPARQL Update/],
    ['unknown tool', 'no_such_tool', {}, /Tool no_such_tool not found/],
  ] as const)('bad arguments (%s) to %s %j are a tool error saying what was wrong', async (_class, name, args, message) => {
    const r = await call(name, args as Record<string, unknown>);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(message);
  });

  it('resuming a run that never asked is a typed refusal, not a crash', async () => {
    const r = await call('resume', { run: '0123456789abcdef', option: 1 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'refused', refusal: { boundary: 'bad_resume' } });
  });

  it('every tool\'s structured output was validated, answers, clarifications and refusals alike', () => {
    const tools = ['describe_source', 'list_sources', 'resolve_entity', 'schema_card', 'sparql'];
    expect([...validated]).toEqual(expect.arrayContaining(['ask:answered', 'ask:needs_clarification', 'ask:refused', 'resume:answered', 'resume:refused', ...tools]));
    if (servesNlq) expect([...validated].some((v) => v.startsWith('nlq:'))).toBe(true);
  });
});
