/**
 * Fault-injecting fetch for HTTP tests: each call is answered by the next scripted behaviour
 * (or by a function of the call), and every call is logged with its virtual start time and headers.
 */
import type { VirtualClock } from './virtual-clock.ts';

export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true };

export interface CallLog { at: number; url: string; method: string; headers: Record<string, string> }

export function fakeFetch(clock: VirtualClock, script: Behaviour[] | ((n: number, url: string) => Behaviour)) {
  const calls: CallLog[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const n = calls.length;
    calls.push({ at: clock.now(), url, method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string> | undefined) } });
    const b = typeof script === 'function' ? script(n, url) : script[Math.min(n, script.length - 1)]!;
    if ('hang' in b) {
      return new Promise<Response>((_, reject) => {
        const s = init?.signal;
        s?.addEventListener('abort', () => reject(s.reason), { once: true });
      });
    }
    return new Response(b.status === 204 || b.status === 304 ? null : (b.body ?? ''), { status: b.status, headers: { 'content-type': 'application/json', ...b.headers } });
  }) as typeof fetch;
  return { fetch: impl, calls };
}

/**
 * A fake publisher on loopback: a real HTTP server on 127.0.0.1 (an ephemeral port) that answers
 * each request with a scripted behaviour, so the whole stack — connector, HttpClient with the real
 * fetch, retries, content checks, deadlines — can be driven end to end. Point a publisher at it by
 * configuration (`publisherUrls` / ASSAY_PUBLISHER_URL_<SOURCE>, see src/config.ts). The script is a
 * function of the request (method, path with query, how many calls came before) or a fixed
 * behaviour; every call is logged. `close()` ends hanging responses and stops the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest { method: string; path: string; n: number; headers: IncomingMessage['headers']; body: string }

export interface FakePublisher {
  /** Base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  calls: FakeRequest[];
  /** Replace the script (the next request uses it). */
  script(next: Behaviour | ((req: FakeRequest) => Behaviour)): void;
  close(): Promise<void>;
}

/** The faults a publisher commits, as behaviours. */
export const FAULTS = {
  rateLimited: (retryAfterSeconds: number): Behaviour => ({ status: 429, body: '{"error":"Too Many Requests"}', headers: { 'retry-after': String(retryAfterSeconds) } }),
  serverError: { status: 500, body: '{"error":"Internal Server Error"}' } as Behaviour,
  hang: { hang: true } as Behaviour,
  htmlWith200: { status: 200, body: '<!DOCTYPE html><html><head><title>Service Unavailable - Maintenance</title></head><body>Back soon</body></html>', headers: { 'content-type': 'text/html; charset=utf-8' } } as Behaviour,
  truncatedJson: { status: 200, body: '{"cik":320193,"entityName":"Apple Inc.","facts":{"us-gaap":{"Revenues":{"units":{"USD":[{"end":"2023-09-30","val":3832' } as Behaviour,
} as const;

export async function startFakePublisher(initial: Behaviour | ((req: FakeRequest) => Behaviour)): Promise<FakePublisher> {
  let script = initial;
  const calls: FakeRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: FakeRequest = { method: req.method ?? 'GET', path: req.url ?? '/', n: calls.length, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      calls.push(call);
      const b = typeof script === 'function' ? script(call) : script;
      if ('hang' in b) { hanging.add(res); res.on('close', () => hanging.delete(res)); return; }
      res.writeHead(b.status, { 'content-type': 'application/json', ...b.headers });
      res.end(b.status === 204 || b.status === 304 ? undefined : (b.body ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    script(next) { script = next; },
    close: () => new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
