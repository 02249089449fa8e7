/**
 * Runs connector operations against the committed cassettes, strictly: a request with no cassette
 * throws MissingCassetteError (the test fails loudly) instead of reaching for the network.
 */
import { HttpClient } from '../../src/http/client.ts';
import { openCassettes } from '../../src/http/cassette.ts';
import { callContext } from '../../src/http/context.ts';
import { readDeclarations, type Declarations } from '../../src/connectors/declarations.ts';
import { connectorRegistry, runOperation } from '../../src/connectors/registry.ts';
import type { ConnectorContext } from '../../src/connectors/types.ts';
import type { Observation, OperationResult, EntityRecord } from '../../src/connectors/records.ts';
import { PublisherError } from '../../src/http/errors.ts';

let shared: Promise<{ http: HttpClient; declarations: Declarations }> | undefined;

export async function offline(): Promise<ConnectorContext> {
  shared ??= (async () => ({
    http: new HttpClient({ mode: 'replay', cassettes: await openCassettes('fixtures/publishers'), missingCassette: 'throw' }),
    declarations: await readDeclarations('ard-okf'),
  }))();
  const { http, declarations } = await shared;
  return { ...callContext(), http, declarations };
}

export async function run(source: string, operation: string, args: Record<string, string> = {}): Promise<OperationResult> {
  return runOperation(connectorRegistry(), source, operation, args, await offline());
}

export async function fails(source: string, operation: string, args: Record<string, string> = {}): Promise<PublisherError> {
  try { await run(source, operation, args); } catch (e) { if (e instanceof PublisherError) return e; throw e; }
  throw new Error(`${source}/${operation} returned data; a PublisherError was expected`);
}

export const observations = (r: OperationResult) => r.records.filter((x): x is Observation => x.type === 'observation');
export const entities = (r: OperationResult) => r.records.filter((x): x is EntityRecord => x.type === 'entity');
