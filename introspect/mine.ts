/**
 * The miner: one graph in, one `Introspection` out.
 *
 * Contract
 * - Reads through a TripleSource only; never writes. Cost: one pass that interns the graph into
 *   integer columns (intern.ts; straight from the text for N-Triples dumps), then linear passes
 *   over those columns: schema triples (rdf:type, rdfs:subClassOf, rdfs:domain, rdfs:range),
 *   a counting sort by subject, the grouped tally, and (for distinct objects) a counting sort by
 *   predicate. No string is sorted or sliced per triple, and nothing is allocated per triple.
 * - Per-subject state lives only while that subject's triples are tallied. Everything else is
 *   aggregated by *type set* (the exact set of classes a node carries): a graph has few distinct
 *   type sets, so class usage, observed domain/range, join hints and characteristic-set types
 *   are counted per type set and expanded to classes once at the end.
 * - Output is deterministic for a given graph, whatever order the source scans it in.
 */
import { DEFAULT_OPTIONS, FORMAT, type BuildOptions, type CharSet, type ClassPredicate, type ClassProfile, type Counted,
  type FocusClass, type Introspection, type JoinHint, type Namespace, type ObjectKinds, type PredicateProfile } from './model.ts';
import { KIND_BNODE, KIND_IRI, KIND_LITERAL } from './intern.ts';
import { internSource, type TripleSource } from './source.ts';
import { iriOf, isIriKey, namespaceOf } from './terms.ts';
import { Hierarchy } from './types.ts';
import { IntrospectError } from './errors.ts';
import { newSample, offer, merge, type Sample } from './sample.ts';
import { RDF, RDFS, WELL_KNOWN } from './vocab.ts';

/** Join keys pack two type-set ids into one number: subjectSet * JOIN_RADIX + objectSet. */
const JOIN_RADIX = 2 ** 26;
/** Up to this many predicates a characteristic set's key is a number (a sum of powers of two). */
const NUMERIC_CS_KEY_MAX = 52;

/** Usage of one predicate by the subjects of one type set. */
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
  /** By predicate id; sparse (forEach visits only the predicates used). */
  cells: UsageCell[];
}

interface PredState {
  triples: number;
  kinds: ObjectKinds;
  objects: number;
  rangeBySet: Map<number, number>;
  /** By datatype id. */
  datatypes: Map<number, number>;
  untypedObjects: number;
  joins: Map<number, number>;
  sample: Sample;
}

interface CsState {
  /** Predicate ids in IRI order. */
  preds: number[];
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
  const k = opts.samples;
  const { n, s: S, p: P, o: O, termCount: nTerms, term, kind: termKind, sampleHash, datatype: datatypeOf, datatypes: dtNames, preds } = internSource(input);
  const nPreds = preds.length;

  // --- Schema triples, in one pass over the predicate column. --------------------------------
  const predIdOf = new Map(preds.map((key, id) => [key, id]));
  const pidOf = (iri: string): number => predIdOf.get(`<${iri}>`) ?? -1;
  const typeP = pidOf(RDF.type);
  const subClassP = pidOf(RDFS.subClassOf);
  const domainP = pidOf(RDFS.domain);
  const rangeP = pidOf(RDFS.range);
  const rawTypes = new Map<number, string[]>();
  const classIri: string[] = []; // sparse, by term id
  const classSet = new Set<string>();
  const subClassEdges: [string, string][] = [];
  const declaredDomain = new Map<string, Set<string>>();
  const declaredRange = new Map<string, Set<string>>();
  const declare = (into: Map<string, Set<string>>, s: number, o: number) => {
    if (termKind[s] !== KIND_IRI || termKind[o] !== KIND_IRI) return;
    const key = iriOf(term(s));
    let set = into.get(key);
    if (!set) into.set(key, (set = new Set()));
    set.add(iriOf(term(o)));
  };
  if (typeP >= 0 || subClassP >= 0 || domainP >= 0 || rangeP >= 0) {
    for (let i = 0; i < n; i++) {
      const pid = P[i]!;
      if (pid === typeP) {
        const o = O[i]!;
        if (termKind[o] !== KIND_IRI) continue;
        const c = classIri[o] ?? (classIri[o] = iriOf(term(o)));
        classSet.add(c);
        const list = rawTypes.get(S[i]!);
        if (!list) rawTypes.set(S[i]!, [c]);
        else if (!list.includes(c)) list.push(c);
      } else if (pid === subClassP) {
        if (termKind[S[i]!] === KIND_IRI && termKind[O[i]!] === KIND_IRI) subClassEdges.push([iriOf(term(S[i]!)), iriOf(term(O[i]!))]);
      } else if (pid === domainP) declare(declaredDomain, S[i]!, O[i]!);
      else if (pid === rangeP) declare(declaredRange, S[i]!, O[i]!);
    }
  }
  const hierarchy = new Hierarchy(subClassEdges);

