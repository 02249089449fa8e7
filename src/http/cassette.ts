/**
 * Cassettes: recorded publisher exchanges, replayed offline. A cassette is keyed by the normalised
 * request — method, URL with secrets removed and query parameters sorted, the headers an operation
 * declares as varying the response, and a digest of a canonical JSON body — so the same question
 * finds the same recording however its parameters were ordered.
 *
 * On disk (fixtures/publishers/<source>/…): `<name>.cassette.json` holds the key, the redacted
 * request, the response status/content type, where the body is (`bodyFile`, relative, so a big
 * sample is stored once) or the body inline, and its origin: recorded, or built from which sample
 * file, and whether that sample is DERIVED, TRIMMED or synthetic (see fixtures/publishers/README.md).
 * A cassette never holds a credential: keys and requests are built from redacted requests only.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { redactUrl } from './redact.ts';

export interface RequestShape {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface CassetteOrigin {
  kind: 'sample' | 'recorded' | 'synthetic';
  /** Path under ../shared/publisher-samples/ for `sample`. */
  sample?: string;
  derived?: boolean;
  trimmed?: boolean;
  synthetic?: boolean;
  /** When the underlying response was recorded (from the sample's manifest), or now for `recorded`. */
  recordedAt?: string;
  note?: string;
}

export interface CassetteFile {
  assayCassette: 1;
  source: string;
  operation?: string;
  key: string;
  request: { method: string; url: string; body?: string };
  response: { status: number; contentType: string; bodyFile?: string; body?: string; bodySha256: string };
  origin: CassetteOrigin;
}

export interface ReplayHit {
  status: number;
  contentType: string;
  text: string;
  /** Repository-relative path of the cassette file. */
  location: string;
  origin: CassetteOrigin;
  /** SHA-256 of `text`, when the store knows it already (a body file read before, unchanged since). */
  sha256?: string;
  /** The body's SHA-256 as the cassette recorded it (`response.bodySha256`): what `text` must hash to. */
  recordedSha256?: string;
}

export interface CassetteStore {
  lookup(key: string): Promise<ReplayHit | undefined>;
  record(entry: Omit<CassetteFile, 'assayCassette' | 'key'> & { key?: string }): Promise<string>;
  keys(): string[];
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The normalised request key. `varyHeaders` are the header names whose value changes the response
 * (none for the publishers here: User-Agent and Accept do not, credentials are removed).
 */
export function requestKey(req: RequestShape, options: { secrets?: readonly string[]; varyHeaders?: readonly string[] } = {}): string {
  const u = new URL(redactUrl(req.url, options.secrets));
  const params = [...u.searchParams.entries()].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  let key = `${req.method.toUpperCase()} ${u.protocol}//${u.host.toLowerCase()}${u.pathname}${query ? `?${query}` : ''}`;
  for (const h of [...(options.varyHeaders ?? [])].map((x) => x.toLowerCase()).sort()) {
    const value = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === h)?.[1];
    if (value !== undefined) key += ` ${h}:${value}`;
  }
  if (req.body !== undefined && req.body !== '') {
    let canon = req.body;
    try { canon = canonicalJson(JSON.parse(req.body)); } catch { /* not JSON: digest the bytes */ }
    key += ` body-sha256:${sha256(canon).slice(0, 32)}`;
  }
  return key;
}

/** A readable, filesystem-safe file stem for a request (the key's digest keeps it unique). */
export function cassetteStem(key: string): string {
  const path = key.split(' ')[1] ?? key;
  const slug = path.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${slug}.${sha256(key).slice(0, 10)}`;
}

async function walk(dir: string): Promise<string[]> {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: string[] = [];
  for (const ent of entries) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...await walk(p));
    else if (ent.name.endsWith('.cassette.json')) out.push(p);
  }
  return out;
}

/**
 * Cassettes under `root` (fixtures/publishers by default), indexed by key once at open; bodies are
 * read lazily. `record` writes new cassettes under `<root>/<source>/recorded/`.
 */
/** Characters of body text a cassette store keeps read (see openCassettes). */
const BODY_CACHE_CHARS = 32 * 1024 * 1024;

export async function openCassettes(root: string, options: { repoRoot?: string } = {}): Promise<CassetteStore> {
  const repoRoot = options.repoRoot ?? process.cwd();
  const index = new Map<string, { file: string; entry: CassetteFile }>();
  // Body files read before, with their digest, while the file is unchanged (same inode, size and
  // modification time, checked on every lookup): a recorded companyfacts body is ~4 MB, and decoding
  // and hashing it on every question cost ~15-25 ms. Bounded by text size, least recently used out.
  const bodies = new Map<string, { stamp: string; text: string; sha256: string }>();
  let bodyBytes = 0;
  const readBody = async (path: string): Promise<{ text: string; sha256: string }> => {
    const s = await stat(path);
    const stamp = `${s.ino} ${s.size} ${s.mtimeMs}`;
    const kept = bodies.get(path);
    if (kept?.stamp === stamp) {
      bodies.delete(path);
      bodies.set(path, kept);
      return kept;
    }
    if (kept) { bodies.delete(path); bodyBytes -= kept.text.length; }
    const text = await readFile(path, 'utf8');
    const body = { stamp, text, sha256: sha256(text) };
    if (text.length <= BODY_CACHE_CHARS / 4) {
      bodies.set(path, body);
      bodyBytes += text.length;
      for (const [k, v] of bodies) {
        if (bodyBytes <= BODY_CACHE_CHARS) break;
        bodies.delete(k);
        bodyBytes -= v.text.length;
      }
    }
    return body;
  };
  for (const file of await walk(root)) {
    const entry = JSON.parse(await readFile(file, 'utf8')) as CassetteFile;
    if (entry.assayCassette !== 1 || typeof entry.key !== 'string') throw new Error(`${file} is not an Assay cassette (assayCassette: 1 and key are required)`);
    const clash = index.get(entry.key);
    if (clash) throw new Error(`two cassettes answer the same request ${entry.key}: ${clash.file} and ${file}; delete one`);
    index.set(entry.key, { file, entry });
  }
  return {
    keys: () => [...index.keys()],
    async lookup(key) {
      const hit = index.get(key);
      if (!hit) return undefined;
      const { file, entry } = hit;
      const base = { status: entry.response.status, contentType: entry.response.contentType, location: relative(repoRoot, file), origin: entry.origin, ...(entry.response.bodySha256 ? { recordedSha256: entry.response.bodySha256 } : {}) };
      if (entry.response.bodyFile === undefined) return { ...base, text: entry.response.body ?? '' };
      const body = await readBody(join(dirname(file), entry.response.bodyFile));
      return { ...base, text: body.text, sha256: body.sha256 };
    },
    async record(e) {
      const key = e.key ?? requestKey(e.request);
      const dir = join(root, e.source, 'recorded');
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${cassetteStem(key)}.cassette.json`);
      const entry: CassetteFile = { assayCassette: 1, ...e, key };
      await writeFile(file, `${JSON.stringify(entry, null, 2)}\n`);
      index.set(key, { file, entry });
      return relative(repoRoot, file);
    },
  };
}
