/**
 * MCP as an agent nobody here wrote uses it: cancelling a call stops the running question,
 * progress is reported while it runs, browsers from other origins (and DNS-rebinding pages) are
 * refused, and `assay mcp` writes nothing but protocol to stdout.
 *
 * A running question is made observable by a model stub on loopback that never answers: the
 * question reaches its drafting call and waits there; when the call is cancelled, the question's
 * AbortSignal must reach that model request and close its connection, which the stub sees. If
 * cancelling did not stop the question, the stub's connection would stay open and the test would
 * fail on its timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const BASE = 'http://assay.test/';
const ROOT = new URL('../..', import.meta.url).pathname;
const QUESTION = "What was Apple's total revenue in 2023?";

/** A chat-completions endpoint that holds every request open; `calls` settle as requests arrive and close. */
interface HangingModel { url: string; arrived: Promise<void>; closed: Promise<void>; reset(): void; close(): Promise<void> }

async function hangingModel(): Promise<HangingModel> {
  let arrive!: () => void;
  let close!: () => void;
  const m = { arrived: Promise.resolve(), closed: Promise.resolve() };
  const reset = () => {
    m.arrived = new Promise((r) => { arrive = r; });
    m.closed = new Promise((r) => { close = r; });
  };
  reset();
  const server: Server = createServer((req, res) => {
    if (!req.url?.endsWith('/chat/completions')) { res.writeHead(404).end(); return; }
    req.resume();
    arrive();
    res.on('close', () => close());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get arrived() { return m.arrived; },
    get closed() { return m.closed; },
    reset,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const modelEnv = (url: string) => ({ ASSAY_LLM_URL: url, ASSAY_LLM_MODEL: 'stub-model', ASSAY_LLM_TIMEOUT_MS: '600000' });

type Progress = { progress: number; message?: string };

/** Calls ask, waits until the question is inside its model call, cancels, and checks it stopped. */
async function cancelsWhileRunning(client: Client, model: HangingModel): Promise<Progress[]> {
  model.reset();
  const seen: Progress[] = [];
  const ac = new AbortController();
  const call = client.callTool({ name: 'ask', arguments: { question: QUESTION } }, undefined, {
    signal: ac.signal, timeout: 600_000, onprogress: (p) => { seen.push(p); },
  });
  call.catch(() => undefined);
  await model.arrived; // the question is running: it waits on the model's drafting call
  ac.abort(new Error('the agent changed its mind'));
  await expect(call).rejects.toThrow(/changed its mind/);
  await model.closed; // the question's signal reached the model request: the work stopped
  return seen;
}

function expectProgressLines(seen: Progress[]) {
  expect(seen.length).toBeGreaterThan(2);
  expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
  for (const p of seen) expect(p.message).toMatch(/^[a-z_]+ \[[^\]]+\] \S/);
  expect(seen.map((p) => p.message!.split(' ')[0])).toEqual(expect.arrayContaining(['plan']));
}

describe('MCP over Streamable HTTP', () => {
  let model: HangingModel;
  let app: FastifyInstance;
  let store: DurableStore;
  let origin: string;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    model = await hangingModel();
    // The ask workers read the model configuration from the environment when they start.
    for (const [k, v] of Object.entries(modelEnv(model.url))) { saved[k] = process.env[k]; process.env[k] = v; }
    store = DurableStore.inMemory();
    app = await build({ config: loadConfig({ dataDir: '/tmp/assay-mcp-agent-test', baseIri: BASE, limits: { cors: { askOrigins: ['http://agent.example'] } } }, {}), store });
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
    await app?.close();
    await store?.close();
    await model?.close();
  });

  it('reports progress while a question runs, and cancelling the call stops the question', async () => {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin)));
    try {
      const seen = await cancelsWhileRunning(client, model);
      expectProgressLines(seen);
      await expect.poll(() => app.askHost().load, { timeout: 60_000 }).toBe(0);
    } finally {
      await client.close();
    }
  }, 600_000);

  it('an agent that drops its connection stops its question too', async () => {
    model.reset();
    const client = new Client({ name: 'agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', origin));
    await client.connect(transport);
    const call = client.callTool({ name: 'ask', arguments: { question: QUESTION } }, undefined, { timeout: 600_000 });
    call.catch(() => undefined);
    await model.arrived;
    await transport.close(); // aborts the open POST: the route sees the connection close
    await model.closed;
    await expect.poll(() => app.askHost().load, { timeout: 60_000 }).toBe(0);
  }, 600_000);

  /** A raw HTTP request, so the Host and Origin headers are exactly what a browser would send. */
  const raw = (path: string, o: { method?: string; headers?: Record<string, string>; body?: string }) => new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const u = new URL(path, origin);
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: o.method ?? 'POST', headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it.each([
    ['a page on another site', { origin: 'http://evil.example' }, /a page at http:\/\/evil\.example may not call this MCP endpoint.*limits\.cors\.askOrigins/],
    ['a DNS-rebinding page (its own name, pointed at loopback)', { origin: 'http://rebind.example:8080', host: 'rebind.example:8080' }, /may not call this MCP endpoint/],
    ['a rebound name with no Origin', { host: 'rebind.example' }, /Host "rebind\.example" looks like DNS rebinding/],
  ] as const)('refuses %s with 403 saying what to change', async (_who, h, message) => {
    const r = await raw('/mcp', { headers: { ...mcpHeaders, ...h }, body: initialize });
    expect(r.status).toBe(403);
    expect((JSON.parse(r.body) as { error: { message: string } }).error.message).toMatch(message);
  });

  it.each([
    ['an agent outside a browser (no Origin)', {}],
    ['an origin the operator allowed (limits.cors.askOrigins)', { origin: 'http://agent.example' }],
    ["the gateway's own origin", { origin: 'http://assay.test', host: 'assay.test' }],
  ] as const)('answers %s', async (_who, h) => {
    const r = await raw('/mcp', { headers: { ...mcpHeaders, ...h }, body: initialize });
    expect(r.status).toBe(200);
    expect(r.body).toContain('"serverInfo"');
    expect(r.headers['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    if ('origin' in h && h.origin === 'http://agent.example') expect(r.headers['access-control-allow-origin']).toBe('http://agent.example');
  });

  it("lets an allowed page's MCP client through CORS preflight with the protocol's headers", async () => {
    const r = await raw('/mcp', { method: 'OPTIONS', headers: { origin: 'http://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-protocol-version,mcp-session-id' } });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('http://agent.example');
    expect(String(r.headers['access-control-allow-headers']).toLowerCase()).toContain('mcp-protocol-version');
    const other = await raw('/mcp', { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('assay mcp over stdio', () => {
  let model: HangingModel;
  let dir: string;
  beforeAll(async () => {
    model = await hangingModel();
    dir = mkdtempSync(join(tmpdir(), 'assay-mcp-agent-'));
  });
  afterAll(async () => {
    await model?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('cancelling a call stops the question in the subprocess', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [join(ROOT, 'bin/assay.js'), 'mcp', '--data', join(dir, 'cancel'), '--base', BASE],
      cwd: ROOT, stderr: 'pipe', env: { ...(process.env as Record<string, string>), ...modelEnv(model.url) },
    });
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      expectProgressLines(await cancelsWhileRunning(client, model));
    } finally {
      await client.close();
    }
  }, 600_000);

  it('writes nothing but JSON-RPC messages to stdout, from start to exit', async () => {
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('ASSAY_LLM') || k.startsWith('ASSAY_EMBED')) delete env[k];
    const child = spawn(process.execPath, [join(ROOT, 'bin/assay.js'), 'mcp', '--data', join(dir, 'stdout'), '--base', BASE], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (c) => { err += c; });
    const lines: string[] = [];
    const waiters: Array<{ id: number; resolve: (m: unknown) => void }> = [];
    child.stdout.on('data', (c) => {
      out += c;
      let nl: number;
      while ((nl = out.indexOf('\n')) !== -1) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        lines.push(line);
        try {
          const m = JSON.parse(line) as { id?: number };
          for (const w of waiters) if (w.id === m.id) w.resolve(m);
        } catch { /* checked below */ }
      }
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    const reply = (id: number) => new Promise<unknown>((resolve) => waiters.push({ id, resolve }));

    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await reply(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await reply(2);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask', arguments: { question: QUESTION }, _meta: { progressToken: 'p1' } } });
    const answer = await reply(3) as { result: { structuredContent: { status: string } } };
    expect(answer.result.structuredContent.status).toBe('answered');
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'sparql', arguments: { query: 'SELECT * WHERE { ?s ?p ?o } LIMIT 1' } } });
    await reply(4);
    child.stdin.end();
    expect(await exited).toBe(0);

    expect(out).toBe(''); // no partial line left
    const notJson = lines.filter((l) => { try { return (JSON.parse(l) as { jsonrpc?: string }).jsonrpc !== '2.0'; } catch { return true; } });
    expect(notJson, `stderr: ${err}`).toEqual([]);
    const progress = lines.map((l) => JSON.parse(l) as { method?: string; params?: { progressToken?: string } }).filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p) => p.params?.progressToken === 'p1')).toBe(true);
    expect(err).toContain('assay mcp: serving over stdio');
  }, 600_000);
});