  // Intern type sets; id 0 is "no type".
  const setIds = new Map<string, number>([['', 0]]);
  const setRaw: string[][] = [[]];
  const nodeSet = new Int32Array(nTerms);
  for (const [node, types] of rawTypes) {
    types.sort();
    const key = types.join('\n');
    let id = setIds.get(key);
    if (id === undefined) {
      id = setRaw.length;
      setIds.set(key, id);
      setRaw.push(types);
    }
    nodeSet[node] = id;
  }
  rawTypes.clear();
  const setProfile = setRaw.map((t) => (opts.minimizeTypes ? hierarchy.minimize(t) : t));

  // --- Group by subject: a counting sort of the predicate and object columns. ---------------
  const first = new Int32Array(nTerms + 1);
  for (let i = 0; i < n; i++) first[S[i]! + 1]!++;
  for (let t = 0; t < nTerms; t++) first[t + 1]! += first[t]!;
  const gP = new Int32Array(n);
  const gO = new Int32Array(n);
  {
    const fill = first.slice(0, nTerms);
    for (let i = 0; i < n; i++) {
      const j = fill[S[i]!]!++;
      gP[j] = P[i]!;
      gO[j] = O[i]!;
    }
  }

  // Predicates in IRI order: a characteristic set lists its predicates in this order.
  const rank = new Int32Array(nPreds);
  Array.from(preds.keys()).sort((a, b) => cmp(preds[a]!, preds[b]!)).forEach((pid, r) => { rank[pid] = r; });
  const pow2 = Array.from({ length: Math.min(nPreds, NUMERIC_CS_KEY_MAX) }, (_, r) => 2 ** r);

  // Samples keep the k smallest hashes: most offers lose on the hash alone, without the key.
  // Blank nodes are never samples: their labels are the store's (oxigraph renames a loaded
  // document's blank nodes at random), so a reader could not use one, and a sample chosen by
  // their hashes would change with every load of the same data.
  const offerTerm = (sample: Sample, id: number): void => {
    if (termKind[id] === KIND_BNODE) return;
    const h = sampleHash[id]!;
    const full = sample.keys.length >= k;
    if (full && h > sample.hashes[k - 1]!) return;
    offer(sample, term(id), k, h);
  };

  // --- The tally, one subject at a time. -----------------------------------------------------
  const setStates: (TypeSetState | undefined)[] = [];
  const predStates: PredState[] = preds.map(() => ({ triples: 0, kinds: { iri: 0, bnode: 0, literal: 0 }, objects: 0,
    rangeBySet: new Map(), datatypes: new Map(), untypedObjects: 0, joins: new Map(), sample: newSample() }));
  const charSets = new Map<number | string, CsState>();
  let subjects = 0;
  let entities = 0;
  let typedSubjects = 0;
  const count = new Int32Array(nPreds);
  const kindsOfSubject = new Uint8Array(nPreds);
  const touched = new Int32Array(nPreds);

