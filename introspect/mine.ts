/**
 * The miner: one graph in, one `Introspection` out.
 *
 * Contract
 * - Reads through a TripleSource only; never writes. Cost: the schema triples (rdf:type,
 *   rdfs:subClassOf, rdfs:domain, rdfs:range) by predicate lookup, then ONE full scan grouped by
 *   subject. Sources that are not grouped are grouped first (one more scan and a sort).
 * - Per-subject state lives only while that subject's triples stream past. Everything else is
 *   aggregated by *type set* (the exact set of classes a node carries): a graph has few distinct
 *   type sets, so class usage, observed domain/range, join hints and characteristic-set types
 *   are counted per type set during the scan and expanded to classes once at the end.
 * - Output is deterministic for a given graph, whatever order the source scans it in.
 */
import { DEFAULT_OPTIONS, FORMAT, type BuildOptions, type CharSet, type ClassPredicate, type ClassProfile, type Counted,
  type FocusClass, type Introspection, type JoinHint, type Namespace, type ObjectKinds, type PredicateProfile } from './model.ts';
import { groupBySubject, type TripleSource } from './source.ts';
import { datatypeOf, iriOf, isIriKey, namespaceOf } from './terms.ts';
import { Hierarchy } from './types.ts';
import { IntrospectError } from './errors.ts';
import { hashKey, newSample, offer, merge, type Sample } from './sample.ts';
import { RDF, RDFS, WELL_KNOWN } from './vocab.ts';

const KIND_IRI = 1;
const KIND_BNODE = 2;
const KIND_LITERAL = 4;
/** Join keys pack two type-set ids into one number: subjectSet * JOIN_RADIX + objectSet. */
const JOIN_RADIX = 2 ** 26;

interface UsageCell {
  subjects: number;
  triples: number;
  max: number;
  kinds: number;
  sample: Sample;
}

interface TypeSetState {
  subjects: number;
  triples: number;
  preds: Map<string, UsageCell>;
}

interface PredState {
  key: string;
  triples: number;
  subjects: number;
  kinds: ObjectKinds;
  objects: Set<string> | undefined;
  domainBySet: Map<number, number>;
  rangeBySet: Map<number, number>;
  datatypes: Map<string, number>;
  untypedObjects: number;
  joins: Map<number, number>;
  sample: Sample;
}

interface CsState {
  preds: string[];
  triples: number[];
  max: number[];
  kinds: number[];
  subjects: number;
  total: number;
  bySet: Map<number, number>;
}

export function validateOptions(options: Partial<BuildOptions>): BuildOptions {
  const o: BuildOptions = { ...DEFAULT_OPTIONS, ...options };
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'number' && (!Number.isInteger(v) || v < 0)) {
      throw new IntrospectError('bad-option', `option ${k} must be a non-negative integer, not ${v}`);
    }
  }
  return o;
}

