// Whether dist/ was built from the TypeScript sources as they are now: the count of source files
// and the newest modification time among them. A source edited, added or removed after the build
// changes one of the two, and the launcher then runs the sources instead (never stale code).
// Costs one readdir and one stat per source file (a few milliseconds for ~300 files).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SOURCE_ROOTS = ['src', 'introspect'];

export function sourceStamp(root) {
  let files = 0;
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== 'test' && e.name !== 'node_modules') walk(p); continue; }
      if (!e.name.endsWith('.ts')) continue;
      files++;
      const m = statSync(p).mtimeMs;
      if (m > newest) newest = m;
    }
  };
  for (const d of SOURCE_ROOTS) walk(join(root, d));
  return { files, newestMtimeMs: newest };
}

/** True when dist/BUILD.json matches the sources (ASSAY_FROM_SOURCE=1 forces the sources). */
export function distIsFresh(root, env = process.env) {
  if (env.ASSAY_FROM_SOURCE === '1') return false;
  let built;
  try { built = JSON.parse(readFileSync(join(root, 'dist', 'BUILD.json'), 'utf8')); } catch { return false; }
  const now = sourceStamp(root);
  return built.files === now.files && built.newestMtimeMs === now.newestMtimeMs;
}

/**
 * Starts a worker thread's module (a worker starts without the parent's loader): the compiled one
 * under dist/ while dist/ was built from these very sources — the same code, without compiling the
 * worker's module graph again in every new thread — else tsx registered here and the sources.
 * `source` is the worker's .ts file URL; its dist twin is found by its path under the repository.
 */
export async function startWorker(source) {
  const root = new URL('../', import.meta.url);
  const path = fileURLToPath(source);
  const rel = path.slice(fileURLToPath(root).length).replace(/\.ts$/, '.js');
  if (distIsFresh(fileURLToPath(root))) {
    await import(new URL(`dist/${rel}`, root).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(source.href);
  }
}
