/**
 * Assay's configuration: one schema-validated, frozen object with defaults.
 * Built from (in increasing priority) defaults, environment variables and CLI flags. This is the
 * one place that reads the environment; everything else takes this object (or a part of it).
 *
 * Environment variables, by section:
 *   server   PORT, ASSAY_HOST, ASSAY_BASE_IRI, ASSAY_DATA_DIR
 *   sparql   ASSAY_SPARQL_TIMEOUT_MS, ASSAY_SPARQL_MAX_ROWS, ASSAY_UPDATE_TOKEN, ASSAY_SPARQL_WORKERS,
 *            ASSAY_SPARQL_REMOTE_HOSTS (comma-separated), ASSAY_VOID_TIMEOUT_MS, ASSAY_SPARQL_RESULT_CACHE_BYTES
 *   catalog  ASSAY_CATALOG_DIR (default: the bundled ard-okf/), ASSAY_CASSETTE_DIR (default: the
 *            bundled fixtures/publishers/)
 *   publishers
 *            ASSAY_USER_AGENT            User-Agent with a contact e-mail (SEC requires one)
 *            ASSAY_PUBLISHER_URLS        JSON map {"<source>": "<base URL>"}: every request of that
 *                                        publisher goes to that origin instead, path and query kept
 *                                        (a local fake publisher, a mirror, a proxy)
 *            ASSAY_PUBLISHER_URL_<SOURCE> one publisher's base URL; <SOURCE> is the source id in upper
 *                                        case with - as _ (ASSAY_PUBLISHER_URL_SEC_EDGAR); wins over the map
 *            <credential names>          each publisher's API key, under the variable its descriptor
 *                                        names (CENSUS_API_KEY, DATA_GOV_API_KEY, SOCRATA_APP_TOKEN)
 *   models   ASSAY_LLM_URL, ASSAY_LLM_KEY, ASSAY_LLM_MODEL, ASSAY_LLM_MODEL_CLASSIFY / _RERANK /
 *            _SYNTHESISE, ASSAY_LLM_TIMEOUT_MS, ASSAY_LLM_REPLAY, ASSAY_LLM_RECORD, ASSAY_EMBED_MODEL,
 *            ASSAY_EMBED_URL, ASSAY_EMBED_KEY, ASSAY_EMBED_CACHE (read as given; src/llm/config.ts
 *            interprets them from `modelEnv(config)`)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const BUNDLED_CATALOG_DIR = fileURLToPath(new URL('../ard-okf', import.meta.url));
export const BUNDLED_CASSETTE_DIR = fileURLToPath(new URL('../fixtures/publishers', import.meta.url));
/** The grant filings bundled for the offline default (the grants extract of MANIFEST section 10b), ingested on first use. */
export const BUNDLED_GRANTS_DIR = fileURLToPath(new URL('../fixtures/grants', import.meta.url));

/** The model and embedding variables, kept as given (their meaning is src/llm/config.ts's). */
export const MODEL_ENV = [
  'ASSAY_LLM_URL', 'ASSAY_LLM_KEY', 'ASSAY_LLM_MODEL', 'ASSAY_LLM_MODEL_CLASSIFY', 'ASSAY_LLM_MODEL_RERANK', 'ASSAY_LLM_MODEL_SYNTHESISE',
  'ASSAY_LLM_TIMEOUT_MS', 'ASSAY_LLM_REPLAY', 'ASSAY_LLM_RECORD', 'ASSAY_EMBED_MODEL', 'ASSAY_EMBED_URL', 'ASSAY_EMBED_KEY', 'ASSAY_EMBED_CACHE',
] as const;

const baseUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'a publisher base URL is http(s)://host[:port][/path]');
// ── Store backend (issue 15: the store scales out to any SPARQL 1.1 endpoint) ──────────────────
// Unset `url`: the embedded oxigraph store in dataDir (the default). Set: every graph lives in that
// SPARQL 1.1 store, reached over the Query, Update and Graph Store protocols (src/rdf/remote.ts).
export const StoreConfigSchema = z.object({
  /** SPARQL 1.1 Query endpoint of the shared store (--store, ASSAY_STORE_URL). */
  url: z.string().url().optional(),
  /** SPARQL 1.1 Update endpoint (ASSAY_STORE_UPDATE_URL); default: the query URL. */
  updateUrl: z.string().url().optional(),
  /** Graph Store HTTP Protocol endpoint for loads (ASSAY_STORE_GSP_URL); without it loads go as INSERT DATA. */
  graphStoreUrl: z.string().url().optional(),
  /** Account for updates and loads (ASSAY_STORE_USER / ASSAY_STORE_PASSWORD, or user:password@ in a URL); Basic or Digest. */
  user: z.string().min(1).optional(),
  password: z.string().optional(),
  /** Deadline for one request Assay itself makes to the store, milliseconds (ASSAY_STORE_TIMEOUT_MS). */
  timeoutMs: z.number().int().positive(),
  /** Proxied /sparql queries in flight at once; more wait (up to sparql.maxQueue) (ASSAY_STORE_MAX_CONCURRENT). */
  maxConcurrent: z.number().int().min(1).max(256),
  /** The engine's own graphs, left out of graph lists, sizes and VoID (ASSAY_STORE_IGNORE_GRAPHS, comma-separated). */
  ignoreGraphs: z.array(z.string().min(1)),
  /** `assay load` streams files above this many bytes in pieces instead of parsing them whole first (ASSAY_STORE_STREAM_ABOVE_BYTES). */
  streamAboveBytes: z.number().int().min(0),
});

export type StoreConfig = z.infer<typeof StoreConfigSchema>;

export const STORE_DEFAULTS = {
  timeoutMs: 30_000,
  maxConcurrent: 8,
  streamAboveBytes: 32 * 1024 * 1024,
  // Virtuoso 7 keeps its schema and a few service descriptions as named graphs in every database.
  ignoreGraphs: [
    'http://www.openlinksw.com/schemas/virtrdf#', 'http://www.w3.org/ns/ldp#', 'http://localhost:8890/sparql',
    'http://localuriqaserver/sparql', 'http://www.w3.org/2002/07/owl#', 'http://localhost:8890/DAV/',
  ] as string[],
} as const;

/** The store block from flags and environment. Credentials in a URL's user-info move to user/password. */
export function storeConfig(input: Partial<StoreConfig> = {}, env: NodeJS.ProcessEnv = process.env): StoreConfig {
  let user = input.user ?? env.ASSAY_STORE_USER;
  let password = input.password ?? env.ASSAY_STORE_PASSWORD;
  const bare = (u: string | undefined): string | undefined => {
    if (!u) return undefined;
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return u; // the schema check names the bad URL
    }
    if (url.username) {
      user ??= decodeURIComponent(url.username);
      password ??= decodeURIComponent(url.password);
      url.username = '';
      url.password = '';
    }
    return url.href;
  };
  const url = bare(input.url ?? env.ASSAY_STORE_URL);
  const updateUrl = bare(input.updateUrl ?? env.ASSAY_STORE_UPDATE_URL);
  const graphStoreUrl = bare(input.graphStoreUrl ?? env.ASSAY_STORE_GSP_URL);
  const ignore = input.ignoreGraphs ?? (env.ASSAY_STORE_IGNORE_GRAPHS !== undefined
    ? env.ASSAY_STORE_IGNORE_GRAPHS.split(',').map((s) => s.trim()).filter(Boolean) : STORE_DEFAULTS.ignoreGraphs);
  return {
    ...(url ? { url } : {}), ...(updateUrl ? { updateUrl } : {}), ...(graphStoreUrl ? { graphStoreUrl } : {}),
    ...(user !== undefined && user !== '' ? { user } : {}), ...(password !== undefined ? { password } : {}),
    timeoutMs: input.timeoutMs ?? (env.ASSAY_STORE_TIMEOUT_MS ? Number(env.ASSAY_STORE_TIMEOUT_MS) : STORE_DEFAULTS.timeoutMs),
    maxConcurrent: input.maxConcurrent ?? (env.ASSAY_STORE_MAX_CONCURRENT ? Number(env.ASSAY_STORE_MAX_CONCURRENT) : STORE_DEFAULTS.maxConcurrent),
    ignoreGraphs: [...ignore],
    streamAboveBytes: input.streamAboveBytes ?? (env.ASSAY_STORE_STREAM_ABOVE_BYTES ? Number(env.ASSAY_STORE_STREAM_ABOVE_BYTES) : STORE_DEFAULTS.streamAboveBytes),
  };
}
// ── end of the store backend block ──────────────────────────────────────────────────────────────

