/**
 * A blocking read (src/rdf/blocking-http.ts) started from the compiled build, as the CLI runs it
 * against a remote store: its worker thread starts and returns the engine's answer. No other test
 * drives this path from dist/. The read runs in a child process, which blocks; the loopback server
 * answering it runs here.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const compiled = new URL('../../dist/src/rdf/blocking-http.js', import.meta.url);

describe('blocking reads from the compiled build', () => {
  it('start the compiled worker and return the engine\'s answer', async () => {
    expect(existsSync(compiled), 'dist/ is missing: run npm run build (npm ci runs it)').toBe(true);
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        seen.push(new URLSearchParams(body).get('query') ?? '');
        res.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end('{"head":{},"boolean":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
      const script = `const { BlockingSparql } = await import(${JSON.stringify(compiled.href)});
const b = new BlockingSparql({ queryUrl: ${JSON.stringify(url)}, updateUrl: ${JSON.stringify(url)}, timeoutMs: 20000 });
const r = b.query('ASK {}', { accept: 'application/sparql-results+json' });
console.log(JSON.stringify({ status: r.status, body: r.body }));
process.exit(0);`;
      // a file, not `node -e`: a worker started from an eval'd module never got to run here
      const file = join(mkdtempSync(join(tmpdir(), 'assay-blocking-')), 'read.mjs');
      writeFileSync(file, script);
      const { stdout } = await run(process.execPath, [file], { timeout: 20_000 });
      expect(JSON.parse(stdout.trim())).toEqual({ status: 200, body: '{"head":{},"boolean":true}' });
      expect(seen).toEqual(['ASK {}']);
    } finally {
      server.close();
    }
  });
});