export function mine(input: TripleSource, options: Partial<BuildOptions> = {}): Introspection {
  const opts = validateOptions(options);
  const source = groupBySubject(input);
  const k = opts.samples;

  // --- Schema triples, by predicate lookup. -------------------------------------------------
  const rawTypes = new Map<string, string[]>();
  const classSet = new Set<string>();
  const subClassEdges: [string, string][] = [];
  const declaredDomain = new Map<string, Set<string>>();
  const declaredRange = new Map<string, Set<string>>();
  const byPredicate = (iri: string, visit: (s: string, o: string) => void): void => {
    const key = `<${iri}>`;
    if (source.scanPredicate) source.scanPredicate(iri, (s, _p, o) => visit(s, o));
    else source.scan((s, p, o) => { if (p === key) visit(s, o); });
  };
  byPredicate(RDF.type, (s, o) => {
    if (!isIriKey(o)) return;
    const c = iriOf(o);
    classSet.add(c);
    const list = rawTypes.get(s);
    if (!list) rawTypes.set(s, [c]);
    else if (!list.includes(c)) list.push(c);
  });
  byPredicate(RDFS.subClassOf, (s, o) => { if (isIriKey(s) && isIriKey(o)) subClassEdges.push([iriOf(s), iriOf(o)]); });
  const declared = (into: Map<string, Set<string>>) => (s: string, o: string) => {
    if (!isIriKey(s) || !isIriKey(o)) return;
    let set = into.get(iriOf(s));
    if (!set) into.set(iriOf(s), (set = new Set()));
    set.add(iriOf(o));
  };
  byPredicate(RDFS.domain, declared(declaredDomain));
  byPredicate(RDFS.range, declared(declaredRange));
  const hierarchy = new Hierarchy(subClassEdges);

  // Intern type sets; id 0 is "no type".
  const setIds = new Map<string, number>([['', 0]]);
  const setRaw: string[][] = [[]];
  const nodeSet = new Map<string, number>();
  for (const [node, types] of rawTypes) {
    types.sort();
    const key = types.join('\n');
    let id = setIds.get(key);
    if (id === undefined) {
      id = setRaw.length;
      setIds.set(key, id);
      setRaw.push(types);
    }
    nodeSet.set(node, id);
  }
  rawTypes.clear();
  const setProfile = setRaw.map((t) => (opts.minimizeTypes ? hierarchy.minimize(t) : t));

  // --- The full scan, one subject at a time. --------------------------------------------------
  const setStates: (TypeSetState | undefined)[] = [];
  const preds = new Map<string, PredState>();
  const charSets = new Map<string, CsState>();
  const allObjects = opts.distinctObjects ? new Set<string>() : undefined;
  let triples = 0;
  let subjects = 0;
  let entities = 0;
  let typedSubjects = 0;

  let curS: string | undefined;
  let curSet = 0;
  let curState: TypeSetState | undefined;
  let curPreds: string[] = [];
  let curCounts: number[] = [];
  let curCells: UsageCell[] = [];
  let curPs: PredState[] = [];
  let curTotal = 0;
  let lastP = '';
  let lastPs: PredState | undefined;
  const flushed = new Set<string>();

  const flush = (): void => {
    if (curS === undefined) return;
    subjects++;
    if (isIriKey(curS)) entities++;
    if (curSet !== 0) typedSubjects++;
    const state = curState!;
    state.subjects++;
    state.triples += curTotal;
    const n = curPreds.length;
    for (let i = 0; i < n; i++) {
      const c = curCounts[i]!;
      const cell = curCells[i]!;
      cell.subjects++;
      cell.triples += c;
      if (c > cell.max) cell.max = c;
      const ps = curPs[i]!;
      ps.subjects++;
      ps.domainBySet.set(curSet, (ps.domainBySet.get(curSet) ?? 0) + c);
    }
    const order = Array.from(curPreds.keys()).sort((a, b) => (curPreds[a]! < curPreds[b]! ? -1 : 1));
    const key = order.map((i) => curPreds[i]).join(' ');
    let cs = charSets.get(key);
    if (!cs) {
      cs = { preds: order.map((i) => curPreds[i]!), triples: new Array(n).fill(0), max: new Array(n).fill(0), kinds: new Array(n).fill(0), subjects: 0, total: 0, bySet: new Map() };
      charSets.set(key, cs);
    }
    cs.subjects++;
    cs.total += curTotal;
    cs.bySet.set(curSet, (cs.bySet.get(curSet) ?? 0) + 1);
    for (let j = 0; j < n; j++) {
      const i = order[j]!;
      cs.triples[j]! += curCounts[i]!;
      if (curCounts[i]! > cs.max[j]!) cs.max[j] = curCounts[i]!;
      cs.kinds[j]! |= curKinds[i]!;
    }
  };
  let curKinds: number[] = [];

  source.scan((s, p, o) => {
    triples++;
    if (s !== curS) {
      flush();
      if (flushed.has(s)) {
        throw new Error(`introspect: source claimed to be grouped by subject but ${s} came back after other subjects; declare groupedBySubject: false`);
      }
      if (curS !== undefined) flushed.add(curS);
      curS = s;
      curSet = nodeSet.get(s) ?? 0;
      curState = setStates[curSet] ?? (setStates[curSet] = { subjects: 0, triples: 0, preds: new Map() });
      curPreds = [];
      curCounts = [];
      curCells = [];
      curPs = [];
      curKinds = [];
      curTotal = 0;
    }
    curTotal++;
    let ps: PredState;
    if (p === lastP) ps = lastPs!;
    else {
      let found = preds.get(p);
      if (!found) {
        found = { key: p, triples: 0, subjects: 0, kinds: { iri: 0, bnode: 0, literal: 0 }, objects: opts.distinctObjects ? new Set() : undefined,
          domainBySet: new Map(), rangeBySet: new Map(), datatypes: new Map(), untypedObjects: 0, joins: new Map(), sample: newSample() };
        preds.set(p, found);
      }
      ps = found;
      lastP = p;
      lastPs = found;
    }
    let i = curPreds.length - 1;
    if (i < 0 || curPreds[i] !== p) {
      i = curPreds.indexOf(p);
      if (i < 0) {
        i = curPreds.length;
        curPreds.push(p);
        curCounts.push(0);
        curKinds.push(0);
        curPs.push(ps);
        let cell = curState!.preds.get(p);
        if (!cell) curState!.preds.set(p, (cell = { subjects: 0, triples: 0, max: 0, kinds: 0, sample: newSample() }));
        curCells.push(cell);
      }
    }
    curCounts[i]!++;
    ps.triples++;
    const c = o.charCodeAt(0);
    let kind: number;
    if (c === 34) {
      kind = KIND_LITERAL;
      ps.kinds.literal++;
      const dt = datatypeOf(o);
      ps.datatypes.set(dt, (ps.datatypes.get(dt) ?? 0) + 1);
    } else {
      kind = c === 60 ? KIND_IRI : KIND_BNODE;
      if (kind === KIND_IRI) ps.kinds.iri++;
      else ps.kinds.bnode++;
      const oSet = nodeSet.get(o) ?? 0;
      if (oSet === 0) ps.untypedObjects++;
      else {
        ps.rangeBySet.set(oSet, (ps.rangeBySet.get(oSet) ?? 0) + 1);
        if (curSet !== 0) {
          const jk = curSet * JOIN_RADIX + oSet;
          ps.joins.set(jk, (ps.joins.get(jk) ?? 0) + 1);
        }
      }
    }
    curKinds[i]! |= kind;
    curCells[i]!.kinds |= kind;
    if (allObjects) {
      allObjects.add(o);
      ps.objects!.add(o);
    }
    if (k > 0) {
      const h = hashKey(o);
      offer(curCells[i]!.sample, o, k, h);
      offer(ps.sample, o, k, h);
    }
  });
  flush();
  flushed.clear();

  // --- Expand type sets to classes, sort, cap. ------------------------------------------------
  const profileOf = (set: number): string[] => setProfile[set]!;
  const classes = new Map<string, { instances: number; triples: number; preds: Map<string, { subjects: number; triples: number; max: number; sample: Sample }> }>();
  setStates.forEach((state, set) => {
    if (!state || set === 0) return;
    for (const c of profileOf(set)) {
      let cls = classes.get(c);
      if (!cls) classes.set(c, (cls = { instances: 0, triples: 0, preds: new Map() }));
      cls.instances += state.subjects;
      cls.triples += state.triples;
      for (const [p, cell] of state.preds) {
        let cp = cls.preds.get(p);
        if (!cp) cls.preds.set(p, (cp = { subjects: 0, triples: 0, max: 0, sample: newSample() }));
        cp.subjects += cell.subjects;
        cp.triples += cell.triples;
        cp.max = Math.max(cp.max, cell.max);
        merge(cp.sample, cell.sample, k);
      }
    }
  });

  const classRows: ClassProfile[] = [...classes].map(([iri, c]) => {
    const rows: ClassPredicate[] = [...c.preds].map(([p, cp]) => ({
      predicate: iriOf(p), subjects: cp.subjects, triples: cp.triples,
      coverage: round4(cp.subjects / c.instances), maxPerSubject: cp.max, samples: [...cp.sample.keys].sort(),
    })).sort((a, b) => b.subjects - a.subjects || b.triples - a.triples || cmp(a.predicate, b.predicate));
    return { iri, instances: c.instances, triples: c.triples, predicates: rows.slice(0, opts.maxPredicatesPerClass), elidedPredicates: Math.max(0, rows.length - opts.maxPredicatesPerClass) };
  }).sort((a, b) => b.instances - a.instances || b.triples - a.triples || cmp(a.iri, b.iri));

  const joinCounts = new Map<string, JoinHint>();
  const predRows: PredicateProfile[] = [...preds.values()].map((ps) => {
    const iri = iriOf(ps.key);
    const domain = new Map<string, number>();
    let untypedSubjects = 0;
    for (const [set, n] of ps.domainBySet) {
      if (set === 0) untypedSubjects += n;
      else for (const c of profileOf(set)) domain.set(c, (domain.get(c) ?? 0) + n);
    }
    const range = new Map<string, number>();
    for (const [set, n] of ps.rangeBySet) for (const c of profileOf(set)) range.set(c, (range.get(c) ?? 0) + n);
    for (const [jk, n] of ps.joins) {
      const from = profileOf(Math.floor(jk / JOIN_RADIX));
      const to = profileOf(jk % JOIN_RADIX);
      for (const c of from) for (const d of to) {
        const key = `${c} ${iri} ${d}`;
        const hint = joinCounts.get(key);
        if (hint) hint.triples += n;
        else joinCounts.set(key, { from: c, predicate: iri, to: d, triples: n });
      }
    }
    const row: PredicateProfile = {
      iri, triples: ps.triples, subjects: ps.subjects, kinds: ps.kinds,
      domain: top(domain, opts.maxDomainRange), untypedSubjects,
      rangeClasses: top(range, opts.maxDomainRange), rangeDatatypes: top(ps.datatypes, opts.maxDomainRange),
      untypedObjects: ps.untypedObjects,
      declaredDomain: [...(declaredDomain.get(iri) ?? [])].sort(), declaredRange: [...(declaredRange.get(iri) ?? [])].sort(),
      samples: [...ps.sample.keys].sort(),
    };
    if (ps.objects) row.objects = ps.objects.size;
    return row;
  }).sort((a, b) => b.triples - a.triples || cmp(a.iri, b.iri));

  const csRows: CharSet[] = [...charSets.values()].map((cs) => {
    const types = new Map<string, number>();
    for (const [set, n] of cs.bySet) for (const c of profileOf(set)) types.set(c, (types.get(c) ?? 0) + n);
    return {
      predicates: cs.preds.map((p, j) => ({ iri: iriOf(p), triples: cs.triples[j]!, singleValued: cs.max[j]! <= 1, kinds: kindsOf(cs.kinds[j]!) })),
      subjects: cs.subjects, triples: cs.total, types: top(types, Number.MAX_SAFE_INTEGER),
    };
  }).sort((a, b) => b.subjects - a.subjects || b.triples - a.triples || cmp(csKey(a), csKey(b)));
  const keptCs = csRows.slice(0, opts.maxCharSets);
  const tailCs = csRows.slice(opts.maxCharSets);

  const hints = [...joinCounts.values()].sort((a, b) => b.triples - a.triples || cmp(a.from, b.from) || cmp(a.predicate, b.predicate) || cmp(a.to, b.to));
  const tailHints = hints.slice(opts.maxJoinHints);

  const keptClasses = classRows.slice(0, opts.maxClasses);
  const tailClasses = classRows.slice(opts.maxClasses);
  const keptPreds = predRows.slice(0, opts.maxPredicates);
  const tailPreds = predRows.slice(opts.maxPredicates);
  const namespaces = namespaceTable(predRows, classRows);
  const focus = focusTable(setStates, setRaw.map((t) => hierarchy.expand(t)), opts.maxClasses);

  const result: Introspection = {
    format: FORMAT,
    options: opts,
    triples, subjects, entities, typedSubjects,
    classCount: classSet.size,
    predicateCount: preds.size,
    subClassEdges: subClassEdges.length,
    classes: keptClasses,
    elidedClasses: { classes: tailClasses.length, instances: sum(tailClasses.map((c) => c.instances)) },
    predicates: keptPreds,
    elidedPredicates: { predicates: tailPreds.length, triples: sum(tailPreds.map((p) => p.triples)) },
    characteristicSets: {
      total: csRows.length,
      sets: keptCs,
      elided: { sets: tailCs.length, subjects: sum(tailCs.map((c) => c.subjects)), triples: sum(tailCs.map((c) => c.triples)) },
      ...(opts.exactCharSets ? { exact: csRows } : {}),
    },
    joinHints: { hints: hints.slice(0, opts.maxJoinHints), elided: { hints: tailHints.length, triples: sum(tailHints.map((h) => h.triples)) } },
    namespaces: { namespaces: namespaces.slice(0, opts.maxNamespaces), elided: Math.max(0, namespaces.length - opts.maxNamespaces) },
    focus,
  };
  if (allObjects) result.objects = allObjects.size;
  return result;
}