  for (let sid = 0; sid < nTerms; sid++) {
    const from = first[sid]!;
    const to = first[sid + 1]!;
    if (from === to) continue;
    subjects++;
    if (termKind[sid] === KIND_IRI) entities++;
    const set = nodeSet[sid]!;
    if (set !== 0) typedSubjects++;
    const state = setStates[set] ?? (setStates[set] = { subjects: 0, triples: 0, cells: [] });
    state.subjects++;
    state.triples += to - from;
    let nTouched = 0;
    for (let j = from; j < to; j++) {
      const pid = gP[j]!;
      const oid = gO[j]!;
      let cell = state.cells[pid];
      if (!cell) state.cells[pid] = cell = { subjects: 0, triples: 0, max: 0, kinds: 0, sample: newSample() };
      if (count[pid] === 0) {
        touched[nTouched++] = pid;
        kindsOfSubject[pid] = 0;
      }
      count[pid]!++;
      const ps = predStates[pid]!;
      ps.triples++;
      const kind = termKind[oid]!;
      if (kind === KIND_LITERAL) {
        ps.kinds.literal++;
        const dt = datatypeOf[oid]! - 1;
        ps.datatypes.set(dt, (ps.datatypes.get(dt) ?? 0) + 1);
      } else {
        if (kind === KIND_IRI) ps.kinds.iri++;
        else ps.kinds.bnode++;
        const oSet = nodeSet[oid]!;
        if (oSet === 0) ps.untypedObjects++;
        else {
          ps.rangeBySet.set(oSet, (ps.rangeBySet.get(oSet) ?? 0) + 1);
          if (set !== 0) {
            const jk = set * JOIN_RADIX + oSet;
            ps.joins.set(jk, (ps.joins.get(jk) ?? 0) + 1);
          }
        }
      }
      kindsOfSubject[pid]! |= kind;
      cell.kinds |= kind;
      if (k > 0) {
        offerTerm(cell.sample, oid);
        offerTerm(ps.sample, oid);
      }
    }

    // The subject's characteristic set: its predicates in IRI order (insertion sort; sets are small).
    for (let a = 1; a < nTouched; a++) {
      const pid = touched[a]!;
      let b = a;
      while (b > 0 && rank[touched[b - 1]!]! > rank[pid]!) { touched[b] = touched[b - 1]!; b--; }
      touched[b] = pid;
    }
    let key: number | string;
    if (nPreds <= NUMERIC_CS_KEY_MAX) {
      key = 0;
      for (let a = 0; a < nTouched; a++) key += pow2[rank[touched[a]!]!]!;
    } else {
      key = '';
      for (let a = 0; a < nTouched; a++) key += `${rank[touched[a]!]!},`;
    }
    let cs = charSets.get(key);
    if (!cs) {
      cs = { preds: Array.from(touched.subarray(0, nTouched)), triples: new Array(nTouched).fill(0), max: new Array(nTouched).fill(0),
        kinds: new Array(nTouched).fill(0), subjects: 0, total: 0, bySet: new Map() };
      charSets.set(key, cs);
    }
    cs.subjects++;
    cs.total += to - from;
    cs.bySet.set(set, (cs.bySet.get(set) ?? 0) + 1);
    for (let a = 0; a < nTouched; a++) {
      const pid = touched[a]!;
      const c = count[pid]!;
      const cell = state.cells[pid]!;
      cell.subjects++;
      cell.triples += c;
      if (c > cell.max) cell.max = c;
      cs.triples[a]! += c;
      if (c > cs.max[a]!) cs.max[a] = c;
      cs.kinds[a]! |= kindsOfSubject[pid]!;
      count[pid] = 0;
    }
  }