// ---- Operator limits (issue 11: a gateway that holds under faults and abuse) ----------------
// Kept in one block so that edits elsewhere in this file merge cleanly. README "Operator limits"
// says what an operator sees when each is reached.
export const LimitsSchema = z.object({
  sparql: z.object({
    /** Wall-clock limit for computing one SPARQL Update in a query worker, milliseconds. */
    updateTimeoutMs: z.number().int().positive(),
    /** Most quads one update may delete plus insert (clearing whole graphs does not count). */
    maxUpdateQuads: z.number().int().positive(),
    /** Loaded query workers kept in reserve: one takes over at once when a worker is killed or all are busy. */
    spareWorkers: z.number().int().min(0).max(8),
    /** Extra query workers started while others are held by long-running jobs (retired when idle again). */
    surgeWorkers: z.number().int().min(0).max(8),
    /** Most operators and list terms in one query, counted before parsing (deep expression trees crash the engine). */
    maxExpressionTerms: z.number().int().positive(),
  }),
  rateLimit: z.object({
    /** Requests per client (IP address) per minute on POST /ask and /ask/stream; 0 = unlimited. */
    askPerMinute: z.number().int().min(0),
    /** Requests per client per minute on /sparql; 0 = unlimited. */
    sparqlPerMinute: z.number().int().min(0),
    /** Behind a proxy or load balancer: take the client's address from X-Forwarded-For. */
    trustProxy: z.boolean(),
  }),
  cors: z.object({
    /** Origins allowed to call read-only endpoints from a browser; ['*'] = any. */
    readOrigins: z.array(z.string()),
    /** Origins allowed to call /ask (which writes runs to the store) from a browser; [] = none. */
    askOrigins: z.array(z.string()),
  }),
  runs: z.object({
    /** Run graphs older than this are removed, hours; 0 = keep regardless of age. */
    maxAgeHours: z.number().min(0),
    /** Most run graphs kept (the oldest go first); 0 = no count limit. */
    maxCount: z.number().int().min(0),
    /** How often retention runs, milliseconds. */
    sweepEveryMs: z.number().int().positive(),
  }),
  store: z.object({
    /** Most quads the embedded store holds (it aborts near 13.1 M triples). */
    maxQuads: z.number().int().positive(),
    /** Fraction of maxQuads from which /ask and SPARQL Update are refused (reads keep working). */
    refuseWritesAt: z.number().gt(0).max(1),
  }),
  ask: z.object({
    /** Worker threads that run questions off the event loop serving /sparql and /health; 0 = no /ask (SPARQL only). */
    workers: z.number().int().min(0).max(8),
    /** Questions one ask worker runs at once. */
    concurrency: z.number().int().min(1).max(64),
    /** Questions allowed to wait for an ask worker before new ones get 503. */
    maxQueue: z.number().int().min(0),
  }),
});

export type Limits = z.infer<typeof LimitsSchema>;

/**
 * Ask worker threads by default: one per two cores, at most 4, and no more than one per 4 GiB of
 * memory (each holds a replica of the store, ~0.5 GB with the bundled catalog, plus the discovery
 * index and registry, ~0.3 GB), at least 1. A warm answered keyed read costs ~90 ms of CPU over
 * the process's threads, ~40 ms of it on its ask worker; the rest is the main thread's journal
 * write, every replica applying the question's writes, and V8's GC threads. So one worker keeps
 * two cores busy, and a second on 2 cores only adds a replica to feed (and, started under a
 * burst, seconds of start-up CPU): measured with 5 clients, 87 ms of CPU per question with one
 * worker, 164 ms with two (bench notes in the README). ASSAY_ASK_WORKERS overrides it.
 */
