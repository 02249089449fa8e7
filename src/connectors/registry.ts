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
import { withPopulationOperations } from './population/index.ts';
import { ConnectorInputError } from './types.ts';
import type { OperationResult } from './records.ts';

export function connectorRegistry(): ReadonlyMap<string, Connector> {
  const list: Connector[] = [secEdgar, censusAcs, irsEoBmf, irs990Efile, propublica, treasury, usaspending, nsfAwardsConnector, nihReporter, cdcPlaces, cdcSvi, collegeScorecard, grantsGov];
  return new Map(list.map((c) => [c.source, withPopulationOperations(c)]));
}

/** Operations (`source/operationId`, registry order) whose entity records carry a status field. */
export function operationsCarrying(field: StatusField, registry: ReadonlyMap<string, Connector> = connectorRegistry()): string[] {
  const out: string[] = [];
  for (const c of registry.values()) {
    for (const [op, fields] of Object.entries(c.statusFields ?? {})) if (fields.includes(field)) out.push(`${c.source}/${op}`);
  }
  return out;
}

export async function runOperation(registry: ReadonlyMap<string, Connector>, source: string, operation: string, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<OperationResult> {
  const connector = registry.get(source);
  if (!connector) throw new ConnectorInputError(`no connector for source "${source}"; known: ${[...registry.keys()].join(', ')}`);
  const impl = connector.operations[operation];
  const decl = ctx.declarations.operation(source, operation);
  if (!decl) throw new ConnectorInputError(`the catalog declares no operation "${operation}" for ${source}; declared: ${ctx.declarations.all().filter((d) => d.publisherId === source).map((d) => d.id).join(', ')}`);
  if (!impl) throw new ConnectorInputError(`${source} declares "${operation}" but the connector does not implement it yet; implemented: ${Object.keys(connector.operations).join(', ')}`);
  const result = await impl.run(args, ctx, decl);
  // a TRIMMED snapshot is never the whole answer, whatever the operation's paging says
  const trimmed = result.responses.filter((r) => r.origin?.trimmed);
  if (trimmed.length > 0 && result.complete) {
    return { ...result, complete: false, notes: [...result.notes, `incomplete by construction: replayed from TRIMMED sample(s) ${trimmed.map((r) => r.origin?.sample).join(', ')}`] };
  }
  return result;
}
