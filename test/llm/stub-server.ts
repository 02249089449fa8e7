/**
 * A stub OpenAI-compatible server on loopback for tests: answers POST /v1/chat/completions from a
 * script (a function of the request body), and POST /v1/embeddings with deterministic fake vectors
 * (`fakeEmbedding` unless another function is given); records every request it saw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatBody { model: string; messages: { role: string; content: string }[]; response_format?: unknown }
export type Script = (body: ChatBody, n: number) => { status?: number; content?: string; raw?: string };

export interface EmbeddingBody { model: string; input: string | string[]; encoding_format?: string }
export interface Stub { url: string; requests: ChatBody[]; embeddingRequests: EmbeddingBody[]; close(): Promise<void> }

/**
 * A deterministic bag-of-words vector: each lower-cased word adds 1 to a dimension chosen by a
 * hash of the word, so texts sharing words are similar and the same text always gets the same vector.
 */
export function fakeEmbedding(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/).filter((x) => x.length > 2)) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % dims]! += 1;
  }
  return v;
}

export async function startStub(script: Script, embed: (text: string) => number[] = (t) => fakeEmbedding(t)): Promise<Stub> {
  const requests: ChatBody[] = [];
  const embeddingRequests: EmbeddingBody[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
        const body = JSON.parse(data) as EmbeddingBody;
        embeddingRequests.push(body);
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          object: 'list', model: body.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
          data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
        }));
        return;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) { res.writeHead(404).end(); return; }
      const body = JSON.parse(data) as ChatBody;
      requests.push(body);
      const out = script(body, requests.length);
      if (out.status && out.status >= 400) { res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'scripted failure' } })); return; }
      const payload = out.raw ?? JSON.stringify({
        id: `chatcmpl-${requests.length}`, object: 'chat.completion', created: 0, model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: out.content ?? '' } }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, embeddingRequests, close: () => new Promise((r) => server.close(() => r())) };
}