export function defaultAskWorkers(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(Math.floor(cores / 2), 4, Math.floor(memoryBytes / (4 * 1024 ** 3))));
}

export const LIMIT_DEFAULTS: Limits = {
  sparql: { updateTimeoutMs: 10_000, maxUpdateQuads: 1_000_000, spareWorkers: 1, surgeWorkers: 2, maxExpressionTerms: 500 },
  rateLimit: { askPerMinute: 30, sparqlPerMinute: 1_200, trustProxy: false },
  cors: { readOrigins: ['*'], askOrigins: [] },
  runs: { maxAgeHours: 24 * 7, maxCount: 2_000, sweepEveryMs: 60_000 },
  store: { maxQuads: 12_000_000, refuseWritesAt: 0.95 },
  ask: { workers: defaultAskWorkers(), concurrency: 8, maxQueue: 32 },
};

export type LimitsInput = { [K in keyof Limits]?: Partial<Limits[K]> };

function limitsFrom(env: NodeJS.ProcessEnv, input: LimitsInput = {}): unknown {
  const num = (name: string) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : undefined);
  const list = (name: string) => (env[name] !== undefined ? env[name].split(',').map((s) => s.trim()).filter(Boolean) : undefined);
  const pick = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const D = LIMIT_DEFAULTS;
  return {
    sparql: { ...D.sparql, ...pick({ updateTimeoutMs: num('ASSAY_UPDATE_TIMEOUT_MS'), maxUpdateQuads: num('ASSAY_UPDATE_MAX_QUADS'), spareWorkers: num('ASSAY_SPARQL_SPARES'), surgeWorkers: num('ASSAY_SPARQL_SURGE'), maxExpressionTerms: num('ASSAY_SPARQL_MAX_TERMS') }), ...input.sparql },
    rateLimit: { ...D.rateLimit, ...pick({ askPerMinute: num('ASSAY_RATE_ASK_PER_MINUTE'), sparqlPerMinute: num('ASSAY_RATE_SPARQL_PER_MINUTE'), trustProxy: env.ASSAY_TRUST_PROXY !== undefined ? ['1', 'true', 'yes'].includes(env.ASSAY_TRUST_PROXY.toLowerCase()) : undefined }), ...input.rateLimit },
    cors: { ...D.cors, ...pick({ readOrigins: list('ASSAY_CORS_READ_ORIGINS'), askOrigins: list('ASSAY_CORS_ASK_ORIGINS') }), ...input.cors },
    runs: { ...D.runs, ...pick({ maxAgeHours: num('ASSAY_RUNS_MAX_AGE_HOURS'), maxCount: num('ASSAY_RUNS_MAX_COUNT') }), ...input.runs },
    store: { ...D.store, ...pick({ maxQuads: num('ASSAY_STORE_MAX_QUADS'), refuseWritesAt: num('ASSAY_STORE_REFUSE_WRITES_AT') }), ...input.store },
    ask: { ...D.ask, ...pick({ workers: num('ASSAY_ASK_WORKERS'), concurrency: num('ASSAY_ASK_CONCURRENCY') }), ...input.ask },
  };
}
// ---- end of operator limits ----------------------------------------------------------------

