/**
 * `/sparql`: the SPARQL 1.1 Protocol endpoint (query, update, service description).
 *
 * Contract: requests are decoded strictly (protocol.ts), untrusted text is size- and
 * depth-checked before any parser (precheck.ts), then parsed, classified and evaluated in
 * the query sandbox (pool.ts) — never on this thread. Updates are refused unless the operator
 * set sparql.updateToken and the request carries it as a Bearer token; an accepted update is
 * checked in the sandbox and then applied through DurableStore.apply, so it is journaled and
 * forwarded to every replica. Every refusal is a SparqlError with a protocol-correct status
 * and a JSON body `{ error, message, fix }` (errors.ts).
 *
 * Truncation: a result cut at sparql.maxRows carries `Assay-Truncated: true` (and a marker
 * in JSON/XML results, see results.ts).
 *
 * With sparql.resultCacheBytes > 0 (the default; embedded store only), an answer asked for twice is
 * remembered until the next write (result-cache.ts); a hit is served without a worker and says
 * `Assay-Cache: hit`. The request is still rate-limited and decoded as any other; the precheck is
 * skipped on a hit (the same text passed it when its answer was kept).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreWriteError } from '../../rdf/durable.ts';
import { ASSAY } from '../../rdf/vocab.ts';
import { varyOn } from './rdf-reply.ts';
import { SparqlError, fromReply } from '../sparql/errors.ts';
import type { Job, QueryReply } from '../sparql/evaluate.ts';
import { RDF_OFFERS, negotiate, offered } from '../sparql/negotiate.ts';
import { precheck } from '../sparql/precheck.ts';
import { decodeRequest, type Operation } from '../sparql/protocol.ts';
import { QueryPool } from '../sparql/pool.ts';
import { ResultCache } from '../sparql/result-cache.ts';
import { serializeDescription } from '../sparql/service-description.ts';

const PATHS = ['/sparql', '/sparql/'];

export async function sparqlRoutes(app: FastifyInstance): Promise<void> {
  const { config, store } = app.assay;
  const limits = config.sparql;
  const endpoint = new URL('sparql', config.baseIri).href;
  const policy = { baseIri: endpoint, localBase: config.baseIri, allowedRemoteHosts: limits.allowedRemoteHosts };
  const guard = config.limits.sparql;
  const checks = { ...limits, maxExpressionTerms: guard.maxExpressionTerms };

  // The query sandbox is shared with the VoID cache; build() starts it and closes it.
  const pool = app.queryPool;
  // Only the embedded store's writes all pass through this process (a remote one is shared).
  const cache = limits.resultCacheBytes > 0 && pool instanceof QueryPool ? new ResultCache(limits.resultCacheBytes) : undefined;
  if (cache) {
    const unsubscribe = store.onWrite(() => cache.clear());
    app.addHook('onClose', async () => unsubscribe());
  }

  // Bodies are read raw and decoded by protocol.ts, which knows the protocol's media types.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.maxBodyBytes }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req) => {
    if (Buffer.byteLength(req.raw.url ?? '') > limits.maxUrlBytes) {
      throw new SparqlError('url-too-long', `the request URL is longer than ${limits.maxUrlBytes} bytes`);
    }
  });

  app.setErrorHandler((err: unknown, req, reply) => {
    const e = asSparqlError(err);
    if (!e) {
      req.log.error({ err }, 'sparql: unexpected failure');
      return reply.code(500).type('application/json').send({ error: 'internal', message: 'the endpoint failed unexpectedly; this is a bug in Assay', fix: 'report it with the request that caused it' });
    }
    for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
    return reply.code(e.status).type('application/json').send(e.toJSON());
  });

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const op = decodeRequest({
      method: req.method,
      url: req.raw.url ?? req.url,
      contentType: req.headers['content-type'],
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
    });
    return dispatch(op, req, reply);
  };

  async function dispatch(op: Operation, req: FastifyRequest, reply: FastifyReply) {
    const accept = req.headers.accept;
    if (op.kind === 'service-description') {
      const offer = negotiate(accept, RDF_OFFERS);
      if (!offer) throw new SparqlError('not-acceptable', `the service description is available as ${offered(RDF_OFFERS)}`);
      const body = serializeDescription({
        endpoint,
        voidUrl: new URL('.well-known/void', config.baseIri).href,
        updatesEnabled: limits.updateToken !== undefined,
        maxRows: limits.maxRows,
      }, offer.mediaType);
      return varyOn(reply, 'Accept').type(contentType(offer.mediaType)).send(body);
    }
    if (op.kind === 'update') {
      authorize(req.headers.authorization, limits.updateToken);
      precheck(op.text, checks);
      refuseWhenFull();
      // The effect is computed in a query worker under its own deadline, with the write queue
      // held so that it is applied to exactly the state it was computed from (update-delta.ts).
      await store.applyComputed(async (seq) => {
        const { reply } = await pool.run({
          kind: 'update', text: op.text, usingGraphs: op.usingGraphs, usingNamedGraphs: op.usingNamedGraphs,
          atSeq: seq, maxQuads: guard.maxUpdateQuads, ...policy,
        }, guard.updateTimeoutMs, 'limits.sparql.updateTimeoutMs', { client: req.ip });
        if (!reply.ok) throw fromReply(reply);
        if (reply.kind !== 'update') throw new Error(`sandbox answered an update with a ${reply.kind} result; this is a bug in Assay`);
        if (!reply.effect.portable) return { kind: 'update', sparql: reply.sparql, baseIri: endpoint };
        return reply.effect.steps.length > 0 ? { kind: 'delta', steps: reply.effect.steps } : null;
      }).catch((e: unknown) => {
        if (e instanceof SparqlError) throw e;
        if ((e as Error).name === 'StoreCapacityError') throw new SparqlError('store-full', (e as Error).message);
        // The disk refused this write or an earlier one (durable.ts): not the update's fault.
        if (e instanceof StoreWriteError) throw new SparqlError('store-unwritable', `${(e as Error).message}. Reads (/sparql, /runs) keep working.`);
        throw new SparqlError('update-failed', `the update was not applied: ${(e as Error).message}`);
      });
      return reply.code(204).send();
    }
    varyOn(reply, 'Accept');
    // Looked up before the precheck: an entry's text passed it (under this same configuration) when it was kept.
    const key = cache ? `${accept ?? ''}\u0000${op.defaultGraphs.join(' ')}\u0000${op.namedGraphs.join(' ')}\u0000${op.text}` : '';
    const hit = cache?.get(key, store.seq);
    if (hit) {
      if (hit.truncated) reply.header('Assay-Truncated', 'true');
      return reply.header('Assay-Cache', 'hit').header('Content-Type', hit.contentType).send(hit.body);
    }
    precheck(op.text, checks);
    const { reply: result, seq } = await runInSandbox(req.ip, {
      kind: 'query', text: op.text, defaultGraphs: op.defaultGraphs, namedGraphs: op.namedGraphs,
      accept, maxRows: limits.maxRows, truncationLink: ASSAY.truncated, checkDatasetGraphs: true, ...policy,
    });
    if (result.truncated) reply.header('Assay-Truncated', 'true');
    const type = contentType(result.contentType);
    // Kept on its second ask (result-cache.ts admit), under the write the replica held: served only while the store is still at it.
    if (cache && result.cacheable === true && cache.admit(key)) {
      const body = Buffer.from(result.body);
      cache.set(key, { seq, contentType: type, body, truncated: result.truncated });
      return reply.header('Content-Type', type).send(body);
    }
    return reply.header('Content-Type', type).send(result.body);
  }

  async function runInSandbox(client: string, job: Job): Promise<{ reply: QueryReply; seq: number }> {
    const { reply, seq } = await pool.run(job, limits.timeoutMs, 'sparql.timeoutMs', { client });
    if (!reply.ok) throw fromReply(reply);
    if (reply.kind !== 'query') throw new Error(`sandbox answered a SPARQL query with a ${reply.kind} result; this is a bug in Assay`);
    return { reply, seq };
  }

  /** Near the store's ceiling writes are refused; reads keep working. */
  function refuseWhenFull(): void {
    const { maxQuads, refuseWritesAt } = config.limits.store;
    const at = Math.floor(maxQuads * refuseWritesAt);
    if (store.rdf.sizeBound >= at && store.rdf.size >= at) {
      throw new SparqlError('store-full', `the store holds ${store.rdf.size} quads and refuses writes from ${at} (limits.store.refuseWritesAt = ${refuseWritesAt} of limits.store.maxQuads = ${maxQuads})`);
    }
  }

  const perMinute = config.limits.rateLimit.sparqlPerMinute;
  const rateLimit = perMinute > 0 ? { max: perMinute, timeWindow: 60_000 } : false as const;
  for (const url of PATHS) {
    app.route({ method: ['GET', 'POST'], url, bodyLimit: limits.maxBodyBytes, handler, config: { rateLimit } });
    app.route({
      method: ['PUT', 'DELETE', 'PATCH'], url, handler: async (req) => {
        throw new SparqlError('method-not-allowed', `${req.method} is not a SPARQL protocol method`, { Allow: 'GET, POST, OPTIONS' });
      },
    });
  }
}

