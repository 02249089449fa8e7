/**
 * Fixtures that cost seconds to build and that the tests using them only read, built once per
 * test worker and shared by every file that runs in it (vitest.config.ts runs files without
 * per-file isolation, so this module is evaluated once per worker).
 *
 * Each is what the file used to build for itself, by the same call: `sharedCatalog(dir)` is
 * `loadCatalog(dir)`, `sharedBuiltIndex()` is `DiscoveryIndex.build(loadCatalog('ard-okf'))` (built
 * from the current sources, never read from the on-disk index cache, so a change under src/ is
 * what the tests see), and `sharedAskParts()` is what `loadAskServices` loads by default. A test
 * that changes one of these (attaches embeddings, spies on a method without restoring it, edits
 * the catalog) must build its own instead.
 */
import { loadCatalog, type Catalog } from '../src/ard/index.ts';
import { DiscoveryIndex } from '../src/discover/index.ts';
import { embeddingSetupFromEnv, loadDiscoveryIndex } from '../src/discover/load.ts';
import { openOfflineRegistry, type IdentityRegistry } from '../src/resolve/registry.ts';
import { loadEvidenceShapes } from '../src/evidence/shacl.ts';
import type { CompiledShapes } from '../src/ard/shacl.ts';

const catalogs = new Map<string, Promise<Catalog>>();
let builtIndex: Promise<DiscoveryIndex> | undefined;
let askParts: Promise<{ index: DiscoveryIndex; registry: IdentityRegistry; shapes: CompiledShapes }> | undefined;

/** Drops a failed build, so the next file tries again and reports its own error. */
function memo<T>(p: Promise<T>, forget: () => void): Promise<T> {
  p.catch(forget);
  return p;
}

/** `loadCatalog(dir)`, once per worker for each `dir` string. */
export function sharedCatalog(dir = 'ard-okf'): Promise<Catalog> {
  let p = catalogs.get(dir);
  if (!p) {
    p = memo(loadCatalog(dir), () => catalogs.delete(dir));
    catalogs.set(dir, p);
  }
  return p;
}

/** `DiscoveryIndex.build(await loadCatalog('ard-okf'))`, lexical, once per worker. */
export function sharedBuiltIndex(): Promise<DiscoveryIndex> {
  return (builtIndex ??= memo(sharedCatalog('ard-okf').then((c) => DiscoveryIndex.build(c)), () => { builtIndex = undefined; }));
}

/**
 * The discovery index, offline registry and compiled evidence shapes `loadAskServices` loads when
 * given none, once per worker (a process's asks share one compiled validator, as the CLI's and the
 * gateway's do); `undefined` when an embeddings endpoint is configured in the environment (then each
 * caller loads its own, as before, since attaching embeddings changes the index).
 */
export function sharedAskParts(): Promise<{ index: DiscoveryIndex; registry: IdentityRegistry; shapes: CompiledShapes }> | undefined {
  if (embeddingSetupFromEnv()) return undefined;
  return (askParts ??= memo(Promise.all([loadDiscoveryIndex('ard-okf', { embeddings: null }), openOfflineRegistry(), loadEvidenceShapes()]).then(([i, registry, shapes]) => ({ index: i.index, registry, shapes })), () => { askParts = undefined; }));
}
