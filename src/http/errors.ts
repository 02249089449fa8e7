/**
 * Typed failures of a publisher call, by kind, so that a later refusal can say which layer failed:
 *   transport  — the exchange itself failed (status, method, URL; timeouts and network errors);
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
  http_status: { kind: 'transport', explain: 'the publisher answered with an error status after all retries', fix: 'check the request parameters; retry later for 5xx' },
  timeout: { kind: 'transport', explain: 'one call took longer than the per-call timeout', fix: 'retry later or raise the per-call timeout' },
  network: { kind: 'transport', explain: 'the connection failed (DNS, reset, TLS)', fix: 'check connectivity or the publisher status page' },
  missing_credential: { kind: 'blocked', explain: 'the operation needs an API key that is not configured', fix: 'set the environment variable the catalog names for this publisher' },
  missing_user_agent: { kind: 'blocked', explain: 'the publisher requires a User-Agent with a contact address and none is configured', fix: 'set ASSAY_USER_AGENT, e.g. "Assay/0.1 you@example.org"' },
  rate_limited: { kind: 'blocked', explain: 'the publisher or the pacing rule would make the call wait past the deadline', fix: 'ask again later or with a longer deadline' },
  deadline: { kind: 'blocked', explain: 'the question deadline passed before the call could finish', fix: 'ask again with a longer deadline' },
  offline: { kind: 'blocked', explain: 'the request is not in the offline snapshot (replay mode)', fix: 'run with --live (network) or record a cassette for it' },
  refused: { kind: 'blocked', explain: 'the publisher refused the request (401/403) or sent a page instead of data because no key was sent', fix: 'configure the credential or User-Agent the publisher asks for' },
  not_found: { kind: 'not_found', explain: 'the publisher has no such record (404, unknown concept or variable, no data for that period)', fix: 'check the identifier, concept or period' },
  html_instead_of_data: { kind: 'malformed', explain: 'a web page came back where data was expected', fix: 'check the URL and whether the publisher wants a key' },
  empty_body: { kind: 'malformed', explain: 'the response body was empty', fix: 'retry later; report to the publisher if it persists' },
  invalid_json: { kind: 'malformed', explain: 'the body is not valid JSON (often truncated)', fix: 'retry; if recorded, re-record the cassette' },
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
}

export class PublisherError extends Error {
  readonly kind: PublisherErrorKind;
  readonly method?: string;
  readonly url?: string;
  readonly status?: number;
  readonly source?: string;
  readonly retryAfterMs?: number;

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
  }

  toJSON(): Record<string, unknown> {
    return { error: this.kind, code: this.code, message: this.message, method: this.method, url: this.url, status: this.status, source: this.source };
  }
}

export function isPublisherError(e: unknown): e is PublisherError {
  return e instanceof PublisherError;
}