export const ConfigSchema = z.object({
  /** Directory holding the durable store (snapshot + journal). */
  dataDir: z.string().min(1),
  /** Base under which Assay mints IRIs; must end with '/'. */
  baseIri: z.string().url().refine((s) => s.endsWith('/'), 'baseIri must end with "/"'),
  host: z.string().min(1),
  /** TCP port; 0 picks a free one. */
  port: z.number().int().min(0).max(65535),
  sparql: z.object({
    /** Wall-clock limit for one query, milliseconds. */
    timeoutMs: z.number().int().positive(),
    /** Result rows (or triples) returned before the result is cut and flagged truncated. */
    maxRows: z.number().int().positive(),
    /** Largest query text accepted, bytes. */
    maxQueryBytes: z.number().int().positive(),
    /** Deepest bracket/brace nesting accepted before parsing. */
    maxNesting: z.number().int().positive(),
    /** Largest request body, bytes (413 above). */
    maxBodyBytes: z.number().int().positive(),
    /** Longest request URL, bytes (414 above). */
    maxUrlBytes: z.number().int().positive(),
    /** Bearer token that enables SPARQL Update; updates are refused when unset. */
    updateToken: z.string().min(16).optional(),
    /** Hosts that SERVICE, LOAD and FROM may reach; empty = none. */
    allowedRemoteHosts: z.array(z.string()),
    /** Query worker threads for /sparql; each holds a full replica of the store. */
    workers: z.number().int().min(1).max(16),
    /** Queries allowed to wait for a free worker before new ones get 503. */
    maxQueue: z.number().int().min(0),
    /** Wall-clock limit for computing the VoID figures in a query worker, milliseconds. */
    voidTimeoutMs: z.number().int().positive(),
    /** Bytes of query answers kept until the next write, each from its second ask (embedded store only; 0 = off) (ASSAY_SPARQL_RESULT_CACHE_BYTES). */
    resultCacheBytes: z.number().int().min(0),
  }),
  /** Directory of the OKF descriptors (one JSON per publisher, plus generated/). */
  catalogDir: z.string().min(1),
  /** Directory of the publisher cassettes (the offline snapshot). */
  cassetteDir: z.string().min(1),
  publishers: z.object({
    /** User-Agent for publishers that require one (must name a contact e-mail address). */
    userAgent: z.string().optional(),
    /** source id → base URL standing in for the publisher's own origin (path and query kept). */
    baseUrls: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a source id is lower case with hyphens'), baseUrl),
    /** Credential variable name → secret, for the names the catalog's descriptors declare. */
    credentials: z.record(z.string(), z.string()),
  }),
  /** Model and embedding variables as given (see MODEL_ENV); unset ones are absent. */
  model: z.partialRecord(z.enum(MODEL_ENV), z.string()),
  store: StoreConfigSchema,
  /** Operator limits against faults and abuse (see the block below). */
  limits: LimitsSchema,
});

export type Config = Readonly<z.infer<typeof ConfigSchema>>;

export type ConfigInput = {
  dataDir?: string;
  baseIri?: string;
  host?: string;
  port?: number;
  sparql?: Partial<Config['sparql']>;
  catalogDir?: string;
  cassetteDir?: string;
  /** Overrides (and adds to) the publisher base URLs from the environment. */
  publisherUrls?: Record<string, string>;
  userAgent?: string;
  store?: Partial<StoreConfig>;
  limits?: LimitsInput;
};

export const DEFAULTS = {
  dataDir: '.assay-data',
  host: '127.0.0.1',
  port: 8080,
  sparql: {
    timeoutMs: 10_000,
    maxRows: 10_000,
    maxQueryBytes: 64 * 1024,
    maxNesting: 64,
    maxBodyBytes: 1024 * 1024,
    maxUrlBytes: 16 * 1024,
    allowedRemoteHosts: [] as string[],
    workers: 2,
    maxQueue: 64,
    voidTimeoutMs: 60_000,
    resultCacheBytes: 16 * 1024 * 1024,
  },
} as const;

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * Publisher base URLs from the environment: the JSON map first, then one variable per publisher.
 * A map that is not a JSON object of strings is a configuration error naming the variable.
 */
export function publisherUrlsFromEnv(env: NodeJS.ProcessEnv): { urls: Record<string, string>; problems: string[] } {
  const urls: Record<string, string> = {};
  const problems: string[] = [];
  const map = env.ASSAY_PUBLISHER_URLS?.trim();
  if (map) {
    try {
      const parsed = JSON.parse(map) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) throw new Error('not an object of strings');
      Object.assign(urls, parsed);
    } catch (e) {
      problems.push(`  ASSAY_PUBLISHER_URLS: must be a JSON object {"<source>": "<base URL>"} (${(e as Error).message})`);
    }
  }
  for (const [name, value] of Object.entries(env)) {
    const m = /^ASSAY_PUBLISHER_URL_([A-Z0-9_]+)$/.exec(name);
    if (m && value?.trim()) urls[m[1]!.toLowerCase().replace(/_/g, '-')] = value.trim();
  }
  return { urls, problems };
}

