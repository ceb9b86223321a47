// The OpenAI Responses API dialect of the test kit's scripted fake API (testkit/hosts), so the
// real Codex CLI runs whole turns with no network: `POST /v1/responses`, answered as streaming
// SSE (the wire API of a `[model_providers.X]` table with `wire_api = "responses"`, the only
// one Codex 0.169 speaks), one model output a step (counted by the messages and tool calls
// since the prompt in the request's `input`). A step may be an API error.
import type { ServerResponse } from 'node:http';
import {
  nextId,
  sendJson,
  startFakeApi as startServer,
  startSse,
  stepOf,
  type FakeApi,
  type Script as ScriptOf,
} from '../../../server/testkit/hosts/fake-api.js';

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

export type Script = ScriptOf<Step>;

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
  startSse(res);
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

const toolNames = (tools: Item[]): string[] =>
  tools.flatMap((tool) =>
    tool.type === 'namespace'
      ? (tool.tools ?? []).map((inner) => `${tool.name}.${inner.name}`)
      : [tool.name ?? tool.type ?? '?'],
  );

export function startFakeApi(script: Script): Promise<FakeApi> {
  return startServer({
    answer: ({ method, path, body }, res) => {
      if (method !== 'POST' || !path.startsWith('/v1/responses')) {
        sendJson(res, 404, { error: { type: 'not_found', message: 'not here' } });
        return null;
      }
      const { key, step, since } = stepOf(script, {
        messages: Array.isArray(body.input) ? (body.input as Item[]) : [],
        isPrompt: (item) => item.type === 'message' && item.role === 'user',
        textOf,
        isAnswer: isModelOutput,
      });
      const outputs = since.filter((item) => /_output$/.test(item.type ?? '')).map(outputText);
      const planned = key === null ? undefined : script[key][step];
      if (planned !== undefined && 'error' in planned) {
        sendJson(res, planned.error.status, {
          error: { type: 'invalid_request_error', code: null, message: planned.error.message },
        });
      } else {
        // Past its script a conversation ends; side requests get a plain answer.
        writeSse(res, planned ?? { text: key === null ? 'OK.' : 'Nothing more to do.' }, outputs);
      }
      return { path, tools: toolNames(Array.isArray(body.tools) ? (body.tools as Item[]) : []), matched: key, step };
    },
  });
}
