/**
 * The Virtuoso instance the remote-store tests run against.
 *
 * - `.ci/run` starts one for the whole suite and sets ASSAY_TEST_VIRTUOSO
 *   (http://assay:PASSWORD@127.0.0.1:PORT); every test file uses it, each under its own base IRI
 *   and graph names so files running in parallel never see each other's data.
 * - Without it, a test file starts a private instance with .ci/virtuoso.sh (own data directory
 *   and ports, stopped after the file) when virtuoso-t is installed.
 * - Neither possible: in CI (ASSAY_CI or CI set) that is a failure, loudly; elsewhere the tests
 *   are skipped with a message saying how to run them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { storeConfig, type StoreConfig } from '../../../src/config.ts';

const run = promisify(execFile);
const SCRIPT = new URL('../../../.ci/virtuoso.sh', import.meta.url).pathname;

export interface Virtuoso {
  /** http://127.0.0.1:PORT (no credentials). */
  origin: string;
  user: string;
  password: string;
  /** A store config block for this instance: reads anonymous, updates and loads authenticated. */
  store(extra?: Partial<StoreConfig>): StoreConfig;
  /**
   * Virtuoso's own bulk loader (ld_dir + rdf_loader_run) on a local N-Triples/Turtle file, for
   * benchmarks at sizes the Graph Store Protocol is slow for. Needs the instance's directory
   * (a private instance, or ASSAY_TEST_VIRTUOSO_DIR from .ci/run).
   */
  bulkLoad(file: string, graph: string): Promise<void>;
  stop(): Promise<void>;
}

function fromUrl(url: string, stop: () => Promise<void>, dir: string | undefined): Virtuoso {
  const u = new URL(url);
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  const origin = u.origin;
  return {
    origin, user, password, stop,
    bulkLoad: async (file, graph) => {
      if (!dir) throw new Error('bulk loading needs the Virtuoso directory: set ASSAY_TEST_VIRTUOSO_DIR (as .ci/run does) or unset ASSAY_TEST_VIRTUOSO to start a private instance');
      await run(SCRIPT, ['bulk-load', dir, file, graph], { timeout: 3_600_000 });
    },
    store: (extra = {}) => storeConfig({
      url: `${origin}/sparql`, updateUrl: `${origin}/sparql-auth`, graphStoreUrl: `${origin}/sparql-graph-crud-auth`,
      user, password, ...extra,
    }, {}),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function installed(): Promise<boolean> {
  try {
    await run('sh', ['-c', 'command -v virtuoso-t']);
    return true;
  } catch {
    return false;
  }
}

/** Why the Virtuoso tests cannot run here, or undefined when they can. */
export async function virtuosoUnavailable(): Promise<string | undefined> {
  if (process.env.ASSAY_TEST_VIRTUOSO) return undefined;
  if (await installed()) return undefined;
  const why = 'Virtuoso is not available: install it (apt-get install virtuoso-opensource) or run the suite through .ci/run, which installs and starts it';
  if (process.env.ASSAY_CI || process.env.CI) throw new Error(`${why}. In CI these tests must run, not skip.`);
  console.warn(`SKIPPING the remote-store tests: ${why}.`);
  return why;
}

/** The suite's Virtuoso, or a private one for this file. */
export async function startVirtuoso(): Promise<Virtuoso> {
  const shared = process.env.ASSAY_TEST_VIRTUOSO;
  if (shared) return fromUrl(shared, async () => {}, process.env.ASSAY_TEST_VIRTUOSO_DIR);
  const dir = await mkdtemp(join(tmpdir(), 'assay-virtuoso-'));
  const { stdout } = await run(SCRIPT, ['start', dir, String(await freePort()), String(await freePort())], { timeout: 90_000 });
  const line = stdout.split('\n').find((l) => l.startsWith('ASSAY_TEST_VIRTUOSO='));
  if (!line) throw new Error(`.ci/virtuoso.sh start printed no address: ${stdout}`);
  return fromUrl(line.slice('ASSAY_TEST_VIRTUOSO='.length), async () => {
    await run(SCRIPT, ['stop', dir], { timeout: 30_000 });
    await rm(dir, { recursive: true, force: true });
  }, dir);
}

/** A base IRI no other test file uses, so data on a shared instance never mixes. */
export function uniqueBase(label: string): string {
  return `http://${label}-${randomBytes(4).toString('hex')}.assay.test/`;
}
