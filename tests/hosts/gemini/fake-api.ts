// The Gemini API dialect of the test kit's scripted fake API (testkit/hosts), so the real Gemini
// CLI runs whole turns with no network (it is pointed here by GOOGLE_GEMINI_BASE_URL): `POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered as SSE, and the CLI's side
// calls (`:generateContent`, `:countTokens`) answered plainly; one model message a step (counted
// by the model messages since the prompt). A step may also be an API error.
import {
  sendJson,
  startFakeApi as startServer,
  stepOf,
  type FakeApi,
  type Script as ScriptOf,
} from '../../../server/testkit/hosts/fake-api.js';

export type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export type Step = Part[] | { error: { status: number; message: string } };

export type Script = ScriptOf<Step>;

type Content = { role?: string; parts?: { text?: string; functionResponse?: unknown }[] };

const isPrompt = (c: Content) =>
  c.role === 'user' &&
  (c.parts ?? []).some((p) => typeof p.text === 'string') &&
  !(c.parts ?? []).some((p) => p.functionResponse !== undefined);
const textOf = (c: Content) => (c.parts ?? []).map((p) => p.text ?? '').join('\n');

const toolNames = (body: Record<string, unknown>): string[] =>
  (Array.isArray(body.tools) ? (body.tools as { functionDeclarations?: { name: string }[] }[]) : []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );

const answer = (parts: Part[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-2.5-pro',
});

export function startFakeApi(script: Script): Promise<FakeApi> {
  return startServer({
    answer: ({ method, path, body }, res) => {
      if (path.includes(':countTokens')) {
        sendJson(res, 200, { totalTokens: 10 });
        return null;
      }
      const streaming = path.includes(':streamGenerateContent');
      if (method !== 'POST' || !(streaming || path.includes(':generateContent'))) {
        sendJson(res, 404, { error: { code: 404, message: 'not here', status: 'NOT_FOUND' } });
        return null;
      }
      // Side calls (routing, next-speaker checks) carry no tools: a plain answer, no script step.
      const tools = toolNames(body);
      // The latest prompt the script knows (the CLI may add context messages of its own after it).
      const { key, step } =
        tools.length === 0
          ? { key: null, step: 0 }
          : stepOf(script, {
              messages: Array.isArray(body.contents) ? (body.contents as Content[]) : [],
              isPrompt,
              textOf,
              isAnswer: (c) => c.role === 'model',
            });
      const planned = key === null ? undefined : script[key][step];
      if (planned !== undefined && !Array.isArray(planned)) {
        sendJson(res, planned.error.status, {
          error: { code: planned.error.status, message: planned.error.message, status: 'INVALID_ARGUMENT' },
        });
      } else {
        const parts = planned ?? [{ text: key === null ? 'OK.' : 'Nothing more to do.' }];
        if (!streaming) sendJson(res, 200, answer(parts));
        else {
          res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
          res.end(`data: ${JSON.stringify(answer(parts))}\r\n\r\n`);
        }
      }
      return { path, tools, matched: key, step };
    },
  });
}
