// One JSON request to the service over its Unix socket (service.sock in the 0700 state dir: the
// token never goes to a TCP port another user could have taken), with node:http: fetch would
// load undici on first use, about 150-200 ms of a terminal command's start (measured).
import { request } from 'node:http';

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

export function requestJson(
  socketPath: string,
  method: string,
  route: string,
  token: string,
  body: unknown,
  timeoutMs: number,
): Promise<JsonAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (payload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) });
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath, method, path: route, headers, timeout: timeoutMs }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? {} : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: incoming.statusCode ?? 0, json });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
