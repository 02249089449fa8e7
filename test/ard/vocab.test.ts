// Every ASSAY term in src/rdf/vocab.ts is documented in shapes/assay-vocab.ttl, and vice versa.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Parser } from 'n3';
import { ASSAY, ASSAY_NS, RDFS } from '../../src/rdf/vocab.ts';

describe('shapes/assay-vocab.ttl', async () => {
  const quads = new Parser().parse(await readFile(new URL('../../shapes/assay-vocab.ttl', import.meta.url), 'utf8'));
  const has = (s: string, p: string) => quads.some((q) => q.subject.value === s && q.predicate.value === p);
  const documented = new Set(quads.map((q) => q.subject.value).filter((s) => s.startsWith(ASSAY_NS) && s !== ASSAY_NS));
  const inCode = new Set(Object.entries(ASSAY).filter(([k]) => k !== 'ns').map(([, v]) => v));

  it('documents every term in the code with label, comment and isDefinedBy', () => {
    for (const t of inCode) {
      expect(documented.has(t), `${t} is in vocab.ts but not in assay-vocab.ttl`).toBe(true);
      expect(has(t, RDFS.label) && has(t, RDFS.comment) && has(t, RDFS.isDefinedBy), `${t} lacks label/comment/isDefinedBy`).toBe(true);
    }
  });
  it('has no term the code does not know', () => {
    expect([...documented].filter((t) => !inCode.has(t))).toEqual([]);
  });
});