  // --- Distinct objects: a counting sort by predicate, then one stamp per (predicate, object). --
  let objectCount = 0;
  if (opts.distinctObjects) {
    const pFirst = new Int32Array(nPreds + 1);
    for (let i = 0; i < n; i++) pFirst[P[i]! + 1]!++;
    for (let q = 0; q < nPreds; q++) pFirst[q + 1]! += pFirst[q]!;
    const byP = new Int32Array(n);
    const fill = pFirst.slice(0, nPreds);
    for (let i = 0; i < n; i++) byP[fill[P[i]!]!++] = O[i]!;
    const stamp = new Int32Array(nTerms);
    for (let pid = 0; pid < nPreds; pid++) {
      let distinct = 0;
      const mark = pid + 1;
      for (let j = pFirst[pid]!; j < pFirst[pid + 1]!; j++) {
        const oid = byP[j]!;
        if (stamp[oid] !== mark) {
          stamp[oid] = mark;
          distinct++;
        }
      }
      predStates[pid]!.objects = distinct;
    }
    for (let t = 0; t < nTerms; t++) if (stamp[t] !== 0) objectCount++;
  }

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
      state.cells.forEach((cell, pid) => {
        const p = preds[pid]!;
        let cp = cls.preds.get(p);
        if (!cp) cls.preds.set(p, (cp = { subjects: 0, triples: 0, max: 0, sample: newSample() }));
        cp.subjects += cell.subjects;
        cp.triples += cell.triples;
        cp.max = Math.max(cp.max, cell.max);
        merge(cp.sample, cell.sample, k);
      });
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
  const predRows: PredicateProfile[] = predStates.map((ps, pid) => {
    const iri = iriOf(preds[pid]!);
    // Observed domain and distinct subjects come from the per-type-set cells: a cell's triples are
    // the predicate's triples whose subject has that type set.
    const domain = new Map<string, number>();
    let untypedSubjects = 0;
    let predSubjects = 0;
    setStates.forEach((state, set) => {
      const cell = state?.cells[pid];
      if (!cell) return;
      predSubjects += cell.subjects;
      if (set === 0) untypedSubjects += cell.triples;
      else for (const c of profileOf(set)) domain.set(c, (domain.get(c) ?? 0) + cell.triples);
    });
    const datatypes = new Map<string, number>();
    for (const [dt, n] of ps.datatypes) datatypes.set(dtNames[dt]!, n);
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
      iri, triples: ps.triples, subjects: predSubjects, kinds: ps.kinds,
      domain: top(domain, opts.maxDomainRange), untypedSubjects,
      rangeClasses: top(range, opts.maxDomainRange), rangeDatatypes: top(datatypes, opts.maxDomainRange),
      untypedObjects: ps.untypedObjects,
      declaredDomain: [...(declaredDomain.get(iri) ?? [])].sort(), declaredRange: [...(declaredRange.get(iri) ?? [])].sort(),
      samples: [...ps.sample.keys].sort(),
    };
    if (opts.distinctObjects) row.objects = ps.objects;
    return row;
  }).sort((a, b) => b.triples - a.triples || cmp(a.iri, b.iri));

  const csRows: CharSet[] = [...charSets.values()].map((cs) => {
    const types = new Map<string, number>();
    for (const [set, n] of cs.bySet) for (const c of profileOf(set)) types.set(c, (types.get(c) ?? 0) + n);
    return {
      predicates: cs.preds.map((pid, j) => ({ iri: iriOf(preds[pid]!), triples: cs.triples[j]!, singleValued: cs.max[j]! <= 1, kinds: kindsOf(cs.kinds[j]!) })),
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
  const focus = focusTable(setStates, preds, setRaw.map((t) => hierarchy.expand(t)), opts.maxClasses);

  const result: Introspection = {
    format: FORMAT,
    options: opts,
    triples: n, subjects, entities, typedSubjects,
    classCount: classSet.size,
    predicateCount: nPreds,
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
  if (opts.distinctObjects) result.objects = objectCount;
  return result;
}

function focusTable(setStates: (TypeSetState | undefined)[], preds: readonly string[], setFocus: string[][], cap: number): FocusClass[] {
  const table = new Map<string, { focusNodes: number; preds: Map<string, { subjects: number; max: number; kinds: number }> }>();
  setStates.forEach((state, set) => {
    if (!state || set === 0) return;
    for (const c of setFocus[set]!) {
      let f = table.get(c);
      if (!f) table.set(c, (f = { focusNodes: 0, preds: new Map() }));
      f.focusNodes += state.subjects;
      state.cells.forEach((cell, pid) => {
        const p = preds[pid]!;
        const fp = f.preds.get(p);
        if (!fp) f.preds.set(p, { subjects: cell.subjects, max: cell.max, kinds: cell.kinds });
        else {
          fp.subjects += cell.subjects;
          fp.max = Math.max(fp.max, cell.max);
          fp.kinds |= cell.kinds;
        }
      });
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
