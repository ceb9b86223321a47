// A scripted stand-in for an OpenAI-compatible chat completions API on 127.0.0.1, so the real
// OpenCode CLI runs whole turns with no network (a custom provider's `options.baseURL` points
// here): `POST /v1/chat/completions`, answered as streaming SSE. A script maps a text the turn's
// prompt contains to its steps, one assistant message per model call: the step is chosen by how
// many assistant messages already follow that prompt in the request, so the answers depend on
// the conversation alone (a sub-agent's conversation starts with its own prompt, so it has its
// own script). A step may also be an API error. Requests without tools (a title) get a plain answer.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Block = { type: 'text'; text: string } | { type: 'tool'; name: string; input: Record<string, unknown> };

export type Step = Block[] | { error: { status: number; message: string } };

/** Prompt text (a substring) → the assistant messages of that conversation, in order. */
export type Script = Record<string, Step[]>;

export interface ApiRequest {
  path: string;
  tools: string[];
  matched: string | null;
  step: number;
}

export interface FakeApi {
  url: string;
  requests: ApiRequest[];
  close(): Promise<void>;
}

type Message = { role: string; content?: string | { type: string; text?: string }[] | null };

const textOf = (m: Message) =>
  typeof m.content === 'string'
    ? m.content
    : (m.content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('\n');

function stepFor(script: Script, messages: Message[]): { key: string | null; step: number } {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== 'user') continue;
    const text = textOf(messages[i]);
    let key: string | null = null;
    for (const candidate of Object.keys(script)) {
      if (text.includes(candidate) && (key === null || text.lastIndexOf(candidate) > text.lastIndexOf(key)))
        key = candidate;
    }
    if (key !== null) return { key, step: messages.slice(i + 1).filter((m) => m.role === 'assistant').length };
  }
  return { key: null, step: 0 };
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

let ids = 0;
const nextId = (prefix: string) => `${prefix}${(++ids).toString(36).padStart(8, '0')}`;

function chunks(blocks: Block[]): unknown[] {
  const id = nextId('chatcmpl_');
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  let tools = 0;
  for (const block of blocks) {
    if (block.type === 'text') out.push(chunk({ content: block.text }));
    else {
      out.push(
        chunk({
          tool_calls: [
            {
              index: tools++,
              id: nextId('call_'),
              type: 'function',
              function: { name: block.name, arguments: JSON.stringify(block.input) },
            },
          ],
        }),
      );
    }
  }
  out.push({
    ...(chunk({}, tools > 0 ? 'tool_calls' : 'stop') as object),
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  return out;
}

export async function startFakeApi(script: Script): Promise<FakeApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '';
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":{"message":"not here","type":"not_found"}}');
      return;
    }
    const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
    const tools = Array.isArray(body.tools)
      ? (body.tools as { function?: { name: string } }[]).map((tool) => tool.function?.name ?? '')
      : [];
    const { key, step } = tools.length === 0 ? { key: null, step: 0 } : stepFor(script, messages);
    requests.push({ path, tools, matched: key, step });
    const planned = key === null ? undefined : script[key][step];
    if (planned !== undefined && !Array.isArray(planned)) {
      res.writeHead(planned.error.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: planned.error.message, type: 'invalid_request_error' } }));
      return;
    }
    const blocks = planned ?? [{ type: 'text', text: key === null ? 'A title' : 'Nothing more to do.' }];
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    for (const chunk of chunks(blocks)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
