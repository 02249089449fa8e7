// Every grant-graph term is documented (label and comment), and every term the code writes is one of them.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { G, GRANT_TERM_DOCS, GRANTS_NS } from '../../src/grants/vocab.ts';

describe('grants vocabulary', () => {
  it('documents every term with a label and a comment', () => {
    for (const [k, d] of Object.entries(GRANT_TERM_DOCS)) {
      expect(d.label.length, k).toBeGreaterThan(0);
      expect(d.comment.length, k).toBeGreaterThan(20);
      expect(G[k as keyof typeof G]).toBe(GRANTS_NS + k);
    }
  });
  it('no source file spells a grants: IRI by hand', () => {
    const dir = new URL('../../src/grants/', import.meta.url);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'vocab.ts')) {
      expect(readFileSync(new URL(f, dir), 'utf8').includes('w3id.org/assay/grants#'), f).toBe(false);
    }
  });
});
