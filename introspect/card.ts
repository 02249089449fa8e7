/**
 * Schema card: a mined result as plain text for a model's prompt, within a character budget.
 *
 * Contract
 * - Never longer than `budget` characters (JS string length); deterministic for a given result.
 * - Most informative first: the header, then classes by instance count (each with its most-used
 *   predicates, coverage, a range hint and samples), join hints, predicate profiles, then
 *   characteristic sets. Lines are taken greedily in that order; a line that does not fit is
 *   shortened where it can be (fewer predicates) or skipped, and the last line says what was
 *   elided so the reader knows the card is partial.
 * - IRIs are compacted with the namespace table's prefixes; only prefixes the kept lines use
 *   are declared, and their declaration counts against the budget.
 * - A budget too small for the header and the elision note is an error that gives the minimum.
 * - `seedCard` scopes the same card to chosen classes or predicates (filtering the mined
 *   result; it does not rescan the graph).
 */
import { IntrospectError } from './errors.ts';
import type { ClassProfile, Introspection, PredicateProfile } from './model.ts';
import { namespaceOf } from './terms.ts';
import { RDF, WELL_KNOWN } from './vocab.ts';

interface Line {
  section: Section;
  /** Alternatives, longest first: the first that fits is used. */
  variants: string[];
}

type Section = 'classes' | 'joins' | 'predicates' | 'sets';
const SECTION_TITLE: Record<Section, string> = {
  classes: 'Classes (instances): predicate share → range e.g. values',
  joins: 'Joins (class predicate class: triples):',
  predicates: 'Predicates (triples, subjects): domain → range',
  sets: 'Characteristic sets (subjects classes: predicates):',
};

export interface CardOptions {
  /** Classes or predicates (IRIs) to scope the card to; empty = whole graph. */
  seeds?: readonly string[];
}

export function toCard(ix: Introspection, budget: number, options: CardOptions = {}): string {
  if (!Number.isInteger(budget) || budget <= 0) {
    throw new IntrospectError('bad-option', `the card budget must be a positive number of characters, not ${budget}`);
  }
  const seeds = new Set(options.seeds ?? []);
  const compact = compactor(ix);
  const header = headerLine(ix, seeds);
  const lines = seeds.size > 0 ? seededLines(ix, seeds, compact.short) : allLines(ix, compact.short);
  const total = lines.length;
  // Reserve room for the worst-case elision note so it always fits.
  const noteFor = (skipped: number) => (skipped > 0 ? `[elided ${skipped} of ${total} lines for the ${budget}-char budget; raise it to see more]` : '');
  const reserve = total > 0 ? noteFor(total).length + 1 : 0;
  const minimum = header.length + reserve;
  if (budget < minimum) {
    throw new IntrospectError('budget-too-small', `a budget of ${budget} characters cannot hold even the card's header and elision note; use at least ${minimum}`);
  }

  const kept: { section: Section; text: string }[] = [];
  const used = new Set<string>();
  let size = header.length;
  let skipped = 0;
  const sectionsOpen = new Set<Section>();
  const prefixLine = (prefixes: Set<string>) => (prefixes.size === 0 ? '' : `\nPrefixes: ${[...prefixes].sort().map((p) => `${p}: <${compact.ns.get(p)}>`).join(' ')}`);
  for (const line of lines) {
    let placed = false;
    for (const text of line.variants) {
      const newPrefixes = new Set(used);
      for (const p of compact.prefixesIn(text)) newPrefixes.add(p);
      const titleCost = sectionsOpen.has(line.section) ? 0 : SECTION_TITLE[line.section].length + 1;
      const cost = size + titleCost + text.length + 1 + prefixLine(newPrefixes).length - prefixLine(used).length;
      if (cost + reserve <= budget) {
        for (const p of newPrefixes) used.add(p);
        size = cost;
        sectionsOpen.add(line.section);
        kept.push({ section: line.section, text });
        placed = true;
        break;
      }
    }
    if (!placed) skipped++;
  }
  const out: string[] = [header + prefixLine(used)];
  let section: Section | undefined;
  for (const k of kept) {
    if (k.section !== section) {
      out.push(SECTION_TITLE[k.section]);
      section = k.section;
    }
    out.push(k.text);
  }
  const note = noteFor(skipped);
  if (note) out.push(note);
  return out.join('\n');
}

/** The card scoped to chosen classes or predicates. */
export function seedCard(ix: Introspection, seeds: readonly string[], budget: number): string {
  return toCard(ix, budget, { seeds });
}

function headerLine(ix: Introspection, seeds: Set<string>): string {
  if (ix.triples === 0) return 'Empty graph: 0 triples, nothing to describe.';
  const base = `Graph: ${ix.triples} triples, ${ix.subjects} subjects (${ix.entities} IRIs), ${ix.classCount} classes, ${ix.predicateCount} predicates, ${ix.characteristicSets.total} characteristic sets.`;
  return seeds.size === 0 ? base : `${base}\nScope: ${[...seeds].sort().map((s) => `<${s}>`).join(' ')}`;
}

