/**
 * The connector registry: a Map from source id to connector, and `runOperation`, the one entry point
 * that checks an operation is both declared in the catalog and implemented before running it.
 */
import { cdcPlaces } from './cdc-places.ts';
import { cdcSvi } from './cdc-svi.ts';
import { censusAcs } from './census-acs.ts';
import { collegeScorecard } from './college-scorecard.ts';
import { grantsGov } from './grants-gov.ts';
import { nihReporter } from './nih-reporter.ts';
import { nsfAwardsConnector } from './nsf-awards.ts';
import { usaspending } from './usaspending.ts';
import { irs990Efile } from './irs-990-efile.ts';
import { irsEoBmf } from './irs-eo-bmf.ts';
import { propublica } from './propublica.ts';
import { secEdgar } from './sec-edgar.ts';
import { treasury } from './treasury.ts';
import type { Connector, ConnectorContext, StatusField } from './types.ts';
import type { CrossCheckBinder, KeyedBinder, RecordBinder } from './binding.ts';
import { withPopulationOperations } from './population/index.ts';
import { memoized } from './memo.ts';
import { ConnectorInputError } from './types.ts';
import type { OperationResult } from './records.ts';

export function connectorRegistry(): ReadonlyMap<string, Connector> {
  const list: Connector[] = [secEdgar, censusAcs, irsEoBmf, irs990Efile, propublica, treasury, usaspending, nsfAwardsConnector, nihReporter, cdcPlaces, cdcSvi, collegeScorecard, grantsGov];
  return new Map(list.map((c) => [c.source, withPopulationOperations(c)]));
}

/** Operations (`source/operationId`, registry order) whose entity records carry a status field. */
let names: { reader: Map<string, string>; records: Map<string, string> } | undefined;

/** How a reader's sentence names a publisher (its connector's `readerName`; the source id without one). */
export function readerNameOf(source: string): string {
  names ??= namesOf(connectorRegistry());
  return names.reader.get(source) ?? source;
}

/** How a status or list sentence names a publisher's records (`recordsName`, else `readerName`). */
export function recordsNameOf(source: string): string {
  names ??= namesOf(connectorRegistry());
  return names.records.get(source) ?? readerNameOf(source);
}

/** A program of a publisher credited by name ("the Census Bureau (SAIPE)"); without a declared publisher name, its reader name with the program. */
export function programNameOf(source: string, program: string): string {
  const publisher = connectorRegistry().get(source)?.publisherName;
  return `${publisher ?? readerNameOf(source)} (${program})`;
}

let topical: ReadonlyMap<string, NonNullable<Connector['topical']>> | undefined;

/** The topical searches the connectors offer, by source. */
export function topicalSources(): ReadonlyMap<string, NonNullable<Connector['topical']>> {
  topical ??= new Map([...connectorRegistry().values()].flatMap((c) => (c.topical ? [[c.source, c.topical] as const] : [])));
  return topical;
}

/** The evidence basis of a source's release period (`releaseBasis`; calendar without one). */
export function releaseBasisOf(source: string): 'survey' | 'calendar' {
  return connectorRegistry().get(source)?.releaseBasis ?? 'calendar';
}

function namesOf(registry: ReadonlyMap<string, Connector>): { reader: Map<string, string>; records: Map<string, string> } {
  const reader = new Map<string, string>();
  const records = new Map<string, string>();
  for (const c of registry.values()) {
    if (c.readerName) reader.set(c.source, c.readerName);
    if (c.recordsName) records.set(c.source, c.recordsName);
  }
  return { reader, records };
}

export function operationsCarrying(field: StatusField, registry: ReadonlyMap<string, Connector> = connectorRegistry()): string[] {
  const out: string[] = [];
  for (const c of registry.values()) {
    for (const [op, fields] of Object.entries(c.statusFields ?? {})) if (fields.includes(field)) out.push(`${c.source}/${op}`);
  }
  return out;
}