function focusTable(setStates: (TypeSetState | undefined)[], setFocus: string[][], cap: number): FocusClass[] {
  const table = new Map<string, { focusNodes: number; preds: Map<string, { subjects: number; max: number; kinds: number }> }>();
  setStates.forEach((state, set) => {
    if (!state || set === 0) return;
    for (const c of setFocus[set]!) {
      let f = table.get(c);
      if (!f) table.set(c, (f = { focusNodes: 0, preds: new Map() }));
      f.focusNodes += state.subjects;
      for (const [p, cell] of state.preds) {
        const fp = f.preds.get(p);
        if (!fp) f.preds.set(p, { subjects: cell.subjects, max: cell.max, kinds: cell.kinds });
        else {
          fp.subjects += cell.subjects;
          fp.max = Math.max(fp.max, cell.max);
          fp.kinds |= cell.kinds;
        }
      }
    }
  });
  return [...table].map(([iri, f]) => ({
    iri, focusNodes: f.focusNodes,
    predicates: [...f.preds].map(([p, v]) => ({ iri: iriOf(p), subjects: v.subjects, maxPerSubject: v.max, kinds: kindsOf(v.kinds) }))
      .sort((a, b) => b.subjects - a.subjects || cmp(a.iri, b.iri)),
  })).sort((a, b) => b.focusNodes - a.focusNodes || cmp(a.iri, b.iri)).slice(0, cap);
}

