// The OpenAI-compatible chat completions dialect of the test kit's scripted fake API
// (testkit/hosts), so the real OpenCode CLI runs whole turns with no network (a custom
// provider's `options.baseURL` points here): `POST /v1/chat/completions`, answered as streaming
// SSE, one assistant message a step (counted by the assistant messages since the prompt). A step
// may also be an API error. Requests without tools (a title) get a plain answer.
import {
  nextId,
  sendJson,
  startFakeApi as startServer,
  startSse,
  stepOf,
  type FakeApi,
  type Script as ScriptOf,
} from '../../../server/testkit/hosts/fake-api.js';

export type Block = { type: 'text'; text: string } | { type: 'tool'; name: string; input: Record<string, unknown> };

export type Step = Block[] | { error: { status: number; message: string } };

export type Script = ScriptOf<Step>;

type Message = { role: string; content?: string | { type: string; text?: string }[] | null };

const textOf = (m: Message) =>
  typeof m.content === 'string'
    ? m.content
    : (m.content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('\n');

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

export function startFakeApi(script: Script): Promise<FakeApi> {
  return startServer({
    answer: ({ method, path, body }, res) => {
      if (method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: 'not here', type: 'not_found' } });
        return null;
      }
      const tools = Array.isArray(body.tools)
        ? (body.tools as { function?: { name: string } }[]).map((tool) => tool.function?.name ?? '')
        : [];
      const { key, step } =
        tools.length === 0
          ? { key: null, step: 0 }
          : stepOf(script, {
              messages: Array.isArray(body.messages) ? (body.messages as Message[]) : [],
              isPrompt: (m) => m.role === 'user',
              textOf,
              isAnswer: (m) => m.role === 'assistant',
            });
      const planned = key === null ? undefined : script[key][step];
      if (planned !== undefined && !Array.isArray(planned)) {
        sendJson(res, planned.error.status, {
          error: { message: planned.error.message, type: 'invalid_request_error' },
        });
      } else {
        const blocks = planned ?? [{ type: 'text', text: key === null ? 'A title' : 'Nothing more to do.' }];
        startSse(res);
        for (const chunk of chunks(blocks)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        res.end('data: [DONE]\n\n');
      }
      return { path, tools, matched: key, step };
    },
  });
}
