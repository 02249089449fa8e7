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
import type { CrossCheckBinder, KeyedBinder, RecordBinder } from './binding.ts';

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
  /** How a reader's sentence names the publisher ("…, according to SEC EDGAR"). */
  readerName?: string;
  /** How a status or list sentence names the records' source, where it differs from `readerName`. */
  recordsName?: string;
  /**
   * A topical search the source offers: the search operation, the keyed detail read of one hit, and
   * the words a question calls the source's records by (a grant-opportunity search is no answer to
   * "NSF awards about X"), with how a sentence names those records.
   */
  topical?: { search: string; detail?: string; records: RegExp; recordsWord: string };
  /** The evidence basis of a period the publisher labels a release: modelled survey estimates are a survey; an extract's date, calendar (the default). */
  releaseBasis?: 'survey' | 'calendar';
  /** The publisher alone, for crediting another of its programs ("the Census Bureau" → "the Census Bureau (SAIPE)"). */
  publisherName?: string;
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
  /**
   * The publisher's jam values: numbers it writes where there is no estimate (Census -666666666,
   * CDC -999). The connector turns them into a marked absence; if one ever arrives as a number, the
   * structural check still never admits it.
   */
  sentinels?: ReadonlySet<number>;
  /** Record kinds each records-by-entity operation lists (operationId → filing, return, award, project). */
  listKinds?: Readonly<Record<string, string>>;
  /** Keyed-read binders (operationId → binder): a measure, key and period → the calls that read it. */
  keyedBinders?: Readonly<Record<string, KeyedBinder>>;
  /** Record-read binders (operationId → binder) for status and list questions. */
  recordBinders?: Readonly<Record<string, RecordBinder>>;
  /** Cross-check binders (operationId → binder): admitted evidence → a second path's read. */
  crossCheckBinders?: Readonly<Record<string, CrossCheckBinder>>;
}

/**
 * Status fields a connector can declare, each read by a table in src/validate/status.ts:
 * `subsection` (501(c) paragraph, two digits), `foundation` (private-foundation / public-charity
 * code), `status` (exempt-organization status code), `category` (securities filer category).
 */
export type StatusField = 'subsection' | 'foundation' | 'status' | 'category';

/** Bad or missing arguments to an operation: the caller's mistake, said plainly. */
export class ConnectorInputError extends Error {
  /** The arguments the operation needs and was not given (as data: the refusal words them, not this message). */
  readonly missing?: readonly string[];
  readonly operation?: string;
  constructor(message: string, input?: { operation: string; missing: readonly string[] }) {
    super(message);
    this.name = 'ConnectorInputError';
    if (input) { this.missing = input.missing; this.operation = input.operation; }
  }
}

export type RequestBuilder = (decl: OperationDecl, args: Readonly<Record<string, string>>) => { request: HttpRequest; policy: RequestPolicy };
