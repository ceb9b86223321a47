// A minimal MCP server over stdio (newline-delimited JSON-RPC 2.0) for the real-CLI suites: one
// tool, `write`, that writes a file in the cwd behind the agent's back, as MCP tools do.
// Each host names it its own way (`mcp__files__write`, `mcp_files_write`, `files_write`); turnback
// cannot see into it and scans around it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';

type Request = { jsonrpc: '2.0'; id?: number | string; method: string; params?: Record<string, any> };

const TOOLS = [
  {
    name: 'write',
    description: 'Writes text to a file under the current folder.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, text: { type: 'string' } },
      required: ['path', 'text'],
    },
  },
];

function answer(request: Request): unknown {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'files', version: '1.0.0' },
      };
    case 'tools/list':
      return { tools: TOOLS };
    case 'tools/call': {
      const { path, text } = request.params?.arguments ?? {};
      const target = resolve(process.cwd(), String(path));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, String(text));
      return { content: [{ type: 'text', text: `wrote ${path}` }] };
    }
    default:
      return {};
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let request: Request;
  try {
    request = JSON.parse(line) as Request;
  } catch {
    return;
  }
  // Notifications (no id) get no answer.
  if (request.id === undefined) return;
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: answer(request) })}\n`);
});
