/**
 * The reliability suite's gateway: a real `assay serve` child process on 127.0.0.1 (port 0),
 * with a small catalog (the top-level descriptors of ard-okf/, without the generated measure
 * lists, so start-up takes about a second instead of minutes). Every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TOKEN = 'reliability-token-0123456789';

let catalog: Promise<string> | undefined;

/** A temp copy of ard-okf/*.json (no generated/ lists). */
export function smallCatalog(): Promise<string> {
  catalog ??= (async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'assay-cat-')), 'ard-okf');
    await mkdir(dir);
    for (const f of (await readdir('ard-okf')).filter((f) => f.endsWith('.json'))) await copyFile(join('ard-okf', f), join(dir, f));
    return dir;
  })();
  return catalog;
}

export function tempDir(prefix = 'assay-rel-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface Gateway {
  child: ChildProcess;
  url: string;
  /** Resolves when the child printed "ready". */
  ready: Promise<void>;
  /** Resolves with the exit code (or signal name) when the child ends. */
  exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait (bounded), SIGKILL if it does not stop. */
  stop(): Promise<void>;
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

/** Start `assay serve` and resolve once it listens (not necessarily ready). */
export async function startServe(dir: string, env: Record<string, string> = {}, opts: { catalog?: string; startMs?: number } = {}): Promise<Gateway> {
  const cat = opts.catalog ?? await smallCatalog();
  const child = spawn(process.execPath, ['bin/assay.js', 'serve', '--port', '0', '--data', dir, '--catalog', cat], {
    // No ask workers unless a test asks for them: they load the whole discovery index.
    env: { ...process.env, ASSAY_ASK_WORKERS: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((r) => { onReady = r; });
  let onUrl: (u: string) => void = () => {};
  const urlP = new Promise<string>((r) => { onUrl = r; });
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) onUrl(m[1]!);
    if (/^ready$/m.test(out)) onReady();
  });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? -1)));
  const url = await within(Promise.race([urlP, exited.then((c) => { throw new Error(`assay serve exited (${c}) before listening:\n${out}\n${err}`); })]), opts.startMs ?? 60_000, 'assay serve listening');
  return {
    child, url, ready: within(ready, opts.startMs ?? 60_000, 'assay serve ready'), exited,
    stdout: () => out, stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await within(exited, 15_000, 'assay serve stopping').catch(() => { child.kill('SIGKILL'); });
    },
  };
}

/** Run `assay serve` on a directory that must refuse to start: resolves with its output once it exits. */
export async function serveMustFail(dir: string): Promise<{ code: number | string; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, ['bin/assay.js', 'serve', '--port', '0', '--data', dir, '--catalog', await smallCatalog()], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const code = await within(new Promise<number | string>((r) => child.on('exit', (c, s) => r(c ?? s ?? -1))), 60_000, 'assay serve on a damaged directory')
    .catch((e) => { child.kill('SIGKILL'); throw e; });
  return { code, stderr: err, stdout: out };
}

export async function sparqlGet(url: string, query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`${url}/sparql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/sparql-results+json', ...headers } });
  const body = await r.text();
  return { status: r.status, body, ms: performance.now() - t0 };
}

export async function sparqlUpdate(url: string, text: string): Promise<{ status: number; body: string }> {
  const r = await fetch(`${url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, body: text });
  return { status: r.status, body: await r.text() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll /ready until it answers 200 (bounded). */
export async function waitReady(url: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await fetch(`${url}/ready`)).status === 200) return;
    await sleep(100);
  }
  throw new Error(`${url}/ready did not answer 200 within ${ms} ms`);
}
