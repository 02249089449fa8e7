/**
 * The one HTTP client all publisher traffic goes through.
 *
 * Input: a request, the operation's policy (source, expected format, declared rate limit, whether a
 * User-Agent or a credential is required, how the credential is sent) and a CallContext.
 * Output: a RawResponse (status, text, parsed JSON, content hash, where it came from) or a typed
 * PublisherError (errors.ts). It never returns an HTML page, an empty body or broken JSON as data.
 *
 * Modes: `replay` (offline default) answers from cassettes only — a request without one is an
 * operational block "not in the offline snapshot" (or, with `missingCassette: 'throw'`, as tests
 * use, a loud MissingCassetteError); `live` goes to the network through the injected fetch; `record`
 * is live and also writes a cassette. Pacing, retries and timeouts apply to network calls only.
 *
 * Every await observes the caller's AbortSignal and the deadline; a retry that could not finish
 * before the deadline is not started. Credentials are added to the outgoing request at the last
 * moment and removed from everything derived from it (keys, logs, errors, cassettes).
 */
import type { CallContext } from './context.ts';
import { openCassettes, requestKey, sha256, type CassetteOrigin, type CassetteStore } from './cassette.ts';
import { checkContent, type ExpectedFormat } from './content.ts';
import { PublisherError, isPublisherError } from './errors.ts';
import { Pacer, type PacingRule } from './pacer.ts';
import { redactUrl, scrubText } from './redact.ts';
import { DEFAULT_RETRY, backoffMs, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry.ts';

export type HttpMode = 'replay' | 'live' | 'record';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface CredentialRule {
  mode: 'required' | 'optional' | 'none';
  /** Environment variable (looked up in the client's `credentials`) holding the secret. */
  env?: string;
  /** Sent as this query parameter (Census `key`, data.gov `api_key`)… */
  queryParam?: string;
  /** …or as this header (Socrata `X-App-Token`). */
  header?: string;
}

export interface RequestPolicy {
  source: string;
  operation?: string;
  expect: ExpectedFormat;
  pacing?: PacingRule;
  userAgentRequired?: boolean;
  credential?: CredentialRule;
  varyHeaders?: readonly string[];
  timeoutMs?: number;
}

/** Where a record's raw response lives: enough to cite it and to find it again. */
export interface RawPointer {
  source: string;
  method: string;
  /** Redacted URL. */
  url: string;
  status: number;
  sha256: string;
  retrievedAt: string;
  /** Repository-relative cassette path when replayed or recorded. */
  cassette?: string;
  origin?: CassetteOrigin;
}

export interface RawResponse extends RawPointer {
  contentType: string;
  text: string;
  /** The parsed body when the policy expects JSON (undefined for 204). */
  json?: unknown;
  attempts: number;
  /** True when the credential rule was `optional` and no credential was configured. */
  keyless: boolean;
}

export interface HttpLogEvent {
  source: string;
  method: string;
  url: string;
  attempt: number;
  status?: number;
  outcome: 'ok' | 'retry' | 'fail' | 'replay';
  waitMs?: number;
  code?: string;
}

export interface HttpClientOptions {
  mode: HttpMode;
  /** Required for live and record; never the global fetch implicitly. */
  fetch?: typeof fetch;
  cassettes?: CassetteStore;
  missingCassette?: 'block' | 'throw';
  /** User-Agent for publishers that require one; must contain a contact e-mail address. */
  userAgent?: string;
  /** Secrets by environment-variable name, e.g. { CENSUS_API_KEY: '…' }. */
  credentials?: Readonly<Record<string, string | undefined>>;
  /** Per-call timeout, milliseconds (default 30 s). */
  timeoutMs?: number;
  /** The largest response body read, bytes (default MAX_BODY_BYTES); a larger one fails as `too_large` without being held. */
  maxBodyBytes?: number;
  retry?: Partial<RetryPolicy>;
  log?: (event: HttpLogEvent) => void;
}

/** A test asked for a request no cassette holds: a defect in the test or the fixtures, not data. */
export class MissingCassetteError extends Error {
  constructor(readonly key: string) {
    super(`no cassette for ${key}: add one under fixtures/publishers/<source>/ (see scripts in fixtures/publishers/README.md) — tests never go to the network`);
    this.name = 'MissingCassetteError';
  }
}

/**
 * 256 MiB: above the largest bodies the catalog's operations return (a big filer's SEC companyfacts
 * is tens of MB), and well below what one string can hold (V8 stops near 512 M characters) and
 * what a worker can parse beside its replica. A bigger body is read no further.
 */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

const DEADLINE = Symbol('deadline');
const TIMEOUT = Symbol('timeout');
const CONTACT = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/i;

type Attempt =
  | { ok: true; status: number; contentType: string; text: string; retryAfter: string | null }
  | { ok: false; error: PublisherError; retryable: boolean };

/**
 * Parsed JSON bodies by what decides the parse: status, content type and the SHA-256 of the text.
 * checkContent is a pure function of those, so a body seen before (a cassette replayed again, or a
 * live response byte-identical to an earlier one) is not parsed again. The values are frozen, so
 * no reader can change what another reads. Bounded by the text bytes held (oldest dropped first).
 */
class ParsedBodies {
  readonly #entries = new Map<string, { json: unknown; bytes: number }>();
  #bytes = 0;
  constructor(private readonly limitBytes: number) {}

  get(key: string): { json: unknown } | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, json: unknown, bytes: number): void {
    if (bytes > this.limitBytes || json === null || typeof json !== 'object') return;
    deepFreeze(json);
    this.#entries.set(key, { json, bytes });
    this.#bytes += bytes;
    for (const [k, v] of this.#entries) {
      if (this.#bytes <= this.limitBytes) break;
      this.#entries.delete(k);
      this.#bytes -= v.bytes;
    }
  }
}

/** Freeze a parsed JSON value and everything in it (iteratively: publisher JSON can nest deeply). */
export function deepFreeze(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const k in v) stack.push((v as Record<string, unknown>)[k]);
  }
}

