// A scripted stand-in for the OpenAI Responses API on 127.0.0.1, so the real Codex CLI runs whole
// turns with no network: `POST /v1/responses`, answered as streaming SSE (the wire API of a
// `[model_providers.X]` table with `wire_api = "responses"`, the only one Codex 0.169 speaks).
// A script maps a text the turn's prompt contains to its steps, one model answer per call: the
// step is chosen by how many model outputs (messages and tool calls) already follow that prompt in
// the request's `input`, so the answers depend on the conversation alone (a sub-agent's
// conversation starts with its own prompt, so it has its own script). A step may be an API error.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Args = Record<string, unknown>;

export type Step =
  | { text: string }
  /**
   * A JSON function tool (`exec_command`, `spawn_agent`, an MCP tool …), its arguments as an
   * object, or made from the outputs of the conversation's earlier tool calls (`wait_agent`
   * needs the id `spawn_agent` answered).
   */
  | { call: string; args: Args | ((outputs: string[]) => Args); namespace?: string }
  /** A freeform tool (`apply_patch`): its raw input. */
  | { custom: string; input: string }
  /** Codex defers MCP tools behind its client-side `tool_search`: a search makes them callable. */
  | { search: string }
  | { error: { status: number; message: string } };

/** Prompt text (a substring) → the model's answers in that conversation, in order. */
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

type Item = { type?: string; role?: string; content?: unknown; name?: string; tools?: { name?: string }[] };

const OUTPUTS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const isModelOutput = (item: Item) =>
  OUTPUTS.has(item.type ?? '') || (item.type === 'message' && item.role === 'assistant');

function textOf(item: Item): string {
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return item.content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

const outputText = (item: Item & { output?: unknown }) =>
  typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '');

let ids = 0;
const nextId = (prefix: string) => `${prefix}${(++ids).toString(36).padStart(8, '0')}`;

type Answer = Exclude<Step, { error: unknown }>;

function outputItem(step: Answer, outputs: string[]): Record<string, unknown> {
  if ('text' in step) {
    return {
      type: 'message',
      role: 'assistant',
      id: nextId('msg_'),
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    };
  }
  if ('search' in step) {
    return {
      type: 'tool_search_call',
      id: nextId('ts_'),
      call_id: nextId('call_'),
      execution: 'client',
      arguments: { query: step.search, limit: 8 },
      status: 'completed',
    };
  }
  if ('custom' in step) {
    return {
      type: 'custom_tool_call',
      id: nextId('ctc_'),
      call_id: nextId('call_'),
      name: step.custom,
      input: step.input,
      status: 'completed',
    };
  }
  return {
    type: 'function_call',
    id: nextId('fc_'),
    call_id: nextId('call_'),
    name: step.call,
    ...(step.namespace ? { namespace: step.namespace } : {}),
    arguments: JSON.stringify(typeof step.args === 'function' ? step.args(outputs) : step.args),
    status: 'completed',
  };
}

function writeSse(res: ServerResponse, step: Answer, outputs: string[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const id = nextId('resp_');
  send('response.created', { response: { id } });
  const item = outputItem(step, outputs);
  send('response.output_item.added', { output_index: 0, item });
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', {
    response: {
      id,
      usage: {
        input_tokens: 10,
        input_tokens_details: null,
        output_tokens: 5,
        output_tokens_details: null,
        total_tokens: 15,
      },
    },
  });
  res.end();
}

/** The step a request asks for: its conversation's prompt and how many model outputs follow it. */
function stepFor(script: Script, input: Item[]): { key: string | null; step: number; outputs: string[] } {
  const keys = Object.keys(script);
  for (let i = input.length - 1; i >= 0; i--) {
    if (input[i].type !== 'message' || input[i].role !== 'user') continue;
    const text = textOf(input[i]);
    const key = keys
      .filter((candidate) => text.includes(candidate))
      .sort((a, b) => text.lastIndexOf(b) - text.lastIndexOf(a))[0];
    if (key === undefined) continue;
    const after = input.slice(i + 1);
    return {
      key,
      step: after.filter(isModelOutput).length,
      outputs: after.filter((item) => /_output$/.test(item.type ?? '')).map(outputText),
    };
  }
  return { key: null, step: 0, outputs: [] };
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

const toolNames = (tools: Item[]): string[] =>
  tools.flatMap((tool) =>
    tool.type === 'namespace'
      ? (tool.tools ?? []).map((inner) => `${tool.name}.${inner.name}`)
      : [tool.name ?? tool.type ?? '?'],
  );

export async function startFakeApi(script: Script): Promise<FakeApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '';
    if (req.method !== 'POST' || !path.startsWith('/v1/responses')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":{"type":"not_found","message":"not here"}}');
      return;
    }
    const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
    const { key, step, outputs } = stepFor(script, input);
    requests.push({
      path,
      tools: toolNames(Array.isArray(body.tools) ? (body.tools as Item[]) : []),
      matched: key,
      step,
    });
    const planned = key === null ? undefined : script[key][step];
    if (planned !== undefined && 'error' in planned) {
      res.writeHead(planned.error.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: null, message: planned.error.message } }));
      return;
    }
    // Past its script a conversation ends; side requests get a plain answer.
    writeSse(res, planned ?? { text: key === null ? 'OK.' : 'Nothing more to do.' }, outputs);
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
