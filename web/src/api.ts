/** The gateway's HTTP API as the page uses it. Everything is same-origin. */
import type { AskResult, ProgressEvent } from './types.ts';

export interface AskBody {
  question?: string;
  resume?: { run: string; option: number };
  on_ambiguity?: 'answer' | 'all' | 'ask';
  strict?: boolean;
  conversation?: string;
}

export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly fix?: string) { super(message); }
}

export async function errorOf(res: Response): Promise<HttpError> {
  const text = await res.text().catch(() => '');
  try {
    const j = JSON.parse(text) as { message?: string; fix?: string };
    return new HttpError(res.status, j.message ?? text, j.fix);
  } catch {
    // not the gateway's JSON: a proxy or server in front of it answered (a web page, plain text)
    if (/^\s*</.test(text) || /html/i.test(res.headers.get('content-type') ?? '')) {
      const words = (/<title[^>]*>([^<]*)/i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)/i.exec(text)?.[1] ?? '').trim();
      return new HttpError(res.status, `a web page came back instead of Assay's answer${words ? ` ("${words.slice(0, 120)}")` : ''}: a proxy or server in front of the gateway answered; try again, and if it persists tell the operator`);
    }
    return new HttpError(res.status, text.trim().slice(0, 300) || res.statusText);
  }
}

/**
 * POST /ask/stream: calls `onEvent` for each NDJSON progress line as it arrives and resolves with
 * the final result. A line that is not JSON, or a stream that ends without a result, rejects.
 */
export async function streamAsk(body: AskBody, onEvent: (e: ProgressEvent) => void, signal?: AbortSignal): Promise<AskResult> {
  let res: Response;
  try {
    res = await fetch('/ask/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new Error(`the gateway could not be reached (${(e as Error).message}); check that it is running, then ask again`);
  }
  if (!res.ok || !res.body) throw await errorOf(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let result: AskResult | undefined;
  const line = (l: string) => {
    if (!l.trim()) return;
    let msg: { event?: ProgressEvent; result?: AskResult; error?: string };
    try {
      msg = JSON.parse(l) as typeof msg;
    } catch {
      throw new Error(`the answer stream sent a line that is not JSON ("${l.slice(0, 60)}…"): the connection may have been cut; ask again`);
    }
    if (msg.event) onEvent(msg.event);
    else if (msg.result) result = msg.result;
    else if (msg.error) throw new Error(msg.error);
  };
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new Error(`the connection to the gateway was lost before the answer arrived (${(e as Error).message}); ask again`);
    }
    const { value, done } = chunk;
    if (done) break;
    buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      line(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  }
  line(buffer);
  if (!result) throw new Error('the answer stream ended without a result: the connection may have been cut, or the gateway stopped; ask again');
  return result;
}

export interface SparqlJson {
  head: { vars?: string[]; link?: string[] };
  results?: { bindings: Array<Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>> };
  boolean?: boolean;
}

export type SparqlOutcome =
  | { kind: 'rows'; json: SparqlJson; truncated: boolean }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'graph'; text: string; truncated: boolean };

/** Runs a query through POST /sparql; SELECT/ASK as SPARQL JSON, CONSTRUCT/DESCRIBE as Turtle. */
export async function runSparql(query: string, signal?: AbortSignal): Promise<SparqlOutcome> {
  const res = await fetch('/sparql', {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json, text/turtle;q=0.9' },
    body: query,
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw await errorOf(res);
  const truncated = res.headers.get('assay-truncated') === 'true';
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('sparql-results+json')) {
    const json = (await res.json()) as SparqlJson;
    return typeof json.boolean === 'boolean' ? { kind: 'boolean', value: json.boolean } : { kind: 'rows', json, truncated };
  }
  return { kind: 'graph', text: await res.text(), truncated };
}

export interface FeedbackItem { iri: string; rating: 'helpful' | 'wrong'; comment: string | null; created: string }

export async function sendFeedback(run: string, rating: 'helpful' | 'wrong', comment: string): Promise<FeedbackItem> {
  const res = await fetch('/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, rating, ...(comment.trim() ? { comment } : {}) }) });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as FeedbackItem;
}

export async function listFeedback(run: string): Promise<FeedbackItem[]> {
  const res = await fetch(`/feedback?run=${encodeURIComponent(run)}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw await errorOf(res);
  return ((await res.json()) as { feedback: FeedbackItem[] }).feedback;
}

export async function nlq(question: string): Promise<Record<string, unknown>> {
  const res = await fetch('/nlq', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question }) });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as Record<string, unknown>;
}
