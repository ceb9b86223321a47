// The skeleton of the scripted stand-ins for the model APIs on 127.0.0.1, so a real agent CLI
// runs whole turns with no network. A script maps a text the turn's prompt contains to its
// steps, one model answer per model call: the step is chosen by how many model answers already
// follow that prompt in the request, so the answers depend on the conversation alone (a
// sub-agent's conversation starts with its own prompt, so it has its own script). Each host's
// fake-api.ts is a dialect: which path is the model's, how a conversation reads, how an answer
// or an API error is written on the wire. This part serves it and logs every call.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Prompt text (a substring) → the model's answers in that conversation, in order. */
export type Script<Step> = Record<string, Step[]>;

export interface ApiRequest {
  path: string;
  tools: string[];
  /** The script key its conversation matched, or null. */
  matched: string | null;
  step: number;
  /** The request's JSON body as it came (what the model was sent). */
  body?: string;
}

export interface FakeApi {
  url: string;
  requests: ApiRequest[];
  close(): Promise<void>;
}

export interface Dialect {
  /** Answers one call (its JSON body already read); what it returns is logged, null for a call left out of the log. */
  answer(call: { method: string; path: string; body: Record<string, unknown> }, res: ServerResponse): ApiRequest | null;
}

let ids = 0;
/** A fresh id for a message, a call or a response: `<prefix><8 base-36 digits>`. */
export const nextId = (prefix: string): string => `${prefix}${(++ids).toString(36).padStart(8, '0')}`;

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Starts a `text/event-stream` answer. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
}

/** The script key `text` holds, the one it names last when it holds several (a merged prompt), or null. */
export function latestKeyIn(text: string, keys: string[]): string | null {
  let key: string | null = null;
  for (const candidate of keys) {
    const at = text.lastIndexOf(candidate);
    if (at >= 0 && (key === null || at > text.lastIndexOf(key))) key = candidate;
  }
  return key;
}

export interface Conversation<M> {
  messages: M[];
  isPrompt(message: M): boolean;
  textOf(message: M): string;
  /** A model answer (its message or tool call): the step is how many follow the prompt. */
  isAnswer(message: M): boolean;
  /** Only the latest prompt counts (a prompt without a key is a side call), rather than the latest with a key. */
  latestPromptOnly?: boolean;
}

/** The step a call asks for: its conversation's prompt, and the messages since, of which the answers count. */
export function stepOf<M>(
  script: Script<unknown>,
  conversation: Conversation<M>,
): { key: string | null; step: number; since: M[] } {
  const { messages } = conversation;
  const keys = Object.keys(script);
  for (let i = messages.length - 1; i >= 0; i--) {
    if (!conversation.isPrompt(messages[i])) continue;
    const key = latestKeyIn(conversation.textOf(messages[i]), keys);
    if (key !== null) {
      const since = messages.slice(i + 1);
      return { key, step: since.filter((m) => conversation.isAnswer(m)).length, since };
    }
    if (conversation.latestPromptOnly) break;
  }
  return { key: null, step: 0, since: [] };
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

export async function startFakeApi(dialect: Dialect): Promise<FakeApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readJson(req);
    const logged = dialect.answer({ method: req.method ?? 'GET', path: req.url ?? '', body }, res);
    if (logged) requests.push({ ...logged, body: JSON.stringify(body) });
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
