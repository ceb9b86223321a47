// A scripted stand-in for the Gemini API on 127.0.0.1, so the real Gemini CLI runs whole turns
// with no network (it is pointed here by GOOGLE_GEMINI_BASE_URL): `POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered as SSE, and the CLI's side
// calls (`:generateContent`, `:countTokens`) answered plainly. A script maps a text the turn's
// prompt contains to its steps, one model message per model call: the step is chosen by how
// many model messages already follow that prompt in the request, so the answers depend on the
// conversation alone (a sub-agent's conversation starts with its own prompt, so it has its own
// script). A step may also be an API error.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export type Step = Part[] | { error: { status: number; message: string } };

/** Prompt text (a substring) → the model messages of that conversation, in order. */
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

type Content = { role?: string; parts?: { text?: string; functionResponse?: unknown }[] };

const isPrompt = (c: Content) =>
  c.role === 'user' &&
  (c.parts ?? []).some((p) => typeof p.text === 'string') &&
  !(c.parts ?? []).some((p) => p.functionResponse !== undefined);
const textOf = (c: Content) => (c.parts ?? []).map((p) => p.text ?? '').join('\n');

/** The step a request asks for: its conversation's prompt and how far past it the conversation is. */
function stepFor(script: Script, contents: Content[]): { key: string | null; step: number } {
  let prompt = -1;
  let key: string | null = null;
  // The latest prompt the script knows (the CLI may add context messages of its own after it).
  for (let i = contents.length - 1; i >= 0 && key === null; i--) {
    if (!isPrompt(contents[i])) continue;
    const text = textOf(contents[i]);
    for (const candidate of Object.keys(script)) {
      if (text.includes(candidate) && (key === null || text.lastIndexOf(candidate) > text.lastIndexOf(key)))
        key = candidate;
    }
    if (key !== null) prompt = i;
  }
  if (key === null) return { key: null, step: 0 };
  return { key, step: contents.slice(prompt + 1).filter((c) => c.role === 'model').length };
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

const toolNames = (body: Record<string, unknown>): string[] =>
  (Array.isArray(body.tools) ? (body.tools as { functionDeclarations?: { name: string }[] }[]) : []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );

const answer = (parts: Part[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-2.5-pro',
});

export async function startFakeApi(script: Script): Promise<FakeApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '';
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (path.includes(':countTokens')) return json(200, { totalTokens: 10 });
    const streaming = path.includes(':streamGenerateContent');
    if (req.method !== 'POST' || !(streaming || path.includes(':generateContent'))) {
      return json(404, { error: { code: 404, message: 'not here', status: 'NOT_FOUND' } });
    }
    const contents = Array.isArray(body.contents) ? (body.contents as Content[]) : [];
    // Side calls (routing, next-speaker checks) carry no tools: a plain answer, no script step.
    const tools = toolNames(body);
    const { key, step } = tools.length === 0 ? { key: null, step: 0 } : stepFor(script, contents);
    requests.push({ path, tools, matched: key, step });
    const planned = key === null ? undefined : script[key][step];
    if (planned !== undefined && !Array.isArray(planned)) {
      return json(planned.error.status, {
        error: { code: planned.error.status, message: planned.error.message, status: 'INVALID_ARGUMENT' },
      });
    }
    const parts = planned ?? [{ text: key === null ? 'OK.' : 'Nothing more to do.' }];
    if (!streaming) return json(200, answer(parts));
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.end(`data: ${JSON.stringify(answer(parts))}\r\n\r\n`);
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
