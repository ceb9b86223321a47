// A minimal JSON POST to the service's agent API over its Unix socket (service.sock in the 0700
// state dir: the agent token never goes to a TCP port another user could have taken), with
// node:http (cheaper to load than fetch, which pulls in undici on first use).
import { request } from 'node:http';

export interface AgentTarget {
  socketPath: string;
  agentToken: string;
}

export interface AgentAnswer {
  status: number;
  body: string;
}

/** POSTs `json` (already serialized) to `path` on the target server. */
export function postAgent(target: AgentTarget, path: string, json: string, signal: AbortSignal): Promise<AgentAnswer> {
  const payload = Buffer.from(json, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: target.socketPath,
        method: 'POST',
        path,
        signal,
        // One request per process: a kept-alive socket would only delay the exit.
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': payload.length,
          Authorization: `Bearer ${target.agentToken}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
