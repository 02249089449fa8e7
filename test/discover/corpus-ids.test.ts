import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/ard/index.ts';
import { sharedCatalog } from '../shared.ts';
import { loadCorpus, type CorpusRecord } from '../../src/understand/corpus.ts';

let catalog: Catalog;
let corpus: CorpusRecord[];
beforeAll(async () => { [catalog, corpus] = await Promise.all([sharedCatalog('ard-okf'), loadCorpus()]); }, 120_000);

describe('question corpus labels', () => {
  it('names only sources, measures and operations that exist in the catalog', () => {
    const bad: string[] = [];
    for (const r of corpus) {
      for (const s of r.acceptable_sources) if (!catalog.publisher(s)) bad.push(`${r.id}: source ${s}`);
      for (const m of r.acceptable_measures) if (!catalog.measure(m)) bad.push(`${r.id}: measure ${m}`);
      for (const o of r.acceptable_operations) { const [p, op] = o.split('/'); if (!catalog.accessPath(p!, op!)) bad.push(`${r.id}: operation ${o}`); }
    }
    expect(bad).toEqual([]);
  });

  it('covers every verdict, ambiguity, questions outside the algebra and questions no source answers', () => {
    const tags = new Set(corpus.flatMap((r) => r.tags));
    for (const t of ['ambiguous_entity', 'ambiguous_measure', 'temporal', 'scope', 'outside_algebra', 'no_source']) expect(tags).toContain(t);
    expect(new Set(corpus.map((r) => r.expected_verdict))).toEqual(new Set(['exact', 'composed', 'infeasible']));
    expect(new Set(corpus.map((r) => r.id)).size).toBe(corpus.length);
  });
});
