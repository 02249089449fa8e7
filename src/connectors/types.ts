/**
 * The connector contract. A connector is one plain object per publisher, registered by source id in
 * registry.ts; it declares which catalog operations it implements and, for each, how to build the
 * request and how to turn the response into typed records (records.ts).
 *
 * A connector never decides what a question means and never fills in an identifier it was not
 * given: missing arguments are a ConnectorInputError, publisher failures are PublisherErrors.
 */
import type { CallContext } from '../http/context.ts';
import type { HttpClient, HttpRequest, RequestPolicy } from '../http/client.ts';
import type { Declarations, OperationDecl } from './declarations.ts';
import type { OperationResult } from './records.ts';

export interface ConnectorContext extends CallContext {
  readonly http: HttpClient;
  readonly declarations: Declarations;
}

export interface ParamSpec {
  name: string;
  description: string;
  required: boolean;
  example?: string;
}

export interface OperationImpl {
  /** Arguments accepted on top of (or instead of) the catalog's template parameters. */
  params: ParamSpec[];
  run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult>;
}

export interface Connector {
  source: string;
  /** The request an operation sends for given arguments (also used to key cassettes when building them). */
  buildRequest: RequestBuilder;
  /** Keyed by the catalog's operationId. */
  operations: Record<string, OperationImpl>;
  /**
   * Status fields each operation's entity records carry (operationId → attribute names such as
   * `subsection`, `foundation`, `status`, `category`), so a status reader finds the operations that
   * can answer it from the connectors, not from a list of publisher ids kept elsewhere.
   */
  statusFields?: Readonly<Record<string, readonly StatusField[]>>;
}

/**
 * Status fields a connector can declare, each read by a table in src/validate/status.ts:
 * `subsection` (501(c) paragraph, two digits), `foundation` (private-foundation / public-charity
 * code), `status` (exempt-organization status code), `category` (securities filer category).
 */
export type StatusField = 'subsection' | 'foundation' | 'status' | 'category';

/** Bad or missing arguments to an operation: the caller's mistake, said plainly. */
export class ConnectorInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectorInputError';
  }
}

export type RequestBuilder = (decl: OperationDecl, args: Readonly<Record<string, string>>) => { request: HttpRequest; policy: RequestPolicy };