/**
 * The credential variable names a catalog's descriptors declare (`credentials.env` of a service or
 * an access path), read from the JSON alone; an unreadable catalog gives none (the catalog loader
 * reports why, with a fix).
 */
export function credentialNames(catalogDir: string): string[] {
  const names = new Set<string>();
  let files: string[] = [];
  try { files = readdirSync(catalogDir).filter((f) => f.endsWith('.json')); } catch { return []; }
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (!x || typeof x !== 'object') return;
    const c = (x as { credentials?: { env?: unknown } }).credentials;
    if (c && typeof c.env === 'string') names.add(c.env);
    Object.values(x).forEach(walk);
  };
  for (const f of files) {
    try { walk(JSON.parse(readFileSync(join(catalogDir, f), 'utf8'))); } catch { /* reported by the catalog loader */ }
  }
  return [...names].sort();
}

/** The model variables as an environment-shaped object, for src/llm/config.ts's readers. */
export function modelEnv(config: Config): NodeJS.ProcessEnv {
  return { ...config.model, ASSAY_DATA_DIR: config.dataDir };
}

/** Read configuration from the environment (ASSAY_*, PORT) and explicit overrides. */
export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const port = input.port ?? (env.PORT !== undefined && env.PORT !== '' ? Number(env.PORT) : DEFAULTS.port);
  const host = input.host ?? env.ASSAY_HOST ?? DEFAULTS.host;
  const baseIri = input.baseIri ?? env.ASSAY_BASE_IRI ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  const urls = publisherUrlsFromEnv(env);
  const raw = {
    dataDir: resolve(input.dataDir ?? env.ASSAY_DATA_DIR ?? DEFAULTS.dataDir),
    baseIri,
    host,
    port,
    sparql: {
      ...DEFAULTS.sparql,
      allowedRemoteHosts: (env.ASSAY_SPARQL_REMOTE_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      ...(env.ASSAY_SPARQL_TIMEOUT_MS ? { timeoutMs: Number(env.ASSAY_SPARQL_TIMEOUT_MS) } : {}),
      ...(env.ASSAY_SPARQL_MAX_ROWS ? { maxRows: Number(env.ASSAY_SPARQL_MAX_ROWS) } : {}),
      ...(env.ASSAY_UPDATE_TOKEN ? { updateToken: env.ASSAY_UPDATE_TOKEN } : {}),
      ...(env.ASSAY_SPARQL_WORKERS ? { workers: Number(env.ASSAY_SPARQL_WORKERS) } : {}),
      ...(env.ASSAY_VOID_TIMEOUT_MS ? { voidTimeoutMs: Number(env.ASSAY_VOID_TIMEOUT_MS) } : {}),
      ...(env.ASSAY_SPARQL_RESULT_CACHE_BYTES ? { resultCacheBytes: Number(env.ASSAY_SPARQL_RESULT_CACHE_BYTES) } : {}),
      ...input.sparql,
    },
    catalogDir: resolve(input.catalogDir ?? (env.ASSAY_CATALOG_DIR?.trim() || BUNDLED_CATALOG_DIR)),
    cassetteDir: resolve(input.cassetteDir ?? (env.ASSAY_CASSETTE_DIR?.trim() || BUNDLED_CASSETTE_DIR)),
    publishers: {
      ...((input.userAgent ?? env.ASSAY_USER_AGENT) ? { userAgent: input.userAgent ?? env.ASSAY_USER_AGENT } : {}),
      baseUrls: { ...urls.urls, ...input.publisherUrls },
      credentials: {} as Record<string, string>,
    },
    model: Object.fromEntries(MODEL_ENV.filter((n) => env[n] !== undefined && env[n] !== '').map((n) => [n, env[n]!])),
    store: storeConfig(input.store, env),
    limits: limitsFrom(env, input.limits),
  };
  for (const name of credentialNames(raw.catalogDir)) {
    const v = env[name]?.trim();
    if (v) raw.publishers.credentials[name] = v;
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success || urls.problems.length > 0) {
    const problems = [...urls.problems, ...(parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`))].join('\n');
    throw new Error(`invalid configuration:\n${problems}\nFix the flag or environment variable named above.`);
  }
  return deepFreeze(parsed.data);
}
