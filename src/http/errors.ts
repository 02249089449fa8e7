/**
 * Typed failures of a publisher call, by kind, so that a later refusal can say which layer failed:
 *   transport  — the exchange itself failed (status, method, URL; timeouts and network errors;
 *                retries exhausted, with the last status and the number of attempts);
 *   blocked    — operationally blocked: missing credential or User-Agent, rate limited past the
 *                deadline, offline / not in the snapshot, refused by the publisher (401/403);
 *   not_found  — the publisher says the thing asked for does not exist (404, unknown concept…);
 *   malformed  — a response arrived but is not data: HTML with 200, empty body, broken JSON/CSV/XML;
 *   cancelled  — the caller aborted (not a publisher failure at all).
 * Every message names method and URL with secrets already removed (see redact.ts) and says what
 * to do next. Each code is documented in ERROR_CODES (a test checks every code has an entry).
 */

export type PublisherErrorKind = 'transport' | 'blocked' | 'not_found' | 'malformed' | 'cancelled';

export const ERROR_CODES = {
  http_status: { kind: 'transport', explain: 'the publisher answered with an error status that is not worth retrying (400, 405, 422, …)', fix: 'check the request parameters' },
  retries_exhausted: { kind: 'transport', explain: 'the publisher kept answering a retryable error (500, 502, 503, 504) until every attempt was used', fix: 'retry later; the publisher may be down (its status page says)' },
  timeout: { kind: 'transport', explain: 'one call took longer than the per-call timeout', fix: 'retry later or raise the per-call timeout' },
  network: { kind: 'transport', explain: 'the connection failed (DNS, reset, TLS)', fix: 'check connectivity or the publisher status page' },
  missing_credential: { kind: 'blocked', explain: 'the operation needs an API key that is not configured', fix: 'set the environment variable the catalog names for this publisher' },
  missing_user_agent: { kind: 'blocked', explain: 'the publisher requires a User-Agent with a contact address and none is configured', fix: 'set ASSAY_USER_AGENT, e.g. "Assay/0.1 you@example.org"' },
  rate_limited: { kind: 'blocked', explain: 'the publisher or the pacing rule would make the call wait past the deadline', fix: 'ask again later or with a longer deadline' },
  deadline: { kind: 'blocked', explain: 'the question deadline passed before the call could finish', fix: 'ask again with a longer deadline' },
  cassette_damaged: { kind: 'blocked', explain: 'a recorded response body no longer matches the digest its cassette recorded (edited or damaged on disk)', fix: 'restore the fixture from the repository (git checkout -- fixtures/publishers) or re-record it (assay fetch … --record)' },
  offline: { kind: 'blocked', explain: 'the request is not in the offline snapshot (replay mode)', fix: 'run with --live (network) or record a cassette for it' },
  refused: { kind: 'blocked', explain: 'the publisher refused the request (401/403) or sent a page instead of data because no key was sent', fix: 'configure the credential or User-Agent the publisher asks for' },
  not_found: { kind: 'not_found', explain: 'the publisher has no such record (404, unknown concept or variable, no data for that period)', fix: 'check the identifier, concept or period' },
  html_instead_of_data: { kind: 'malformed', explain: 'a web page came back where data was expected', fix: 'check the URL and whether the publisher wants a key' },
  empty_body: { kind: 'malformed', explain: 'the response body was empty', fix: 'retry later; report to the publisher if it persists' },
  invalid_json: { kind: 'malformed', explain: 'the body is not valid JSON: truncated (it ends before the JSON closes) or unparsable', fix: 'retry; if recorded, re-record the cassette' },
  too_large: { kind: 'malformed', explain: 'the response body passed the size a response may have (256 MiB; HttpClient maxBodyBytes) and was not read further', fix: 'ask for less (one entity, a shorter period or a smaller page); a publisher that really serves this much needs a paged or bulk operation in its descriptor' },
  unexpected_shape: { kind: 'malformed', explain: 'the body parsed but lacks the fields the connector relies on', fix: 'the publisher may have changed its format: update the connector' },
  aborted: { kind: 'cancelled', explain: 'the caller cancelled the question', fix: 'none needed' },
} as const satisfies Record<string, { kind: PublisherErrorKind; explain: string; fix: string }>;

export type PublisherErrorCode = keyof typeof ERROR_CODES;

export interface PublisherErrorInit {
  method?: string;
  /** Redacted URL. */
  url?: string;
  status?: number;
  source?: string;
  cause?: unknown;
  /** How long the publisher asked us to wait (Retry-After), milliseconds. */
  retryAfterMs?: number;
  /** How many attempts were made before giving up (retries included). */
  attempts?: number;
  /** For malformed JSON: whether the body ends before the JSON closes (truncated) or is not JSON at all. */
  truncated?: boolean;
}

/**
 * A publisher failure as data, for the search engine and the refusal: which publisher, which
 * request, which failure (code and kind), the last status and how many attempts were made. The
 * engine ends every kind but `not_found` and `cancelled` as `operationally_blocked` (see
 * `failureBoundary`): the publisher failed, the data was not shown to be absent.
 */
export interface PublisherFailure {
  code: PublisherErrorCode;
  kind: PublisherErrorKind;
  source: string;
  method: string;
  url: string;
  status?: number;
  attempts?: number;
  retryAfterMs?: number;
  truncated?: boolean;
  message: string;
}

/** The refusal boundary a publisher failure ends in: only a publisher's own "no such record" is no data. */
export type FailureBoundary = 'operationally_blocked' | 'no_data' | 'cancelled';

export class PublisherError extends Error {
  readonly kind: PublisherErrorKind;
  readonly method?: string;
  readonly url?: string;
  readonly status?: number;
  readonly source?: string;
  readonly retryAfterMs?: number;
  /** Attempts made before giving up; the client sets it once it stops (so it is not readonly). */
  attempts?: number;
  readonly truncated?: boolean;

  constructor(readonly code: PublisherErrorCode, detail: string, init: PublisherErrorInit = {}) {
    const where = init.url ? ` (${init.method ?? 'GET'} ${init.url}${init.status !== undefined ? ` → ${init.status}` : ''})` : '';
    super(`${detail}${where}. ${ERROR_CODES[code].fix}.`, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.name = 'PublisherError';
    this.kind = ERROR_CODES[code].kind;
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.source = init.source;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
    this.truncated = init.truncated;
  }

  toJSON(): Record<string, unknown> {
    return { error: this.kind, code: this.code, message: this.message, method: this.method, url: this.url, status: this.status, source: this.source, attempts: this.attempts };
  }

  /** The failure as typed data (publisher, request, failure), for the engine's attempt record and refusal. */
  toFailure(): PublisherFailure {
    return {
      code: this.code, kind: this.kind, source: this.source ?? 'unknown', method: this.method ?? 'GET', url: this.url ?? '', message: this.message,
      ...(this.status !== undefined ? { status: this.status } : {}), ...(this.attempts !== undefined ? { attempts: this.attempts } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}), ...(this.truncated !== undefined ? { truncated: this.truncated } : {}),
    };
  }
}

/** Where a publisher failure ends: not_found is the publisher saying there is no such record; cancelled is the caller; every other failure is operational. */
export function failureBoundary(e: PublisherError | PublisherFailure): FailureBoundary {
  if (e.kind === 'not_found') return 'no_data';
  if (e.kind === 'cancelled') return 'cancelled';
  return 'operationally_blocked';
}

export function isPublisherError(e: unknown): e is PublisherError {
  return e instanceof PublisherError;
}
