/**
 * Real SPARQL clients Assay did not write, against a listening server on loopback:
 * Comunica (as a `sparql` source), Redland's `roqet` (Debian rasqal-utils) and Python rdflib's
 * SPARQLStore (Debian python3-rdflib). .ci/run installs the Debian tools; outside CI a missing
 * tool skips its test with a printed reason, in CI it fails.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { QueryEngine } from '@comunica/query-sparql';
import { KASEI, makeApp, seedKasei, type TestApp } from './helpers.ts';

const run = promisify(execFile);

describe('third-party clients', () => {
  let c: TestApp;
  let endpoint: string;
  beforeAll(async () => {
    c = await makeApp();
    await seedKasei(c.store);
    const address = await c.app.listen({ host: '127.0.0.1', port: 0 });
    endpoint = `${address}/sparql`;
  });
  afterAll(async () => {
    await c.close();
  });

  test('Comunica gets the right bindings from a SELECT', async () => {
    const engine = new QueryEngine();
    const stream = await engine.queryBindings(
      'SELECT ?d ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t } ORDER BY ?t',
      { sources: [{ type: 'sparql', value: endpoint }] },
    );
    const rows = (await stream.toArray()).map((b) => [b.get('d')?.value, b.get('t')?.value]);
    expect(rows).toEqual([1, 2, 3].map((n) => [`${KASEI}data${n}.rdf`, `Document ${n}`]));
  });

  test('Comunica gets the right answer to an ASK and the triples of a CONSTRUCT', async () => {
    const engine = new QueryEngine();
    const source = { sources: [{ type: 'sparql', value: endpoint }] as [{ type: 'sparql'; value: string }] };
    expect(await engine.queryBoolean(`ASK { <${KASEI}data2.rdf> ?p ?o }`, source)).toBe(true);
    const quads = await (await engine.queryQuads(`CONSTRUCT WHERE { <${KASEI}data3.rdf> ?p ?o }`, source)).toArray();
    expect(quads.map((q) => q.object.value).sort()).toEqual(['Document 3', 'http://xmlns.com/foaf/0.1/Document']);
  });

  const required = process.env.CI === 'true';
  const roqet = '/usr/bin/roqet';
  test.runIf(existsSync(roqet) || required)('roqet (rasqal) queries the endpoint over the SPARQL protocol', async () => {
    const { stdout } = await run(roqet, ['-p', endpoint, '-r', 'csv', '-e', `SELECT ?t WHERE { <${KASEI}data1.rdf> <http://purl.org/dc/terms/title> ?t }`], { timeout: 20_000 });
    expect(stdout).toContain('Document 1');
  });
  if (!existsSync(roqet) && !required) console.log('[clients] roqet not installed (apt-get install -y rasqal-utils); skipped');

  // rdflib sends its own protocol requests (SPARQLWrapper underneath) and parses our results.
  const python = '/usr/bin/python3';
  const hasRdflib = existsSync(python) && (() => {
    try {
      execFileSync(python, ['-c', 'import rdflib'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  test.runIf(hasRdflib || required)('rdflib\'s SPARQLStore reads SELECT and ASK results from the endpoint', async () => {
    const script = [
      'import sys',
      'from rdflib import Graph',
      'from rdflib.plugins.stores.sparqlstore import SPARQLStore',
      'g = Graph(store=SPARQLStore(sys.argv[1], returnFormat="json"))',
      'for row in g.query("SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t } ORDER BY ?t"):',
      '    print("row", row.t)',
      `print("ask", g.query("ASK { <${KASEI}data2.rdf> ?p ?o }").askAnswer)`,
    ].join('\n');
    const { stdout } = await run(python, ['-c', script, endpoint], { timeout: 30_000 });
    expect(stdout.trim().split('\n')).toEqual(['row Document 1', 'row Document 2', 'row Document 3', 'ask True']);
  });
  if (!hasRdflib && !required) console.log('[clients] python3-rdflib not installed (apt-get install -y python3-rdflib); skipped');
});
