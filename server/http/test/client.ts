// A raw HTTP client for the tests: unlike fetch it lets a test send any Host, Origin or
// request target, and read every header of the answer.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface TestAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

export interface TestRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON with `Content-Type: application/json` unless headers say otherwise. */
  body?: unknown;
  token?: string;
}

export function send(port: number, req: TestRequest): Promise<TestAnswer> {
  const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, ...req.headers };
  if (req.token !== undefined) headers.Authorization = `Bearer ${req.token}`;
  let payload: Buffer | undefined;
  if (req.body !== undefined) {
    payload = Buffer.isBuffer(req.body)
      ? req.body
      : Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers, setHost: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Writes bytes on a bare socket and collects whatever comes back until the server closes. */
export function sendRaw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(err)));
    socket.write(bytes);
  });
}
