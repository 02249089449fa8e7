/**
 * HTTP Digest access authentication (RFC 7616, MD5 and SHA-256, qop "auth"), client side.
 *
 * Why by hand: fetch speaks Basic only, and Virtuoso's authenticated endpoints (/sparql-auth,
 * /sparql-graph-crud-auth) accept Digest only. This is the challenge parser and the response
 * computation, nothing else; the caller owns the retry (src/rdf/sparql-http.ts).
 */
import { createHash, randomBytes } from 'node:crypto';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  qop?: string;
  algorithm: 'MD5' | 'SHA-256';
}

/** The Digest challenge in a WWW-Authenticate header, or undefined when it offers none we can answer. */
export function parseDigestChallenge(header: string | null): DigestChallenge | undefined {
  if (!header) return undefined;
  const at = header.search(/\bDigest\s/i);
  if (at === -1) return undefined;
  const params = new Map<string, string>();
  const re = /([a-zA-Z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  const rest = header.slice(at + 'Digest'.length);
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    params.set(m[1]!.toLowerCase(), (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1'));
  }
  const realm = params.get('realm');
  const nonce = params.get('nonce');
  if (realm === undefined || nonce === undefined) return undefined;
  const alg = (params.get('algorithm') ?? 'MD5').toUpperCase();
  if (alg !== 'MD5' && alg !== 'SHA-256') return undefined;
  const qops = (params.get('qop') ?? '').split(',').map((s) => s.trim().toLowerCase());
  return {
    realm, nonce, algorithm: alg,
    ...(params.has('opaque') ? { opaque: params.get('opaque')! } : {}),
    ...(qops.includes('auth') ? { qop: 'auth' } : {}),
  };
}

/** The Authorization header answering `challenge` for one request. `nc` counts uses of the nonce. */
export function digestAuthorization(
  challenge: DigestChallenge,
  request: { method: string; uri: string; user: string; password: string; nc: number; cnonce?: string },
): string {
  const h = (s: string) => createHash(challenge.algorithm === 'MD5' ? 'md5' : 'sha256').update(s, 'utf8').digest('hex');
  const ha1 = h(`${request.user}:${challenge.realm}:${request.password}`);
  const ha2 = h(`${request.method}:${request.uri}`);
  const nc = request.nc.toString(16).padStart(8, '0');
  const cnonce = request.cnonce ?? randomBytes(8).toString('hex');
  const response = challenge.qop
    ? h(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${challenge.qop}:${ha2}`)
    : h(`${ha1}:${challenge.nonce}:${ha2}`);
  const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
  const parts = [
    `username=${quote(request.user)}`, `realm=${quote(challenge.realm)}`, `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(request.uri)}`, `algorithm=${challenge.algorithm}`, `response=${quote(response)}`,
  ];
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (challenge.qop) parts.push(`qop=${challenge.qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}
