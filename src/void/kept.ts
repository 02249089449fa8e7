/**
 * Which store keeps its introspection columns, and what each write tells them (introspect/kept.ts).
 *
 * Contract
 * - `noteWrite(rdf, op)` is called by applyToMemory (src/rdf/durable.ts) after `op` was applied
 *   to `rdf`; it costs nothing for a store that keeps nothing, and O(1) otherwise (the op's text
 *   is queued, not parsed), or a copy of the text posted to the keeper's thread. For such a keeper
 *   a load is told before it is applied (`noteWriteEarly`), and forgotten should it fail.
 * - A store keeps from its first introspection on (`graphSource`: the graph is dumped once and
 *   kept), or from empty when its opener asked (`keepFromEmpty`, DurableOptions.keep): then even
 *   the first introspection folds the writes instead of dumping, and by default a thread of the
 *   keeper's own folds them as they are written (introspect/kept-thread.ts), so that the first
 *   introspection waits only for what it has not folded yet. Memory: ~77 bytes per kept
 *   triple, per store object (so per query worker that mined or computed VoID), at most
 *   `maxTriples` (2 M from a first introspection, 4 M kept from empty: ~150 / ~300 MB), plus the
 *   queued text (at most 32 Mi / 256 Mi characters). Nothing is persisted.
 * - `graphSource(rdf, graph)` gives exactly the triples `fromDumpable(rdf, graph)` would
 *   (tested byte for byte through the miner's output in test/void/kept.test.ts).
 * - Writes that bypass applyToMemory are not seen: every write to a store goes through it
 *   (DurableStore, its followers and the query workers' replicas).
 * The registry maps store objects to their keeper (a WeakMap: a store and its keeper go together;
 * nothing is shared between stores or threads).
 */
import { fromDumpable, type TripleSource } from '../../introspect/index.ts';
import { internSource } from '../../introspect/source.ts';
import { DEFAULT_KEPT_LIMITS, KeptStore, type Keeper, type KeptLimits } from '../../introspect/kept.ts';
import { ThreadedKeeper, type ThreadedKeeperOptions } from '../../introspect/kept-thread.ts';
import type { RdfReader } from '../rdf/backend.ts';
import type { WriteOp } from '../rdf/durable.ts';

const KEEPERS = new WeakMap<object, Keeper>();

/**
 * How a store kept from empty keeps: the limits, and whether its writes are folded in a thread of
 * their own as they come (the default: the first introspection then waits only for what that
 * thread has not folded yet) or in the reading thread at the next introspection (`thread: false`).
 */
export type KeepOptions = Partial<KeptLimits> & { thread?: boolean | ThreadedKeeperOptions };

const NT = 'application/n-triples';
const NQ = 'application/n-quads';

/** The keeper of a store, if it keeps anything. */
export function keptOf(rdf: object): Keeper | undefined {
  return KEEPERS.get(rdf);
}

/** Keep every graph of `rdf`, which must hold nothing yet, from its first write. */
export function keepFromEmpty(rdf: object, options: KeepOptions = {}): Keeper {
  const { thread = true, ...limits } = options;
  const k = thread ? new ThreadedKeeper({ ...DEFAULT_KEPT_LIMITS.all, ...limits }, thread === true ? {} : thread) : new KeptStore('all', limits);
  KEEPERS.set(rdf, k);
  return k;
}

/** Let go of what `rdf`'s keeper holds (its thread too); called when the store is closed. */
export function releaseKeeper(rdf: object): void {
  KEEPERS.get(rdf)?.close();
  KEEPERS.delete(rdf);
}

/** Tell the keeper of `rdf` (if any) about a write just applied to it. */
export function noteWrite(rdf: object, op: WriteOp): void {
  const k = KEEPERS.get(rdf);
  if (!k) return;
  try {
    tell(k, op);
  } catch {
    // The write is applied already and must not fail for this: what is kept is forgotten, and
    // the graphs are read from the store when next introspected.
    k.unknown();
  }
}

