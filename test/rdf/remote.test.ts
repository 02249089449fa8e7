/**
 * The remote store backend against a real Virtuoso 7 (test/rdf/helpers/virtuoso.ts): every kind
 * of write lands exactly as it does in the embedded store, the write counter lives in the store,
 * reads keep term types, failures say what to do, and VoID figures computed by the engine equal
 * the embedded store's mined ones. Protocol pieces with no server (Digest, config) come first.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, storeConfig } from '../../src/config.ts';
import { digestAuthorization, parseDigestChallenge } from '../../src/rdf/digest-auth.ts';
import { DurableStore, type WriteOp } from '../../src/rdf/durable.ts';
import { remoteFigures } from '../../src/rdf/remote-figures.ts';
import { streamLoad } from '../../src/rdf/remote-load.ts';
import { LOAD_CHUNK_QUADS, RemoteStore, SMALL_WRITE_QUADS } from '../../src/rdf/remote.ts';
import { RemoteStoreError, SparqlHttp } from '../../src/rdf/sparql-http.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { factory, type RdfStore } from '../../src/rdf/store.ts';
import { voidFigures } from '../../src/void/compute.ts';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from './helpers/virtuoso.ts';

describe('HTTP Digest (RFC 2617 §3.5 worked example)', () => {
  it('computes the published response', () => {
    const challenge = parseDigestChallenge('Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    expect(challenge).toMatchObject({ realm: 'testrealm@host.com', qop: 'auth', algorithm: 'MD5' });
    const header = digestAuthorization(challenge!, { method: 'GET', uri: '/dir/index.html', user: 'Mufasa', password: 'Circle Of Life', nc: 1, cnonce: '0a4f113b' });
    expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(header).toContain('nc=00000001');
  });

  it('answers only challenges it can compute', () => {
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseDigestChallenge('Digest realm="x", nonce="n", algorithm=SHA-512-256')).toBeUndefined();
    expect(parseDigestChallenge(null)).toBeUndefined();
  });
});

describe('a connection the engine closed under a request', () => {
  // a loopback server that drops the connection of every first request it sees, then answers
  async function dropFirst(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        seen.push(new URLSearchParams(body).has('update') ? 'update' : 'query');
        if (seen.length % 2 === 1) { req.socket.destroy(); return; }
        res.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end('{"head":{"vars":[]},"results":{"bindings":[]}}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
    return { url, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
  }

  it('sends a query once more on a fresh connection, and never an update (it may have been applied)', async () => {
    const s = await dropFirst();
    try {
      const http = new SparqlHttp({ queryUrl: s.url, updateUrl: s.url, timeoutMs: 5000 });
      const reply = await http.query('ASK {}', { accept: 'application/sparql-results+json' });
      expect(reply.status).toBe(200);
      expect(s.seen).toEqual(['query', 'query']);
      const e = await http.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RemoteStoreError);
      expect((e as RemoteStoreError).code).toBe('unreachable');
      expect(s.seen).toEqual(['query', 'query', 'update']);
    } finally {
      await s.close();
    }
  });
});

describe('a store that redirects', () => {
  it('is not followed: the error names the address to configure', async () => {
    const server = createServer((_req, res) => { res.writeHead(301, { location: '/v2/sparql' }).end(); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
    try {
      const http = new SparqlHttp({ queryUrl: url, updateUrl: url, timeoutMs: 5000 });
      const e = await http.query('ASK {}', { accept: 'application/sparql-results+json' }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RemoteStoreError);
      expect((e as Error).message).toContain(`redirecting to ${new URL('/v2/sparql', url).href}`);
      expect((e as Error).message).toMatch(/set --store \/ ASSAY_STORE_URL/);
      http.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('tests never reach the network', () => {
  it('the remote store over node:http is held to loopback as the global fetch is (test/setup.ts)', async () => {
    const http = new SparqlHttp({ queryUrl: 'http://192.0.2.1/sparql', updateUrl: 'http://192.0.2.1/sparql', timeoutMs: 2000 });
    await expect(http.query('ASK {}', { accept: 'application/sparql-results+json' })).rejects.toThrow(/test tried to reach the network over node:http: 192\.0\.2\.1/);
    http.close();
  });
});

describe('store configuration', () => {
  it('moves credentials out of a URL and keeps the embedded default without one', () => {
    const s = storeConfig({ url: 'http://alice:s%40cret@db.example:8890/sparql' }, {});
    expect(s).toMatchObject({ url: 'http://db.example:8890/sparql', user: 'alice', password: 's@cret' });
    expect(loadConfig({}, {}).store.url).toBeUndefined();
    const env = loadConfig({}, { ASSAY_STORE_URL: 'http://db/sparql', ASSAY_STORE_UPDATE_URL: 'http://db/sparql-auth', ASSAY_STORE_USER: 'u', ASSAY_STORE_PASSWORD: 'p' }).store;
    expect(env).toMatchObject({ url: 'http://db/sparql', updateUrl: 'http://db/sparql-auth', user: 'u', password: 'p' });
  });

  it('rejects a store URL that is not a URL, naming the setting', () => {
    expect(() => loadConfig({}, { ASSAY_STORE_URL: 'not a url' })).toThrow(/store\.url/);
  });
});

const why = await virtuosoUnavailable();

describe.skipIf(why !== undefined)('RemoteStore on Virtuoso', () => {
  let vt: Virtuoso;
  let base: string;
  let remote: RemoteStore;
  const SMALL = 300;
  const CHUNK = 200;
  const g = (name: string) => `${base}graph/${name}`;

  beforeAll(async () => {
    vt = await startVirtuoso();
    base = uniqueBase('remote');
    // Small request sizes, so the many-request paths run on a few hundred triples.
    remote = await RemoteStore.open(vt.store(), { baseIri: base, sizes: { smallWriteQuads: SMALL, loadChunkQuads: CHUNK } });
  }, 120_000);

  afterAll(async () => {
    await remote?.close();
    await vt?.stop();
  });

  /** Each graph's triples as sorted N-Triples lines (graphs without blank nodes). */
  const lines = (rdf: Pick<RdfStore, 'dump'>, graph: string) => rdf.dump({ format: 'application/n-triples', graph }).split('\n').filter(Boolean).sort();

  it('applies every kind of write as the embedded store does, and counts them in the store', async () => {
    const local = DurableStore.inMemory();
    const ops: WriteOp[] = [
      { kind: 'load', format: 'application/n-quads', data: `<${base}s1> <${base}p> "a \\"quoted\\" line\\nbreak" <${g('a')}> .\n<${base}s1> <${base}q> "7"^^<http://www.w3.org/2001/XMLSchema#integer> <${g('b')}> .\n<${base}s2> <${base}r> "chat"@fr <${g('b')}> .\n` },
      { kind: 'load', format: 'text/turtle', graph: g('c'), data: `<${base}s3> <${base}p> <${base}s1> , "ünïcödé ✓" .` },
      { kind: 'update', sparql: `DELETE DATA { GRAPH <${g('b')}> { <${base}s2> <${base}r> "chat"@fr } } ; INSERT DATA { GRAPH <${g('b')}> { <${base}s2> <${base}r> "cat"@en } }` },
      { kind: 'replaceGraph', graph: g('a'), format: 'text/turtle', data: `<${base}s9> <${base}p> "replaced" .` },
      { kind: 'clearGraph', graph: g('c') },
    ];
    const before = remote.seq;
    for (const op of ops) {
      await local.apply(op);
      await remote.apply(op);
    }
    expect(remote.seq).toBe(before + ops.length);
    for (const name of ['a', 'b', 'c']) expect(lines(remote.rdf, g(name))).toEqual(lines(local.rdf, g(name)));
    expect(remote.rdf.graphs().filter((x) => x.startsWith(base))).toEqual(local.rdf.graphs());
    expect(remote.rdf.graphSize(g('b'))).toBe(2);

    // Another gateway on the same store sees the same data and the same counter.
    const other = await RemoteStore.open(vt.store(), { baseIri: base });
    try {
      expect(other.seq).toBe(remote.seq);
      expect(lines(other.rdf, g('b'))).toEqual(lines(local.rdf, g('b')));
    } finally {
      await other.close();
    }
  });

  it('keeps term types and blank nodes through select and match', async () => {
    await remote.apply({ kind: 'load', format: 'text/turtle', graph: g('terms'), data: `<${base}x> <${base}n> 5 ; <${base}d> "2024-01-31"^^<http://www.w3.org/2001/XMLSchema#date> ; <${base}l> "hi"@en-GB ; <${base}b> [ <${base}inner> "deep" ] .` });
    const rows = remote.rdf.select(`SELECT ?p ?o WHERE { GRAPH <${g('terms')}> { <${base}x> ?p ?o } }`);
    const by = new Map(rows.map((r) => [r.get('p')!.value, r.get('o')!]));
    expect(by.get(`${base}n`)).toMatchObject({ termType: 'Literal', value: '5', datatype: { value: 'http://www.w3.org/2001/XMLSchema#integer' } });
    expect(by.get(`${base}d`)).toMatchObject({ termType: 'Literal', datatype: { value: 'http://www.w3.org/2001/XMLSchema#date' } });
    expect(by.get(`${base}l`)).toMatchObject({ termType: 'Literal', value: 'hi', language: 'en-gb' });
    const blank = by.get(`${base}b`)!;
    expect(blank.termType).toBe('BlankNode');
    // The blank node can be followed (Virtuoso names it nodeID://…), as describe and citations do.
    const inner = remote.rdf.match(blank, null, null, factory.namedNode(g('terms')));
    expect(inner.map((q) => q.object.value)).toEqual(['deep']);
    expect(remote.rdf.ask(`ASK { GRAPH <${g('terms')}> { ?s <${base}inner> "deep" } }`)).toBe(true);
  });

  it('sends a load larger than one request in pieces, and it arrives whole', async () => {
    const n = SMALL + 2 * CHUNK + 50; // three pieces
    expect(SMALL_WRITE_QUADS).toBeGreaterThan(SMALL);
    expect(LOAD_CHUNK_QUADS).toBeGreaterThan(CHUNK);
    const data = Array.from({ length: n }, (_, i) => `<${base}big/${i}> <${base}v> "${i}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`).join('');
    const before = remote.seq;
    await remote.apply({ kind: 'load', format: 'application/n-triples', graph: g('big'), data });
    expect(remote.rdf.graphSize(g('big'))).toBe(n);
    expect(remote.seq).toBe(before + 1);
    // A large replace goes through a staging graph and one MOVE: no staging graph is left behind.
    await remote.apply({ kind: 'replaceGraph', graph: g('big'), format: 'application/n-triples', data: data.replaceAll(`${base}v>`, `${base}w>`) });
    expect(remote.rdf.graphSize(g('big'))).toBe(n);
    expect(remote.rdf.ask(`ASK { GRAPH <${g('big')}> { ?s <${base}v> ?o } }`)).toBe(false);
    const staging = remote.rdf.select(`SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${base}.well-known/staging")) }`);
    expect(staging).toEqual([]);
  });

  it('streams a large file in pieces, each blank node one node across them, and says where a syntax error stopped it', async () => {
    const lines = Array.from({ length: 900 }, (_, i) => `<${base}org/${i}> <${base}funds> _:r${i % 7} .`);
    lines.push(...Array.from({ length: 7 }, (_, i) => `_:r${i} <${base}name> "recipient ${i}" .`));
    const before = remote.seq;
    const r = await streamLoad(remote, Readable.from([lines.join('\n') + '\n']), { format: 'text/turtle', graph: g('stream'), key: 'test-input', assayBase: base, chunkQuads: CHUNK });
    expect(r).toMatchObject({ triples: 907, requests: 5, skolemized: 7, graphs: [g('stream')] });
    expect(remote.seq).toBe(before + 1);
    const named = remote.rdf.select(`SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE { GRAPH <${g('stream')}> { ?o <${base}funds> ?r . ?r <${base}name> ?name } }`);
    expect(named[0]!.get('n')!.value).toBe('7');
    // The same input again adds nothing: its blank-node IRIs repeat.
    await streamLoad(remote, Readable.from([lines.join('\n') + '\n']), { format: 'text/turtle', graph: g('stream'), key: 'test-input', assayBase: base, chunkQuads: CHUNK });
    expect(remote.rdf.graphSize(g('stream'))).toBe(907);
    const broken = Readable.from([lines.slice(0, 450).join('\n') + '\n<${base}x> <${base}p> "unterminated .\n']);
    await expect(streamLoad(remote, broken, { format: 'text/turtle', graph: g('stream2'), key: 'broken', assayBase: base, chunkQuads: CHUNK }))
      .rejects.toThrow(/does not parse .*400 triples had already been added to <.*stream2>. Fix the file and load it again/);
  });

  it('sends nothing when the data does not parse, and refuses the default graph naming the fix', async () => {
    const before = remote.seq;
    await expect(remote.apply({ kind: 'load', format: 'text/turtle', graph: g('bad'), data: `<${base}ok> <${base}p> "fine" .\n<${base}broken> <${base}p> "no end` })).rejects.toThrow();
    expect(remote.rdf.graphSize(g('bad'))).toBe(0);
    await expect(remote.apply({ kind: 'load', format: 'text/turtle', data: `<${base}s> <${base}p> "o" .` })).rejects.toThrow(/default graph.*--graph/);
    expect(remote.seq).toBe(before);
  });

  it('says what is wrong when the store cannot be reached or refuses the account', async () => {
    const wrong = await RemoteStore.open(vt.store({ password: 'not-the-password' }), { baseIri: base });
    try {
      const e = await wrong.apply({ kind: 'clearGraph', graph: g('a') }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RemoteStoreError);
      expect((e as RemoteStoreError).code).toBe('unauthorized');
      expect((e as Error).message).toMatch(/ASSAY_STORE_USER and ASSAY_STORE_PASSWORD/);
      expect((e as Error).message).not.toContain('not-the-password');
    } finally {
      await wrong.close();
    }
    const closedPort = vt.store({ url: 'http://127.0.0.1:9/sparql' });
    const e = await RemoteStore.open(closedPort, { baseIri: base }).catch((x: unknown) => x);
    expect((e as RemoteStoreError).code).toBe('unreachable');
    expect((e as Error).message).toMatch(/ASSAY_STORE_URL/);
  });

  it('computes VoID figures in the engine equal to the embedded store\'s mined ones', async () => {
    const local = DurableStore.inMemory();
    const data = `@prefix ex: <${base}v/> . @prefix schema: <http://schema.org/> .
      ex:a a schema:Organization , ex:Funder ; schema:name "A" ; ex:gives ex:b , ex:c .
      ex:b a schema:Organization ; schema:name "B" ; ex:amount 10 , 20 .
      ex:c a ex:Funder ; ex:note [ ex:text "anonymous node" ] .`;
    for (const op of [
      { kind: 'load', format: 'text/turtle', graph: g('void1'), data },
      { kind: 'load', format: 'text/turtle', graph: g('void2'), data: `<${base}v/z> a <http://schema.org/Place> ; <http://schema.org/name> "Z" , "Zed"@en .` },
    ] satisfies WriteOp[]) {
      await local.apply(op);
      await remote.apply(op);
    }
    const mined = voidFigures(local.rdf);
    const computed = await remoteFigures(remote.http, remote.scope);
    for (const name of ['void1', 'void2']) {
      const want = mined.graphs.find((x) => x.graph === g(name))!.figures;
      const got = computed.graphs.find((x) => x.graph === g(name))!.figures;
      expect(got).toEqual(want);
    }
  });
});