function compactor(ix: Introspection) {
  const ns = new Map<string, string>();
  const byIri = [...ix.namespaces.namespaces].sort((a, b) => b.iri.length - a.iri.length);
  for (const n of ix.namespaces.namespaces) ns.set(n.prefix, n.iri);
  const short = (iri: string): string => {
    for (const n of byIri) {
      if (iri.startsWith(n.iri) && /^[A-Za-z_][\w.-]*$/.test(iri.slice(n.iri.length))) return `${n.prefix}:${iri.slice(n.iri.length)}`;
    }
    // Datatypes and other well-known terms outside the table still read better compacted.
    const space = namespaceOf(iri);
    const known = space ? WELL_KNOWN.get(space) : undefined;
    if (space && known && (ns.get(known.prefix) ?? space) === space && /^[A-Za-z_][\w.-]*$/.test(iri.slice(space.length))) {
      ns.set(known.prefix, space);
      return `${known.prefix}:${iri.slice(space.length)}`;
    }
    return `<${iri}>`;
  };
  const prefixesIn = (text: string): string[] => {
    const found: string[] = [];
    for (const m of text.matchAll(/(?:^|[\s(,;{→])([A-Za-z][\w-]*):(?=[A-Za-z_])/g)) if (ns.has(m[1]!)) found.push(m[1]!);
    return found;
  };
  return { ns, short, prefixesIn };
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const clip = (s: string, n = 40): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function sampleText(keys: readonly string[], short: (iri: string) => string): string {
  // Typed literals show their lexical form only: the range hint already names the datatype.
  return keys.map((k) => (k.startsWith('<') ? short(k.slice(1, -1)) : clip(k.replace(/\^\^<[^>]*>$/, '')))).join(', ');
}

function rangeHint(p: PredicateProfile | undefined, short: (iri: string) => string): string {
  if (!p) return '';
  const top = [...p.rangeClasses, ...p.rangeDatatypes].sort((a, b) => b.count - a.count)[0];
  return top ? ` → ${short(top.iri)}` : '';
}

function classLine(c: ClassProfile, preds: Map<string, PredicateProfile>, short: (iri: string) => string): string[] {
  const parts = c.predicates.filter((p) => p.predicate !== RDF.type).map((p) => {
    const samples = p.samples.length > 0 ? ` e.g. ${sampleText(p.samples.slice(0, 2), short)}` : '';
    return `${short(p.predicate)} ${pct(p.coverage)}${rangeHint(preds.get(p.predicate), short)}${samples}`;
  });
  const head = `- ${short(c.iri)} (${c.instances})`;
  const variants: string[] = [];
  for (let n = parts.length; n >= 0; n--) {
    const more = parts.length - n + c.elidedPredicates;
    variants.push(`${head}${n > 0 ? ': ' : ''}${parts.slice(0, n).join('; ')}${more > 0 ? ` (+${more} more)` : ''}`);
    if (variants.length > 12 && n > 1) n = Math.max(1, Math.floor(n / 2)); // keep the variant list short on wide classes
  }
  return variants;
}

function predicateLine(p: PredicateProfile, short: (iri: string) => string): string[] {
  const dom = p.domain.slice(0, 2).map((d) => short(d.iri)).join('|') || (p.untypedSubjects > 0 ? '(untyped)' : '');
  const rng = [...p.rangeClasses.slice(0, 2), ...p.rangeDatatypes.slice(0, 2)].map((r) => short(r.iri)).join('|') || (p.untypedObjects > 0 ? '(untyped IRIs)' : '');
  const declared = p.declaredDomain.length + p.declaredRange.length > 0
    ? ` [declared ${p.declaredDomain.map(short).join('|') || '?'} → ${p.declaredRange.map(short).join('|') || '?'}]` : '';
  const base = `- ${short(p.iri)} (${p.triples}, ${p.subjects}): ${dom || '?'} → ${rng || '?'}${declared}`;
  return p.samples.length > 0 ? [`${base} e.g. ${sampleText(p.samples, short)}`, base] : [base];
}

function allLines(ix: Introspection, short: (iri: string) => string): Line[] {
  const preds = new Map(ix.predicates.map((p) => [p.iri, p]));
  const lines: Line[] = [];
  for (const c of ix.classes) lines.push({ section: 'classes', variants: classLine(c, preds, short) });
  for (const h of ix.joinHints.hints) lines.push({ section: 'joins', variants: [`- ${short(h.from)} ${short(h.predicate)} ${short(h.to)}: ${h.triples}`] });
  for (const p of ix.predicates) lines.push({ section: 'predicates', variants: predicateLine(p, short) });
  for (const cs of ix.characteristicSets.sets) {
    const types = cs.types.filter((t) => t.count === cs.subjects).map((t) => short(t.iri));
    lines.push({ section: 'sets', variants: [`- ${cs.subjects}${types.length > 0 ? ` ${types.join('|')}` : ''}: {${cs.predicates.map((p) => short(p.iri)).join(', ')}}`] });
  }
  return lines;
}

function seededLines(ix: Introspection, seeds: Set<string>, short: (iri: string) => string): Line[] {
  const preds = new Map(ix.predicates.map((p) => [p.iri, p]));
  const lines: Line[] = [];
  for (const c of ix.classes) if (seeds.has(c.iri)) lines.push({ section: 'classes', variants: classLine(c, preds, short) });
  for (const h of ix.joinHints.hints) {
    if (seeds.has(h.from) || seeds.has(h.to) || seeds.has(h.predicate)) {
      lines.push({ section: 'joins', variants: [`- ${short(h.from)} ${short(h.predicate)} ${short(h.to)}: ${h.triples}`] });
    }
  }
  for (const p of ix.predicates) {
    if (seeds.has(p.iri) || p.domain.some((d) => seeds.has(d.iri)) || p.rangeClasses.some((r) => seeds.has(r.iri))) {
      lines.push({ section: 'predicates', variants: predicateLine(p, short) });
    }
  }
  for (const cs of ix.characteristicSets.sets) {
    if (cs.types.some((t) => seeds.has(t.iri)) || cs.predicates.some((p) => seeds.has(p.iri))) {
      const types = cs.types.filter((t) => t.count === cs.subjects).map((t) => short(t.iri));
      lines.push({ section: 'sets', variants: [`- ${cs.subjects}${types.length > 0 ? ` ${types.join('|')}` : ''}: {${cs.predicates.map((p) => short(p.iri)).join(', ')}}`] });
    }
  }
  return lines;
}
