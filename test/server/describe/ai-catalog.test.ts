/**
 * /.well-known/ai-catalog.json: Assay's own ARD catalog validates against the vendored ai-catalog
 * JSON Schema and advertises the SPARQL endpoint, VoID, the DCAT catalog and the shapes at URLs
 * that this same app answers.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { assayAiCatalog, urnPublisher } from '../../../src/server/routes/ai-catalog.ts';
import { BASE, appWith } from './helpers.ts';
import { CATALOG_GRAPH, CATALOG_TTL } from './fixture.ts';

const SCHEMA_PATH = new URL('../../../src/ard/schemas/ai-catalog.schema.json', import.meta.url);

function validator() {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

interface Entry { identifier: string; url: string; type: string; metadata?: Record<string, unknown> }

describe('/.well-known/ai-catalog.json', () => {
  it('validates against the ARD ai-catalog JSON Schema', async () => {
    const { app } = await appWith();
    apps.push(app);
    const res = await app.inject({ url: '/.well-known/ai-catalog.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const validate = validator();
    const ok = validate(res.json());
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check has teeth: a broken manifest is rejected', () => {
    const validate = validator();
    const doc = assayAiCatalog(BASE) as { entries: Array<Record<string, unknown>> };
    const broken = { ...doc, entries: [{ ...doc.entries[0], identifier: 'not-a-urn', data: {} }] };
    expect(validate(broken)).toBe(false);
  });

  it('advertises the SPARQL endpoint with protocol and result formats, cited answers, VoID, catalog and shapes', async () => {
    const doc = assayAiCatalog(BASE) as { specVersion: string; entries: Entry[] };
    expect(doc.specVersion).toBe('1.0');
    const byUrl = new Map(doc.entries.map((e) => [e.url, e]));
    expect([...byUrl.keys()].sort()).toEqual([BASE, `${BASE}.well-known/void`, `${BASE}ask`, `${BASE}catalog`, `${BASE}mcp`, `${BASE}shapes`, `${BASE}sparql`].sort());
    const sparql = byUrl.get(`${BASE}sparql`)!;
    expect(sparql.identifier).toBe('urn:air:assay.test:assay:sparql');
    expect(sparql.metadata?.protocol).toBe('SPARQL 1.1 Protocol');
    expect(String(sparql.metadata?.resultFormats)).toContain('application/sparql-results+json');
    expect(new Set(doc.entries.map((e) => e.identifier)).size).toBe(doc.entries.length);
  });

  it('points only at URLs this gateway answers', async () => {
    const { app } = await appWith([{ kind: 'load', format: 'text/turtle', graph: CATALOG_GRAPH, data: CATALOG_TTL }]);
    apps.push(app);
    const doc = assayAiCatalog(BASE) as { entries: Entry[] };
    for (const e of doc.entries) {
      // The question API takes POSTs only; answering one needs the whole catalog, which the ask tests do.
      // So does MCP's Streamable HTTP (test/mcp drives it with the SDK's client).
      if (e.url.endsWith('/ask') || e.url.endsWith('/mcp')) {
        expect(app.hasRoute({ method: 'POST', url: new URL(e.url).pathname }), e.url).toBe(true);
        continue;
      }
      // The web page is served to clients that ask for HTML (content negotiation at /).
      const res = await app.inject({ url: new URL(e.url).pathname, headers: { accept: e.type === 'text/html' ? 'text/html' : '*/*' } });
      expect(res.statusCode, e.url).toBe(200);
      // Documents are served in their advertised type; the endpoint's type is what it accepts.
      if (e.type !== 'application/sparql-query') expect(res.headers['content-type'], e.url).toContain(e.type);
    }
    const ask = await app.inject({ url: `/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`, headers: { accept: 'application/sparql-results+json' } });
    expect(ask.statusCode).toBe(200);
    expect(ask.json()).toEqual({ head: {}, boolean: true });
  });

  it.each([
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['http://[::1]:8080/', '--1'],
    ['https://data.example.org/assay/', 'data.example.org'],
  ])('anchors identifiers on the base host: %s → %s', (base, expected) => {
    expect(urnPublisher(base)).toBe(expected);
  });
});
