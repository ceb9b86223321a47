// The Anthropic Messages API dialect of the test kit's scripted fake API (testkit/hosts), so the
// real Claude Code CLI runs whole turns with no network: `POST /v1/messages?beta=true`, answered
// as streaming SSE, one assistant message a step (counted by the assistant messages since the
// prompt). A step may also be an API error.
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

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown> };

export type Step = Block[] | { error: { status: number; type: string; message: string } };

export type Script = ScriptOf<Step>;

type Message = { role: string; content: string | { type: string; text?: string }[] };

const isToolResults = (m: Message) => Array.isArray(m.content) && m.content.some((part) => part.type === 'tool_result');
const textOf = (m: Message) =>
  typeof m.content === 'string'
    ? m.content
    : m.content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');

function writeSse(res: ServerResponse, blocks: Block[]): void {
  startSse(res);
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

export function startFakeApi(script: Script): Promise<FakeApi> {
  return startServer({
    answer: ({ method, path, body }, res) => {
      if (method !== 'POST' || !path.startsWith('/v1/messages')) {
        sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'not here' } });
        return null;
      }
      const { key, step } = stepOf(script, {
        messages: Array.isArray(body.messages) ? (body.messages as Message[]) : [],
        isPrompt: (m) => m.role === 'user' && !isToolResults(m),
        textOf,
        isAnswer: (m) => m.role === 'assistant',
        // Claude Code merges a prompt into the one before when that turn failed: the latest one counts.
        latestPromptOnly: true,
      });
      const tools = Array.isArray(body.tools) ? (body.tools as { name: string }[]).map((tool) => tool.name) : [];
      const planned = key === null ? undefined : script[key][step];
      if (planned !== undefined && !Array.isArray(planned)) {
        sendJson(res, planned.error.status, {
          type: 'error',
          error: { type: planned.error.type, message: planned.error.message },
        });
      } else {
        // Past its script a conversation ends; side requests get a plain answer.
        writeSse(res, planned ?? [{ type: 'text', text: key === null ? 'OK.' : 'Nothing more to do.' }]);
      }
      return { path, tools, matched: key, step };
    },
  });
}
