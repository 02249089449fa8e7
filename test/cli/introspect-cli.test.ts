import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { assay } from './run-assay.ts';


const PEOPLE = `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:alice a ex:Person ; ex:name "Alice" ; ex:knows ex:bob .
ex:bob a ex:Person ; ex:name "Bob" .
ex:acme a ex:Company ; ex:name "Acme" ; ex:employs ex:alice .
`;

// Concurrent: each test runs its own child processes reading the one file (the last writes its own), so they overlap.
describe.concurrent('assay introspect', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-introspect-cli-'));
    file = join(dir, 'people.ttl');
    await writeFile(file, PEOPLE);
  });

  it('prints a schema card within the budget it was given', async () => {
    const r = await assay('introspect', file, '--card', '600');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(600 + 1);
    expect(r.stdout).toContain('example:Person (2)');
  });

  it('prints VoID whose triple count is the file\'s', async () => {
    const r = await assay('introspect', file, '--void', 'http://example.org/ds');
    expect(r.code, r.stderr).toBe(0);
    const quads = new Parser().parse(r.stdout);
    const triples = quads.find((q) => q.subject.value === 'http://example.org/ds' && q.predicate.value === 'http://rdfs.org/ns/void#triples');
    expect(triples?.object.value).toBe('8');
  });

  it('prints SHACL shapes that parse', async () => {
    const r = await assay('introspect', file, '--shacl', '--turtle');
    expect(r.code, r.stderr).toBe(0);
    expect(new Parser().parse(r.stdout).some((q) => q.object.value === 'http://www.w3.org/ns/shacl#NodeShape')).toBe(true);
  });

  it('says clearly when the file is not RDF', async () => {
    const bad = join(dir, 'bad.ttl');
    await writeFile(bad, 'this is not turtle <<<');
    const r = await assay('introspect', bad);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/assay/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
