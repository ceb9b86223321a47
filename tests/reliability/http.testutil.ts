// One raw HTTP exchange over loopback with full control of the target and headers (no
// normalisation by a client library), answering status, headers and the body text.
import { request, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  timeoutMs = 20_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, method, path: target, headers, agent: false, setHost: !('host' in lower(headers)) },
      (res) => {
        // An event stream never ends by itself: its head is the answer.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`timeout ${method} ${target}`)));
    r.on('error', reject);
    r.end(body);
  });
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The `{error: {code, message}}` body of docs/api.md, or a description of what is wrong with it. */
export function errorBodyProblem(answer: RawAnswer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} without a JSON body: ${answer.text.slice(0, 80)}`;
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') {
    return `status ${answer.status} without {error: {code, message}}: ${answer.text.slice(0, 80)}`;
  }
  return null;
}