function tell(k: Keeper, op: WriteOp): void {
  switch (op.kind) {
    case 'update':
      k.unknown();
      return;
    case 'load':
      noteLoad(k, op.data, op.format, op.graph);
      return;
    case 'clearGraph':
      k.clear(op.graph);
      return;
    case 'replaceGraph':
      k.clear(op.graph);
      noteLoad(k, op.data, op.format, op.graph);
      return;
    case 'delta':
      for (const s of op.steps) {
        if (s.step === 'clear') {
          if (s.target === 'DEFAULT') k.clear('');
          else if (s.target === 'NAMED' || s.target === 'ALL') k.clearWhich(s.target);
          else k.clear(s.target);
        } else k.delta(s.step, s.nquads);
      }
  }
}

/**
 * Tell the keeper of `rdf` about a load or graph replacement BEFORE it is applied, when the keeper
 * folds in a thread of its own (so that it folds beside oxigraph's parse): true when told, and
 * the caller must then tell `noteUnknown` should the op fail. False (nothing told) otherwise: the
 * caller tells `noteWrite` after applying.
 */
export function noteWriteEarly(rdf: object, op: WriteOp): boolean {
  const k = KEEPERS.get(rdf);
  if (!(k instanceof ThreadedKeeper) || (op.kind !== 'load' && op.kind !== 'replaceGraph')) return false;
  noteWrite(rdf, op);
  return true;
}

/** A document loaded into `rdf` outside a WriteOp (a snapshot at open). */
export function noteDocument(rdf: object, data: string | Uint8Array, format: string, graph?: string): void {
  const k = KEEPERS.get(rdf);
  if (k) noteLoad(k, data, format, graph);
}

/** The store now holds something the keeper was not told (a memory image adopted). */
export function noteUnknown(rdf: object): void {
  KEEPERS.get(rdf)?.unknown();
}

function noteLoad(k: Keeper, data: string | Uint8Array, format: string, graph: string | undefined): void {
  if (format === NT) k.load(data, 'n-triples', graph ?? '');
  else if (format === NQ) k.load(data, 'n-quads');
  else if (format === 'application/trig') k.unknown();
  else k.unknown(graph ?? '');
}

/**
 * One graph of `rdf` ('' the default graph) for the miner: the kept columns when the graph is
 * kept, else its dump (which is then kept for the next time).
 */
export function graphSource(rdf: RdfReader, graph: string): TripleSource {
  let k = KEEPERS.get(rdf);
  if (!k) {
    k = new KeptStore('asked');
    KEEPERS.set(rdf, k);
  }
  const keeper = k;
  let triples: ReturnType<KeptStore['interned']> = null;
  const interned = () => {
    if (triples) return triples;
    triples = keeper.interned(graph);
    if (!triples) {
      triples = internSource(fromDumpable(rdf, graph));
      keeper.adopt(graph, triples);
    }
    return triples;
  };
  // Kept terms are decoded from their characters on each call: decode each once per scan.
  const keysOf = (t: NonNullable<typeof triples>) => {
    const keys = new Array<string | undefined>(t.termCount);
    return (id: number) => keys[id] ??= t.term(id);
  };
  const scan: TripleSource['scan'] = (visit) => {
    const t = interned();
    const key = keysOf(t);
    for (let i = 0; i < t.n; i++) visit(key(t.s[i]!), t.preds[t.p[i]!]!, key(t.o[i]!));
  };
  return {
    groupedBySubject: false,
    intern: interned,
    scan,
    scanPredicate(iri, visit) {
      const t = interned();
      const pid = t.preds.indexOf(`<${iri}>`);
      if (pid < 0) return;
      const key = keysOf(t);
      for (let i = 0; i < t.n; i++) if (t.p[i] === pid) visit(key(t.s[i]!), t.preds[pid]!, key(t.o[i]!));
    },
  };
}
