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