/** Text media types get an explicit charset so clients never guess. */
function contentType(mediaType: string): string {
  return mediaType.startsWith('text/') || mediaType.endsWith('+json') || mediaType.endsWith('+xml') || mediaType.endsWith('json')
    ? `${mediaType}; charset=utf-8` : mediaType;
}

function authorize(header: string | undefined, token: string | undefined): void {
  if (token === undefined) {
    throw new SparqlError('updates-disabled', 'SPARQL Update is disabled on this endpoint');
  }
  const presented = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  const ok = presented.length === expected.length && timingSafeEqual(presented, expected);
  if (!ok) {
    throw new SparqlError('unauthorized', header ? 'the bearer token does not match' : 'SPARQL Update needs a bearer token',
      { 'WWW-Authenticate': 'Bearer realm="assay-sparql"' });
  }
}

/** Map fastify's own request errors (body limit, content type) into the endpoint's catalogue. */
function asSparqlError(err: unknown): SparqlError | undefined {
  if (err instanceof SparqlError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.statusCode === 429) return new SparqlError('rate-limited', `this client sent more than its share of requests: ${e.message ?? 'rate limit exceeded'}`);
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) return new SparqlError('body-too-large', e.message ?? 'the request body is too large');
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.statusCode === 415) return new SparqlError('unsupported-media-type', e.message ?? 'unsupported media type');
  if (e.statusCode === 400 || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new SparqlError('bad-encoding', e.message ?? 'the request could not be read');
  return undefined;
}