function namespaceTable(predRows: PredicateProfile[], classRows: ClassProfile[]): Namespace[] {
  const table = new Map<string, { predicates: number; classes: number; triples: number }>();
  const entry = (iri: string) => {
    const ns = namespaceOf(iri) ?? iri;
    let e = table.get(ns);
    if (!e) table.set(ns, (e = { predicates: 0, classes: 0, triples: 0 }));
    return e;
  };
  for (const p of predRows) {
    const e = entry(p.iri);
    e.predicates++;
    e.triples += p.triples;
  }
  for (const c of classRows) entry(c.iri).classes++;
  const rows = [...table].sort((a, b) => b[1].triples - a[1].triples || b[1].classes - a[1].classes || cmp(a[0], b[0]));
  const used = new Set<string>();
  for (const [ns] of rows) { const w = WELL_KNOWN.get(ns); if (w) used.add(w.prefix); }
  let n = 0;
  return rows.map(([iri, e]) => {
    const known = WELL_KNOWN.get(iri);
    let prefix = known?.prefix;
    if (!prefix) {
      const hostOnly = /^[a-z]+:\/\/(?:www\.)?([A-Za-z][A-Za-z0-9]{0,9})[^/]*\/?$/.exec(iri)?.[1];
      const guess = (hostOnly ?? /([A-Za-z][A-Za-z0-9]{0,9})[^A-Za-z0-9]*$/.exec(iri)?.[1])?.toLowerCase();
      prefix = guess && !used.has(guess) && !['http', 'https', 'www'].includes(guess) ? guess : `ns${++n}`;
      while (used.has(prefix)) prefix = `ns${++n}`;
      used.add(prefix);
    }
    return { iri, prefix, ...(known ? { vocabulary: known.name } : {}), ...e };
  });
}

function kindsOf(mask: number): ObjectKinds {
  return { iri: mask & KIND_IRI ? 1 : 0, bnode: mask & KIND_BNODE ? 1 : 0, literal: mask & KIND_LITERAL ? 1 : 0 };
}

function top(m: Map<string, number>, cap: number): Counted[] {
  return [...m].map(([iri, count]) => ({ iri, count })).sort((a, b) => b.count - a.count || cmp(a.iri, b.iri)).slice(0, cap);
}

const csKey = (c: CharSet): string => c.predicates.map((p) => p.iri).join(' ');
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
