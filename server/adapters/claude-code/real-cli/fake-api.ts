// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so the real Claude Code CLI
// runs whole turns with no network: `POST /v1/messages?beta=true`, answered as streaming SSE.
// A script maps a text the turn's prompt contains to its steps, one assistant message per
// model call: the step is chosen by how many assistant messages already follow that prompt in
// the request, so the answers depend on the conversation alone (a subagent's conversation
// starts with its own prompt, so it has its own script). A step may also be an API error.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown> };

export type Step = Block[] | { error: { status: number; type: string; message: string } };

/** Prompt text (a substring) → the assistant messages of that conversation, in order. */
export type Script = Record<string, Step[]>;

export interface ApiRequest {
  path: string;
  tools: string[];
  /** The script key its conversation matched, or null. */
  matched: string | null;
  step: number;
}

export interface FakeApi {
  url: string;
  requests: ApiRequest[];
  close(): Promise<void>;
}

type Message = { role: string; content: string | { type: string; text?: string }[] };

const isToolResults = (m: Message) => Array.isArray(m.content) && m.content.some((part) => part.type === 'tool_result');
const textOf = (m: Message) =>
  typeof m.content === 'string'
    ? m.content
    : m.content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');

let ids = 0;
const nextId = (prefix: string) => `${prefix}${(++ids).toString(36).padStart(8, '0')}`;

function writeSse(res: ServerResponse, blocks: Block[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: {
      id: nextId('msg_'),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: nextId('toolu_'), name: block.name, input: {} },
      });
      send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    send('content_block_stop', { index });
  });
  const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

/** The step a request asks for: its conversation's prompt and how far past it the conversation is. */
function stepFor(script: Script, messages: Message[]): { key: string | null; step: number } {
  let prompt = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user' && !isToolResults(messages[i])) {
      prompt = i;
      break;
    }
  }
  const text = prompt < 0 ? '' : textOf(messages[prompt]);
  // Claude Code merges a prompt into the one before when that turn failed: the latest one counts.
  let key: string | null = null;
  for (const candidate of Object.keys(script)) {
    if (text.lastIndexOf(candidate) > (key === null ? -1 : text.lastIndexOf(key))) key = candidate;
  }
  return { key, step: messages.slice(prompt + 1).filter((m) => m.role === 'assistant').length };
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

export async function startFakeApi(script: Script): Promise<FakeApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '';
    if (req.method !== 'POST' || !path.startsWith('/v1/messages')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
      return;
    }
    const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
    const { key, step } = stepFor(script, messages);
    const tools = Array.isArray(body.tools) ? (body.tools as { name: string }[]).map((tool) => tool.name) : [];
    requests.push({ path, tools, matched: key, step });
    const planned = key === null ? undefined : script[key][step];
    if (planned !== undefined && !Array.isArray(planned)) {
      res.writeHead(planned.error.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: planned.error.type, message: planned.error.message } }));
      return;
    }
    // Past its script a conversation ends; side requests get a plain answer.
    writeSse(res, planned ?? [{ type: 'text', text: key === null ? 'OK.' : 'Nothing more to do.' }]);
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