/** Body text kept parsed per client (a companyfacts response is ~4 MB). */
const PARSED_BODY_BYTES = 32 * 1024 * 1024;

export class HttpClient {
  private readonly pacers = new Map<string, Pacer>();
  private readonly retry: RetryPolicy;
  private readonly parsed = new ParsedBodies(PARSED_BODY_BYTES);
  readonly mode: HttpMode;

  constructor(private readonly options: HttpClientOptions) {
    this.mode = options.mode;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** checkContent, remembered for JSON bodies by status, content type and content hash. */
  private checked(t: Parameters<typeof checkContent>[0], expect: ExpectedFormat, sha: string): unknown {
    if (expect !== 'json') return checkContent(t, expect);
    const key = `${t.status} ${t.contentType} ${sha}`;
    const hit = this.parsed.get(key);
    if (hit) return hit.json;
    const json = checkContent(t, expect);
    this.parsed.set(key, json, t.text.length);
    return json;
  }

  /** The client Assay uses by default: cassettes under `root`, replay unless asked otherwise. */
  static async withCassettes(root: string, options: Omit<HttpClientOptions, 'cassettes'>): Promise<HttpClient> {
    return new HttpClient({ ...options, cassettes: await openCassettes(root) });
  }

  pacer(source: string, rule: PacingRule = {}): Pacer {
    let p = this.pacers.get(source);
    if (!p) { p = new Pacer(source, rule); this.pacers.set(source, p); }
    return p;
  }

  /** Whether the secret for `env` is configured (connectors use this to word keyless failures). */
  hasCredential(env: string | undefined): boolean {
    return env !== undefined && !!this.options.credentials?.[env];
  }

  /**
   * In replay mode, whether the offline snapshot records this request (undefined in live and record
   * modes, where the publisher is asked): lets a search skip a request it knows cannot be replayed.
   */
  recorded(req: HttpRequest, policy: RequestPolicy): boolean | undefined {
    if (this.mode !== 'replay' || !this.options.cassettes) return undefined;
    const secretNames = [policy.credential?.queryParam, policy.credential?.header].filter((x): x is string => !!x);
    this.keys ??= new Set(this.options.cassettes.keys());
    return this.keys.has(requestKey({ ...req, url: redactUrl(req.url, secretNames) }, { secrets: secretNames, varyHeaders: policy.varyHeaders }));
  }
  private keys?: Set<string>;

  async request(req: HttpRequest, policy: RequestPolicy, ctx: CallContext): Promise<RawResponse> {
    const secretNames = [policy.credential?.queryParam, policy.credential?.header].filter((x): x is string => !!x);
    const url = redactUrl(req.url, secretNames);
    const at = { method: req.method, url, source: policy.source };
    const key = requestKey({ ...req, url }, { secrets: secretNames, varyHeaders: policy.varyHeaders });
    if (ctx.signal.aborted) throw new PublisherError('aborted', `${policy.source}: the caller cancelled before the request was sent`, at);
    if (this.mode === 'replay') return this.replay(key, req, policy, at);

    const fetchImpl = this.options.fetch;
    if (!fetchImpl) throw new Error(`HttpClient in ${this.mode} mode needs an injected fetch`);
    if (policy.userAgentRequired && !CONTACT.test(this.options.userAgent ?? '')) {
      throw new PublisherError('missing_user_agent', `${policy.source} refuses automated requests without a User-Agent that names a contact e-mail address${this.options.userAgent ? ` (configured: "${this.options.userAgent}" has none)` : ''}; Assay will not call it live`, at);
    }
    const cred = policy.credential;
    const secret = cred?.env ? this.options.credentials?.[cred.env] : undefined;
    if (cred?.mode === 'required' && !secret) {
      throw new PublisherError('missing_credential', `${policy.source} requires an API key in ${cred.env} and none is configured`, at);
    }
    const outgoing = new URL(req.url);
    const headers: Record<string, string> = { ...req.headers };
    if (policy.userAgentRequired || this.options.userAgent) headers['user-agent'] = this.options.userAgent ?? '';
    if (secret && cred?.queryParam) outgoing.searchParams.set(cred.queryParam, secret);
    if (secret && cred?.header) headers[cred.header] = secret;
    const secrets = secret ? [secret] : [];

    const response = await this.live(fetchImpl, { ...req, url: outgoing.href, headers }, policy, ctx, at, secrets);
    const bodySha = sha256(response.text);
    const json = this.checked({ ...at, status: response.status, contentType: response.contentType, text: response.text }, policy.expect, bodySha);
    const raw: RawResponse = {
      source: policy.source, method: req.method, url, status: response.status, sha256: bodySha,
      retrievedAt: new Date(ctx.clock.now()).toISOString(), contentType: response.contentType, text: response.text,
      json, attempts: response.attempts, keyless: cred?.mode === 'optional' && !secret,
    };
    if (this.mode === 'record' && this.options.cassettes) {
      raw.cassette = await this.options.cassettes.record({
        source: policy.source, operation: policy.operation, key,
        request: { method: req.method, url, ...(req.body !== undefined ? { body: req.body } : {}) },
        response: { status: raw.status, contentType: raw.contentType, body: raw.text, bodySha256: raw.sha256 },
        origin: { kind: 'recorded', recordedAt: raw.retrievedAt },
      });
    }
    return raw;
  }

  private async replay(key: string, req: HttpRequest, policy: RequestPolicy, at: { method: string; url: string; source: string }): Promise<RawResponse> {
    const hit = await this.options.cassettes?.lookup(key);
    if (!hit) {
      if (this.options.missingCassette === 'throw') throw new MissingCassetteError(key);
      throw new PublisherError('offline', `${policy.source}: not in the offline snapshot (no recorded response for this request${key.includes(" body-sha256:") ? ", body " + key.split(" body-sha256:")[1] : ""})`, at);
    }
    this.options.log?.({ ...at, attempt: 0, status: hit.status, outcome: 'replay' });
    const bodySha = hit.sha256 ?? sha256(hit.text);
    // A recorded body edited or damaged on disk (still parsable or not) is not the publisher's response it is cited as.
    if (hit.recordedSha256 && hit.recordedSha256 !== bodySha) {
      throw new PublisherError('cassette_damaged', `${policy.source}: the recorded response ${hit.location} does not match the digest its cassette recorded (the body hashes to ${bodySha.slice(0, 12)}…, the cassette says ${hit.recordedSha256.slice(0, 12)}…): it was edited or damaged since it was recorded, so it is not served as the publisher's response`, at);
    }
    const failure = statusFailure(hit.status, hit.text, at, []);
    if (failure) throw failure;
    const json = this.checked({ ...at, status: hit.status, contentType: hit.contentType, text: hit.text }, policy.expect, bodySha);
    return {
      source: policy.source, method: req.method, url: at.url, status: hit.status, sha256: bodySha,
      retrievedAt: hit.origin.recordedAt ?? 'unknown', cassette: hit.location, origin: hit.origin,
      contentType: hit.contentType, text: hit.text, json, attempts: 0,
      keyless: policy.credential?.mode === 'optional' && !this.hasCredential(policy.credential.env),
    };
  }

  private async live(fetchImpl: typeof fetch, req: HttpRequest, policy: RequestPolicy, ctx: CallContext, at: { method: string; url: string; source: string }, secrets: string[]) {
    const pacer = this.pacer(policy.source, policy.pacing);
    const deadlineCtl = new AbortController();
    const timers = new AbortController();
    if (Number.isFinite(ctx.deadline)) {
      ctx.clock.sleep(Math.max(0, ctx.deadline - ctx.clock.now()), timers.signal).then(() => deadlineCtl.abort(DEADLINE), () => {});
    }
    const callSignal = AbortSignal.any([ctx.signal, deadlineCtl.signal]);
    const stopped = (e: unknown): PublisherError => {
      if (isPublisherError(e)) return e;
      if (ctx.signal.aborted) return new PublisherError('aborted', `${policy.source}: the caller cancelled the request`, at);
      if (deadlineCtl.signal.aborted) return new PublisherError('deadline', `${policy.source}: the deadline passed before the response arrived`, at);
      throw e;
    };
    let made = 0;
    try {
      for (let attempt = 1; ; attempt++) {
        let release: () => void;
        try { release = await pacer.acquire(ctx, callSignal, at); } catch (e) { throw stopped(e); }
        made = attempt;
        let result: Attempt;
        try { result = await this.once(fetchImpl, req, policy, ctx, callSignal, at, secrets); } catch (e) { throw stopped(e); } finally { release(); }

        if (result.ok) {
          const failure = statusFailure(result.status, result.text, at, secrets);
          const retryable = isRetryableStatus(result.status);
          if (!failure) {
            this.options.log?.({ ...at, attempt, status: result.status, outcome: 'ok' });
            return { ...result, attempts: attempt };
          }
          if (!retryable) { this.options.log?.({ ...at, attempt, status: result.status, outcome: 'fail', code: failure.code }); failure.attempts = attempt; throw failure; }
          const now = ctx.clock.now();
          const retryAfterMs = parseRetryAfter(result.retryAfter, now);
          if ((result.status === 429 || result.status === 503) && retryAfterMs !== undefined) pacer.pauseUntil(now + retryAfterMs);
          if (attempt >= this.retry.maxAttempts) {
            throw result.status === 429
              ? new PublisherError('rate_limited', `${policy.source} still answered 429 Too Many Requests after ${attempt} attempts`, { ...at, status: 429, retryAfterMs, attempts: attempt })
              : new PublisherError('retries_exhausted', `${failure.message.replace(/\s*\([A-Z]+ [^)]*\)\. [^]*$/, '')}, on each of ${attempt} attempts`, { ...at, status: result.status, attempts: attempt });
          }
          const wait = backoffMs(this.retry, attempt, retryAfterMs);
          if (now + wait >= ctx.deadline) {
            throw result.status === 429
              ? new PublisherError('rate_limited', `${policy.source} is rate limiting us: the next try (in ${wait} ms${retryAfterMs !== undefined ? `, Retry-After ${Math.round(retryAfterMs / 1000)} s` : ''}) would start after the deadline`, { ...at, status: 429, retryAfterMs, attempts: attempt })
              : new PublisherError('deadline', `${policy.source} answered HTTP ${result.status} on attempt ${attempt}, and the next try (in ${wait} ms) would start after the deadline`, { ...at, status: result.status, attempts: attempt });
          }
          this.options.log?.({ ...at, attempt, status: result.status, outcome: 'retry', waitMs: wait });
          try { await ctx.clock.sleep(wait, callSignal); } catch (e) { throw stopped(e); }
          continue;
        }
        // transport failure (timeout, network): retry if time allows
        if (!result.retryable || attempt >= this.retry.maxAttempts) { result.error.attempts = attempt; throw result.error; }
        const wait = backoffMs(this.retry, attempt);
        if (ctx.clock.now() + wait >= ctx.deadline) { result.error.attempts = attempt; throw result.error; }
        this.options.log?.({ ...at, attempt, outcome: 'retry', waitMs: wait, code: result.error.code });
        try { await ctx.clock.sleep(wait, callSignal); } catch (e) { throw stopped(e); }
      }
    } catch (e) {
      // every failure says how many attempts were made before it (a deadline or cancellation included)
      if (isPublisherError(e) && e.attempts === undefined && e.kind !== 'cancelled') e.attempts = made;
      throw e;
    } finally {
      timers.abort();
    }
  }

  /** One outbound call, under its own timeout; the body is read before the permit is released. */
  private async once(fetchImpl: typeof fetch, req: HttpRequest, policy: RequestPolicy, ctx: CallContext, callSignal: AbortSignal, at: { method: string; url: string; source: string }, secrets: string[]): Promise<Attempt> {
    const timeoutMs = policy.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const timeoutCtl = new AbortController();
    const timers = new AbortController();
    ctx.clock.sleep(timeoutMs, timers.signal).then(() => timeoutCtl.abort(TIMEOUT), () => {});
    const signal = AbortSignal.any([callSignal, timeoutCtl.signal]);
    try {
      const res = await abortable(fetchImpl(req.url, { method: req.method, headers: req.headers, body: req.body, signal }), signal);
      const max = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
      const text = await abortable(readCapped(res, max), signal);
      if (text === undefined) {
        const declared = Number(res.headers.get('content-length'));
        return { ok: false, retryable: false, error: new PublisherError('too_large', `${policy.source} answered ${res.status} with a body ${declared > max ? `of ${declared} bytes` : 'that kept coming'} past the ${max}-byte limit a response may have; it was not read further`, { ...at, status: res.status }) };
      }
      return { ok: true, status: res.status, contentType: res.headers.get('content-type') ?? '', text, retryAfter: res.headers.get('retry-after') };
    } catch (e) {
      if (callSignal.aborted) throw e;
      if (timeoutCtl.signal.aborted) {
        return { ok: false, retryable: true, error: new PublisherError('timeout', `${policy.source} did not answer within ${timeoutMs} ms`, { ...at, cause: TIMEOUT.description }) };
      }
      // fetch says only "fetch failed"; what failed (refused, reset, a redirect loop, DNS) is its cause
      const cause = (e as { cause?: { message?: unknown; code?: unknown } })?.cause;
      const why = typeof cause?.message === 'string' && cause.message ? cause.message : typeof cause?.code === 'string' ? cause.code : undefined;
      const msg = scrubText(`${(e as Error)?.message ?? String(e)}${why ? `: ${why}` : ''}`, secrets);
      return { ok: false, retryable: true, error: new PublisherError('network', `${policy.source}: the connection failed (${msg})`, at) };
    } finally {
      timers.abort();
    }
  }
}

/** Maps a non-2xx status to its typed failure (undefined for 2xx). The body is quoted, scrubbed. */
function statusFailure(status: number, text: string, at: { method: string; url: string; source: string }, secrets: string[]): PublisherError | undefined {
  if (status >= 200 && status < 300) return undefined;
  const snippet = scrubText(text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200), secrets);
  const said = snippet ? `: "${snippet}"` : '';
  if (status === 404 || status === 410) return new PublisherError('not_found', `${at.source} has no such record${said}`, { ...at, status });
  if (status === 401 || status === 403) return new PublisherError('refused', `${at.source} refused the request${said}`, { ...at, status });
  if (status === 429) return new PublisherError('rate_limited', `${at.source} answered 429 Too Many Requests`, { ...at, status });
  return new PublisherError('http_status', `${at.source} answered HTTP ${status}${said}`, { ...at, status });
}

/**
 * The body as text (UTF-8, as Response.text() reads it), or undefined once it passes `max` bytes:
 * a declared length over the limit is refused before reading, and a body that keeps coming is
 * cancelled at the limit, so a huge or endless response is never held whole.
 */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) { await res.body?.cancel().catch(() => undefined); return undefined; }
  if (!res.body) return res.text();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) { await reader.cancel().catch(() => undefined); return undefined; }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Races a promise against a signal, so a body that never ends still ends the call. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then((v) => { signal.removeEventListener('abort', onAbort); resolve(v); }, (e) => { signal.removeEventListener('abort', onAbort); reject(e); });
  });
}
