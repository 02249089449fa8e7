/**
 * SPARQL Update when the data directory stops taking writes (a full disk): the update that hits
 * the fault, and every one after it, answers 507 `store-unwritable` naming the fault and what to
 * do (as POST /ask does), not 400 "the store rejected the update", which would blame the update.
 * Reads keep working, and nothing the endpoint answered before the fault changes.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';
import { TOKEN, bindings, select } from './helpers.ts';
import { enospc, faultyWrites } from '../../rdf/faulty-writes.ts';

afterEach(() => { vi.restoreAllMocks(); });

test('an update on a full disk is 507 store-unwritable with the fault and the fix; reads keep working', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'assay-sparql-unwritable-'));
  const store = await DurableStore.open(dir);
  const config = loadConfig({ dataDir: dir, baseIri: 'http://assay.test/', sparql: { updateToken: TOKEN, workers: 1 } }, {});
  const app = await build({ config, store });
  try {
    await app.queryPool.ready();
    const update = (text: string) => app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: text });
    const titles = 'SELECT ?o WHERE { GRAPH <http://x/g> { ?s <http://x/p> ?o } } ORDER BY ?o';
    expect((await update('INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> "kept" } }')).statusCode).toBe(204);
    expect(bindings((await select(app, titles)).body).map((b) => b.o!.value)).toEqual(['kept']);

    await faultyWrites(() => Promise.reject(enospc()));
    const first = await update('INSERT DATA { GRAPH <http://x/g> { <http://x/b> <http://x/p> "lost" } }');
    expect(first.statusCode, first.body).toBe(507);
    expect(first.json()).toMatchObject({ error: 'store-unwritable' });
    expect(first.json().message).toMatch(/ENOSPC.*not acknowledged.*is full: free space there.*restart Assay.*Reads \(\/sparql, \/runs\) keep working/);
    expect(first.json().fix).toMatch(/restarts Assay/);
    vi.restoreAllMocks();

    // The disk may have room again: the store still refuses (memory holds a write the disk does not).
    const next = await update('INSERT DATA { GRAPH <http://x/g> { <http://x/c> <http://x/p> "after" } }');
    expect(next.statusCode, next.body).toBe(507);
    expect(next.json()).toMatchObject({ error: 'store-unwritable' });
    expect(next.json().message).toMatch(/refused writes after an earlier fault/);

    const read = await select(app, titles);
    expect(read.statusCode).toBe(200);
    expect(bindings(read.body).map((b) => b.o!.value)).toEqual(['kept']);
  } finally {
    await app.close();
    await store.close();
  }
}, 60_000);
