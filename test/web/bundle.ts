/**
 * The web bundle the page tests run against: rebuilt with the same command `npm ci` runs
 * (`npm run build:web`) whenever any source under web/ is newer than web/dist/index.html, so a
 * test never passes on a stale bundle. Test files run in parallel processes: a lock directory
 * keeps two of them from building into web/dist at once (the second waits, then finds it fresh).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = new URL('../..', import.meta.url).pathname;
const WEB = join(ROOT, 'web');
const LOCK = join(WEB, '.build-lock');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  try { return statSync(join(WEB, 'dist', 'index.html')).mtimeMs >= newestSource(WEB); } catch { return false; }
}

async function lock(): Promise<void> {
  for (let i = 0; ; i++) {
    try { mkdirSync(LOCK); return; } catch {
      // A lock left by a killed process is taken over after two minutes.
      try { if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true }); } catch { /* gone already */ }
      if (i > 1200) throw new Error(`could not take ${LOCK} within 2 minutes; remove it if no build is running`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let built: Promise<void> | undefined;

export function ensureBundle(): Promise<void> {
  built ??= (async () => {
    if (fresh()) return;
    await lock();
    try {
      if (!fresh()) await promisify(execFile)('npm', ['run', '--silent', 'build:web'], { cwd: ROOT, timeout: 120_000 });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  })();
  return built;
}
