/**
 * Operation results remembered across questions, keyed by content: a process that answers many
 * questions (the gateway's ask workers) does not turn the same publisher response into records
 * again. SEC companyfacts, for one, is ~4 MB of JSON and 24,579 observations for one company,
 * which cost more than everything else a keyed read does.
 *
 * What a hit means. The requests are always sent again, in order, through the client (replay:
 * the cassette is read; live: the publisher is called — "fetched at query time" stays true).
 * Only when every response is byte-for-byte the one an earlier run of the same operation with
 * the same arguments was built from (same SHA-256, status and content type) are that run's
 * records reused, with their pointers to the responses of *this* fetch (its retrieval time,
 * cassette and origin). A connector is a function of its arguments and its responses (the next
 * page it asks for comes from the last one), so that run would build the same records. When a
 * response differs, the operation runs again on the responses already fetched (none is fetched
 * twice) and what it builds replaces the entry. Failures are never remembered.
 *
 * The result is frozen (records made lazily, records.ts `lazyRecords`, are left to be made when
 * read): no reader can change what a later question reads. Bounded by the response bytes the held
 * results were made from (least recently used dropped first), per HTTP client.
 */
import type { HttpClient, HttpRequest, RawPointer, RawResponse, RequestPolicy } from '../http/client.ts';
import { requestKey } from '../http/cassette.ts';
import type { ConnectorContext } from './types.ts';
import { HAS_ACCESSORS, pointer, type OperationResult } from './records.ts';

interface Call { req: HttpRequest; policy: RequestPolicy; sha256: string; status: number; contentType: string; bytes: number }
interface Entry { calls: Call[]; result: OperationResult; weight: number }

/**
 * Response text whose results are held per client, over all entries (a result's records are
 * made from its responses, so their size follows it; a companyfacts response is ~4 MB).
 */
const MAX_RESPONSE_BYTES = 24 * 1024 * 1024;

/**
 * Freeze a result and what it holds, without reading accessor properties: a result whose records
 * are made when first read (records.ts `lazyRecords`) stays lazy, so a process that asks one
 * question does not pay for records it never reads.
 */
export function freezeResult(root: unknown): void {
  const stack: object[] = [];
  const push = (x: unknown) => { if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) stack.push(x); };
  push(root);
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Object.isFrozen(v)) continue;
    if ((v as { [HAS_ACCESSORS]?: boolean })[HAS_ACCESSORS]) {
      for (const k of Object.keys(v)) {
        const d = Object.getOwnPropertyDescriptor(v, k);
        if (d && 'value' in d) push(d.value);
      }
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) push(v[i]);
    } else {
      // plain data (records.ts marks the objects with accessors): by value, without a descriptor
      // per property — a whole-county file's records are ~300 k properties (0.7 s by descriptor)
      for (const k in v) if (Object.hasOwn(v, k)) push((v as Record<string, unknown>)[k]);
    }
    Object.freeze(v);
  }
}

class Memo {
  readonly #entries = new Map<string, Entry>();
  #weight = 0;

  get(key: string): Entry | undefined {
    const e = this.#entries.get(key);
    if (e) {
      this.#entries.delete(key);
      this.#entries.set(key, e);
    }
    return e;
  }

  set(key: string, e: Entry): void {
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#weight -= old.weight;
    }
    if (e.weight > MAX_RESPONSE_BYTES) return;
    this.#entries.set(key, e);
    this.#weight += e.weight;
    for (const [k, v] of this.#entries) {
      if (this.#weight <= MAX_RESPONSE_BYTES) break;
      this.#entries.delete(k);
      this.#weight -= v.weight;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

const memos = new WeakMap<HttpClient, Memo>();

/** Entries held for a client (tests). */
export function memoSize(http: HttpClient): number {
  return memos.get(http)?.size ?? 0;
}

const callKey = (req: HttpRequest, policy: RequestPolicy) => `${policy.source} ${requestKey(req, { varyHeaders: policy.varyHeaders })}`;
const same = (c: Call, r: RawResponse) => c.sha256 === r.sha256 && c.status === r.status && c.contentType === r.contentType;

/**
 * A client that answers the calls in `prefetched` (once each, in any order) with the responses
 * already fetched, sends the rest, and tells `seen` of every call and its response. It shares
 * everything else (pacers, cassettes, credentials) with `http`.
 */
function tapped(http: HttpClient, prefetched: Map<string, RawResponse[]>, seen: (req: HttpRequest, policy: RequestPolicy, raw: RawResponse) => void): HttpClient {
  const t = Object.create(http) as HttpClient;
  t.request = async (req, policy, ctx) => {
    const waiting = prefetched.get(callKey(req, policy));
    const raw = waiting?.shift() ?? await http.request(req, policy, ctx);
    seen(req, policy, raw);
    return raw;
  };
  return t;
}

/** The result with every pointer to an earlier response replaced by the same response fetched now. */
function rebind(result: OperationResult, fresh: RawResponse[]): OperationResult {
  const now = new Map<string, RawPointer>();
  const keyOf = (p: RawPointer) => `${p.method} ${p.url} ${p.sha256}`;
  for (const r of fresh) now.set(keyOf(r), pointer(r));
  const changed = (p: RawPointer) => {
    const q = now.get(keyOf(p));
    return q !== undefined && (q.retrievedAt !== p.retrievedAt || q.cassette !== p.cassette || JSON.stringify(q.origin) !== JSON.stringify(p.origin) || q.status !== p.status);
  };
  // Replayed cassettes give the same pointers every time: the frozen result is shared as it is.
  if (!result.responses.some(changed)) return result;
  const swap = (p: RawPointer) => now.get(keyOf(p)) ?? p;
  return {
    ...result,
    responses: result.responses.map(swap),
    records: result.records.map((r) => ({ ...r, raw: swap(r.raw) })),
  };
}

/**
 * `run(ctx)` (one connector operation) through the memo of `ctx.http`, keyed by `key` (source,
 * operation and arguments) and the responses. See the module comment for what a hit means.
 */
export async function memoized(key: string, ctx: ConnectorContext, run: (ctx: ConnectorContext) => Promise<OperationResult>): Promise<OperationResult> {
  let memo = memos.get(ctx.http);
  if (!memo) memos.set(ctx.http, memo = new Memo());
  const entry = memo.get(key);
  const prefetched = new Map<string, RawResponse[]>();
  if (entry) {
    const fresh: RawResponse[] = [];
    let all = true;
    for (const c of entry.calls) {
      const raw = await ctx.http.request(c.req, c.policy, ctx);
      fresh.push(raw);
      const k = callKey(c.req, c.policy);
      prefetched.set(k, [...(prefetched.get(k) ?? []), raw]);
      if (!same(c, raw)) { all = false; break; }
    }
    if (all) return rebind(entry.result, fresh);
  }
  const calls: Call[] = [];
  const http = tapped(ctx.http, prefetched, (req, policy, raw) => calls.push({ req, policy, sha256: raw.sha256, status: raw.status, contentType: raw.contentType, bytes: raw.text.length }));
  const result = await run({ ...ctx, http });
  freezeResult(result);
  memo.set(key, { calls, result, weight: calls.reduce((n, c) => n + c.bytes, 0) + 1 });
  return result;
}
