import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type Running } from '../../src/server/listen.ts';

// The listener (not inject) path: limits enforced by Node itself must not shadow the protocol's.
describe('the gateway on a real socket', () => {
  let gw: Running;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-listen-'));
    gw = await startGateway(loadConfig({ dataDir: dir, port: 0, baseIri: 'http://127.0.0.1:9/' }, {}));
  });
  afterAll(async () => gw?.close());

  it('answers /health', async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('answers an over-long query URL with 414, not Node\'s 431', async () => {
    const query = `SELECT * WHERE { ?s ?p "${'x'.repeat(20_000)}" }`;
    const res = await fetch(`${gw.url}/sparql?query=${encodeURIComponent(query)}`);
    expect(res.status).toBe(414);
  });

  it('answers a URL past Node\'s own header limit with the endpoint\'s 414 too (fault 10)', async () => {
    const res = await fetch(`${gw.url}/sparql?query=${'x'.repeat(40_000)}`);
    expect(res.status).toBe(414);
    expect(await res.json()).toMatchObject({ error: 'url-too-long' });
  });
});
