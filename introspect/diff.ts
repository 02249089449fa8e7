/**
 * Schema diff between two mined results: classes and predicates added, removed, or changed in
 * count, every list sorted by IRI. Added entries have base 0, removed ones have next 0.
 * Compares the tables each result kept (see the caps in BuildOptions).
 */
import type { Introspection } from './model.ts';

export interface DiffEntry {
  iri: string;
  base: number;
  next: number;
}

export interface SchemaDiff {
  triplesBase: number;
  triplesNext: number;
  addedClasses: DiffEntry[];
  removedClasses: DiffEntry[];
  changedClasses: DiffEntry[];
  addedPredicates: DiffEntry[];
  removedPredicates: DiffEntry[];
  changedPredicates: DiffEntry[];
}

export function diff(base: Introspection, next: Introspection): SchemaDiff {
  const classes = compare(new Map(base.classes.map((c) => [c.iri, c.instances])), new Map(next.classes.map((c) => [c.iri, c.instances])));
  const preds = compare(new Map(base.predicates.map((p) => [p.iri, p.triples])), new Map(next.predicates.map((p) => [p.iri, p.triples])));
  return {
    triplesBase: base.triples, triplesNext: next.triples,
    addedClasses: classes.added, removedClasses: classes.removed, changedClasses: classes.changed,
    addedPredicates: preds.added, removedPredicates: preds.removed, changedPredicates: preds.changed,
  };
}

function compare(a: Map<string, number>, b: Map<string, number>) {
  const added: DiffEntry[] = [];
  const removed: DiffEntry[] = [];
  const changed: DiffEntry[] = [];
  for (const [iri, n] of a) {
    const m = b.get(iri);
    if (m === undefined) removed.push({ iri, base: n, next: 0 });
    else if (m !== n) changed.push({ iri, base: n, next: m });
  }
  for (const [iri, m] of b) if (!a.has(iri)) added.push({ iri, base: 0, next: m });
  const byIri = (x: DiffEntry, y: DiffEntry) => (x.iri < y.iri ? -1 : x.iri > y.iri ? 1 : 0);
  return { added: added.sort(byIri), removed: removed.sort(byIri), changed: changed.sort(byIri) };
}

/** A diff as short text, one line per entry. */
export function diffText(d: SchemaDiff): string {
  const lines = [`triples: ${d.triplesBase} → ${d.triplesNext}`];
  const section = (title: string, entries: DiffEntry[], sign: string) => {
    for (const e of entries) lines.push(`${sign} ${title} <${e.iri}> ${e.base} → ${e.next}`);
  };
  section('class', d.addedClasses, '+');
  section('class', d.removedClasses, '-');
  section('class', d.changedClasses, '~');
  section('predicate', d.addedPredicates, '+');
  section('predicate', d.removedPredicates, '-');
  section('predicate', d.changedPredicates, '~');
  if (lines.length === 1) lines.push('no schema changes');
  return lines.join('\n');
}
