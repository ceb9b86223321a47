// Reads a Server-Sent Events stream in tests: collects the raw text and waits for a pattern.
import { request, type IncomingMessage } from 'node:http';

export interface SseReader {
  status: number;
  headers: IncomingMessage['headers'];
  text(): string;
  waitFor(pattern: string | RegExp): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

export function openSse(port: number, headers: Record<string, string>, path = '/api/events'): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { Host: `127.0.0.1:${port}`, Accept: 'text/event-stream', ...headers },
      },
      (incoming) => {
        let text = '';
        const waiters: { pattern: string | RegExp; done: () => void }[] = [];
        const matches = (pattern: string | RegExp) =>
          typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => {
          text += chunk;
          for (const waiter of [...waiters]) {
            if (matches(waiter.pattern)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.done();
            }
          }
        });
        const ended = new Promise<void>((done) => {
          incoming.on('end', done);
          incoming.on('close', done);
        });
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          text: () => text,
          waitFor: (pattern) =>
            new Promise<void>((done) => {
              if (matches(pattern)) done();
              else waiters.push({ pattern, done });
            }),
          ended,
          close: () => outgoing.destroy(),
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
