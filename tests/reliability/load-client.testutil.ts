// A small, bounded loopback load client: N keep-alive connections, each running requests
// back to back until a deadline or a request budget; latencies and statuses are kept.
import { Agent, request } from 'node:http';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<number, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  firstErrors: string[];
}

export interface LoadOptions {
  port: number;
  connections: number;
  durationMs: number;
  /** Stops earlier once this many requests were sent. */
  maxRequests?: number;
  next: (worker: number, i: number) => LoadRequest;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const firstErrors: string[] = [];
  let errors = 0;
  let sent = 0;
  const deadline = Date.now() + opts.durationMs;
  const budget = opts.maxRequests ?? Number.POSITIVE_INFINITY;

  async function worker(w: number): Promise<void> {
    for (let i = 0; Date.now() < deadline && sent < budget; i++) {
      sent++;
      const started = performance.now();
      try {
        const status = await send(agent, opts.port, opts.next(w, i));
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch (e) {
        errors++;
        if (firstErrors.length < 5) firstErrors.push(String(e));
      }
      latencies.push(performance.now() - started);
    }
  }
  try {
    await Promise.all(Array.from({ length: opts.connections }, (_, w) => worker(w)));
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  return { requests: sent, errors, statuses, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), firstErrors };
}

/** Sends one request and drains the answer; resolves with the status code. */
export function send(agent: Agent, port: number, req: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, agent, headers: req.headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    r.setTimeout(30_000, () => r.destroy(new Error(`timeout ${req.method} ${req.path}`)));
    r.on('error', reject);
    r.end(req.body);
  });
}
