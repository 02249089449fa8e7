/**
 * A stub OpenAI-compatible server on loopback for tests: answers POST /v1/chat/completions from a
 * script (a function of the request body), records every request it saw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatBody { model: string; messages: { role: string; content: string }[]; response_format?: unknown }
export type Script = (body: ChatBody, n: number) => { status?: number; content?: string; raw?: string };

export interface Stub { url: string; requests: ChatBody[]; close(): Promise<void> }

export async function startStub(script: Script): Promise<Stub> {
  const requests: ChatBody[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
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
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) };
}
