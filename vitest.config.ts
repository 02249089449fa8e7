import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'introspect/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files share their worker process and its module cache: the source graph (fastify,
    // comunica, oxigraph, the whole of src/) is imported once per worker instead of once per file,
    // and fixtures a file may share (test/shared.ts) are built once. This holds because tests keep
    // no state between files: no module-level mutable state in src/ (STYLE.md), mocks, fake timers
    // and stubbed env restored by the files that set them, and test/setup.ts, which runs before
    // every file, reinstalls the network guard around the one real fetch.
    isolate: false,
    // Two workers even on 2 cores (vitest's default is cores − 1 = 1 there): much of the suite's
    // time is child processes, browsers, worker threads and sleeps, during which the other worker
    // runs. Same-machine A/B on 8 paths at load ~20: 0.72× wall, 1.09× CPU (the second worker's own
    // imports and shared fixtures). More cores: vitest's default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // describe.concurrent files (the CLI tests, whose time is their child processes) overlap at most
    // three tests, so a 2-core machine is kept busy without starving each child.
    maxConcurrency: 3,
    // Tests must never reach the network; see test/setup.ts.
    setupFiles: ['test/setup.ts'],
  },
});