/** The jam values of a source's connector (never numbers), empty when it declares none. */
export function sentinelsOf(source: string, registry: ReadonlyMap<string, Connector> = connectorRegistry()): ReadonlySet<number> {
  return registry.get(source)?.sentinels ?? new Set();
}

/** The record kind an operation lists (`filing`, `return`, `award`, `project`), or undefined when it lists none. */
export function listKindOf(source: string, operationId: string, registry: ReadonlyMap<string, Connector> = connectorRegistry()): string | undefined {
  return registry.get(source)?.listKinds?.[operationId];
}

/** Every listing operation (`source/operationId` → record kind), from the connectors. */
export function listKinds(registry: ReadonlyMap<string, Connector> = connectorRegistry()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of registry.values()) for (const [op, kind] of Object.entries(c.listKinds ?? {})) out[`${c.source}/${op}`] = kind;
  return out;
}

const split = (operationKey: string): [string, string] => { const i = operationKey.indexOf('/'); return [operationKey.slice(0, i), operationKey.slice(i + 1)]; };

/** The keyed-read binder of `source/operationId`, from its connector. */
export function keyedBinderOf(operationKey: string, registry: ReadonlyMap<string, Connector> = connectorRegistry()): KeyedBinder | undefined {
  const [s, op] = split(operationKey);
  return registry.get(s)?.keyedBinders?.[op];
}

/** The record-read binder of `source/operationId`, from its connector. */
export function recordBinderOf(operationKey: string, registry: ReadonlyMap<string, Connector> = connectorRegistry()): RecordBinder | undefined {
  const [s, op] = split(operationKey);
  return registry.get(s)?.recordBinders?.[op];
}

/** The cross-check binder of `source/operationId`, from its connector. */
export function crossCheckBinderOf(operationKey: string, registry: ReadonlyMap<string, Connector> = connectorRegistry()): CrossCheckBinder | undefined {
  const [s, op] = split(operationKey);
  return registry.get(s)?.crossCheckBinders?.[op];
}

/** Every operation with a binder of a kind, as `source/operationId`, in registry order. */
export function boundOperations(kind: 'keyedBinders' | 'recordBinders' | 'crossCheckBinders', registry: ReadonlyMap<string, Connector> = connectorRegistry()): string[] {
  return [...registry.values()].flatMap((c) => Object.keys(c[kind] ?? {}).map((op) => `${c.source}/${op}`));
}

const declIds = new WeakMap<object, number>();
let nextDeclId = 1;
/** One number per declaration object (a memo entry is only reused for the same declaration). */
function declId(decl: object): number {
  let id = declIds.get(decl);
  if (id === undefined) declIds.set(decl, id = nextDeclId++);
  return id;
}

export async function runOperation(registry: ReadonlyMap<string, Connector>, source: string, operation: string, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<OperationResult> {
  const connector = registry.get(source);
  if (!connector) throw new ConnectorInputError(`no connector for source "${source}"; known: ${[...registry.keys()].join(', ')}`);
  const impl = connector.operations[operation];
  const decl = ctx.declarations.operation(source, operation);
  if (!decl) throw new ConnectorInputError(`the catalog declares no operation "${operation}" for ${source}; declared: ${ctx.declarations.all().filter((d) => d.publisherId === source).map((d) => d.id).join(', ')}`);
  if (!impl) throw new ConnectorInputError(`${source} declares "${operation}" but the connector does not implement it yet; implemented: ${Object.keys(connector.operations).join(', ')}`);
  // Remembered across questions by content (memo.ts): the requests are still sent every time.
  const result = await memoized(`${source}/${operation} ${declId(decl)} ${JSON.stringify(Object.entries(args).sort())}`, ctx, (c) => impl.run(args, c, decl));
  // a TRIMMED snapshot is never the whole answer, whatever the operation's paging says
  const trimmed = result.responses.filter((r) => r.origin?.trimmed);
  if (trimmed.length > 0 && result.complete) {
    return { ...result, complete: false, notes: [...result.notes, `incomplete by construction: replayed from TRIMMED sample(s) ${trimmed.map((r) => r.origin?.sample).join(', ')}`] };
  }
  return result;
}
