/**
 * Keeps credentials out of logs, errors, cassette keys and cassette files. A request is redacted
 * before anything is derived from it: the secret query parameters and headers named by the
 * operation's credential rule are dropped, as are the usual suspects (api_key, token, …) so a
 * caller that forgets to declare one still does not leak it.
 */

const SECRET_PARAMS = new Set(['key', 'api_key', 'apikey', 'token', 'access_token', '$$app_token', 'app_token', 'client_secret', 'password']);
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-app-token', 'cookie', 'proxy-authorization']);

export function isSecretParam(name: string, extra: readonly string[] = []): boolean {
  const n = name.toLowerCase();
  return SECRET_PARAMS.has(n) || extra.some((e) => e.toLowerCase() === n);
}

export function isSecretHeader(name: string, extra: readonly string[] = []): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || extra.some((e) => e.toLowerCase() === n);
}

/** The URL without secret query parameters (order kept, so it still reads like the request). */
export function redactUrl(url: string, extraSecrets: readonly string[] = []): string {
  let u: URL;
  try { u = new URL(url); } catch { return url.replace(/([?&](?:key|api_key|token)=)[^&]*/gi, '$1[redacted]'); }
  for (const name of [...u.searchParams.keys()]) {
    if (isSecretParam(name, extraSecrets)) u.searchParams.delete(name);
  }
  u.username = '';
  u.password = '';
  return u.href;
}

/** Removes every occurrence of each secret value from a text (error bodies can echo a key back). */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
