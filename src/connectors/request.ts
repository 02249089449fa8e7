/**
 * Turning a catalog declaration plus arguments into one HTTP request and its policy, the same way
 * for every connector (and for the cassette builder, so recorded keys match what connectors ask).
 */
import type { ExpectedFormat } from '../http/content.ts';
import type { CredentialRule, HttpRequest, RequestPolicy } from '../http/client.ts';
import { fillBody, fillUrl, type OperationDecl } from './declarations.ts';
import { ConnectorInputError } from './types.ts';

/** How a publisher wants its credential sent; the catalog names only the variable. */
export type CredentialPlacement = { queryParam: string } | { header: string };

export function policyFor(decl: OperationDecl, expect: ExpectedFormat, placement?: CredentialPlacement): RequestPolicy {
  const c = decl.credentials;
  const credential: CredentialRule | undefined = c.mode === 'none' ? undefined : { mode: c.mode, env: c.env, ...placement };
  return {
    source: decl.publisherId,
    operation: decl.id,
    expect,
    pacing: { requestsPerSecond: decl.rateLimit?.requestsPerSecond, requestsPerDay: decl.rateLimit?.requestsPerDay },
    userAgentRequired: decl.userAgentRequired,
    credential,
  };
}

export function requireArgs(args: Readonly<Record<string, string>>, names: readonly string[], op: string): void {
  const missing = names.filter((n) => args[n] === undefined || args[n] === '');
  if (missing.length > 0) throw new ConnectorInputError(`${op} needs ${missing.map((m) => `--${m}`).join(', ')}`, { operation: op, missing });
}

/** GET from the URL template, or POST the filled body template. */
export function requestFor(decl: OperationDecl, urlArgs: Readonly<Record<string, string>>, bodyArgs?: Readonly<Record<string, unknown>>): HttpRequest {
  const url = fillUrl(decl.data.urlTemplate, urlArgs);
  if (decl.data.method === 'POST') {
    if (!decl.data.bodyTemplate) throw new Error(`${decl.publisherId}/${decl.id} is POST but declares no bodyTemplate`);
    return { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: fillBody(decl.data.bodyTemplate, bodyArgs ?? {}) };
  }
  return { method: 'GET', url };
}

/** Parses a decimal string strictly (no "12abc", no ""), or undefined. */
export function decimal(s: string | number | null | undefined): number | undefined {
  if (typeof s === 'number') return Number.isFinite(s) ? s : undefined;
  if (s === null || s === undefined) return undefined;
  const t = s.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}
