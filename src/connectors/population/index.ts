/**
 * Operations added for population reads (issue 12), kept beside the connectors they extend so the
 * publisher files stay as their owners wrote them: `withPopulationOperations` returns a connector
 * with these operations merged in (and their request builders used for them).
 */
import type { Connector, OperationImpl, RequestBuilder } from '../types.ts';
import { buildPlacesWideRequest, placesWideOperation } from './cdc-places-wide.ts';
import { buildSaipeRequest, saipeStatesOperation } from './census-saipe.ts';

const EXTRA: Record<string, Record<string, { impl: OperationImpl; build: RequestBuilder }>> = {
  'cdc-places': { 'all-counties-wide': { impl: placesWideOperation, build: buildPlacesWideRequest } },
  'census-acs': { 'saipe-states': { impl: saipeStatesOperation, build: buildSaipeRequest } },
};

export function withPopulationOperations(c: Connector): Connector {
  const extra = EXTRA[c.source];
  if (!extra) return c;
  return {
    ...c,
    operations: { ...c.operations, ...Object.fromEntries(Object.entries(extra).map(([id, e]) => [id, e.impl])) },
    buildRequest: (decl, args) => (extra[decl.id] ? extra[decl.id]!.build(decl, args) : c.buildRequest(decl, args)),
  };
}
