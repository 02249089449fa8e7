/**
 * The page's reading of POST /ask/stream when the wire fails: every fault ends as an error that
 * says what happened and what to do — a proxy's HTML page is named, not pasted as markup; a
 * stream cut mid-line, one that ends without a result, a dropped connection and an unreachable
 * gateway each say so. (web/src/api.ts runs in Node here: fetch and streams are the same API.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, streamAsk } from '../../web/src/api.ts';

afterEach(() => { vi.unstubAllGlobals(); });

const respond = (r: () => Response | Promise<Response>) => vi.stubGlobal('fetch', vi.fn(async () => r()));
const failure = (): Promise<Error> => streamAsk({ question: 'q' }, () => {}).then(() => { throw new Error('expected a failure'); }, (e: Error) => e);
const event = JSON.stringify({ event: { stage: 'structure', by: 'offline', message: 'point' } }) + '\n';

/** A body that sends `first`, then fails as a dropped connection does. */
function cut(first: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(c) {
      if (!sent) { sent = true; c.enqueue(new TextEncoder().encode(first)); return; }
      c.error(new TypeError('network error'));
    },
  });
}

describe('the page reading a failed answer stream', () => {
  it('a proxy\'s HTML error page is named with its title, not shown as markup', async () => {
    respond(() => new Response('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const e = await failure();
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).status).toBe(502);
    expect(e.message).toBe('a web page came back instead of Assay\'s answer ("502 Bad Gateway"): a proxy or server in front of the gateway answered; try again, and if it persists tell the operator');
  });

  it('the gateway\'s own JSON error keeps its message', async () => {
    respond(() => Response.json({ statusCode: 507, error: 'store-unwritable', message: 'the disk is full' }, { status: 507 }));
    expect((await failure()).message).toBe('the disk is full');
  });

  it('a line cut off mid-JSON says the stream was cut', async () => {
    respond(() => new Response(event + '{"event": {"stage": "struc', { status: 200, headers: { 'content-type': 'application/x-ndjson' } }));
    expect((await failure()).message).toMatch(/^the answer stream sent a line that is not JSON .*ask again$/);
  });

  it('a connection dropped mid-answer says so', async () => {
    respond(() => new Response(cut(event), { status: 200, headers: { 'content-type': 'application/x-ndjson' } }));
    expect((await failure()).message).toMatch(/^the connection to the gateway was lost before the answer arrived \(network error\); ask again$/);
  });

  it('a stream that ends without a result says what may have happened', async () => {
    respond(() => new Response(event, { status: 200 }));
    expect((await failure()).message).toMatch(/ended without a result: the connection may have been cut/);
  });

  it('an unreachable gateway says to check it is running', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    expect((await failure()).message).toBe('the gateway could not be reached (Failed to fetch); check that it is running, then ask again');
  });
});
