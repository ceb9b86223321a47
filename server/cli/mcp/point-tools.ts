// The MCP tools for points of the person's own (docs/api.md "CLI: undo from the terminal"): pin
// the current state, list the pins, and compare the trees at two points (turns or pins).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { comparePoints } from '../client/compare.js';
import { json, text, type WithWorkspace } from './answers.js';

const point = z
  .string()
  .min(1)
  .describe('a turn (its number, "last", an id prefix) or a pin (pin:<n>, its name, an id prefix)');

export function registerPointTools(server: McpServer, withWorkspace: WithWorkspace): void {
  server.registerTool(
    'pin',
    {
      title: 'Pin this point',
      description:
        "Marks the workspace's current state as a named point that retention keeps; rewinding to it later takes every path changed since back. Refused while an agent turn is recorded.",
      inputSchema: {
        name: z.string().min(1).max(200).optional().describe('what the point is, e.g. "before the refactor"'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    (args) => withWorkspace(async (ws) => json({ pin: await ws.pin(args.name) }))(),
  );

  server.registerTool(
    'list_pins',
    {
      title: 'List pins',
      description: "The workspace's pins, oldest first: number (pin:<n>), id, time, name.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => withWorkspace(async (ws) => json({ pins: await ws.pins() }))(),
  );

  server.registerTool(
    'compare',
    {
      title: 'Compare two points',
      description:
        'A unified diff of every path whose state differs between the end of one point and the end of another (turns or pins).',
      inputSchema: {
        from: point,
        to: point,
        session: z
          .string()
          .min(1)
          .optional()
          .describe('the session of turn numbers; default: the most recently active one'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const { diffs } = await comparePoints(ws, args.from, args.to, [], args.session, (uri) =>
          uri.replace(/^workspace:\//, ''),
        );
        return text(diffs.map((d) => d.patch).join('') || 'no file differs');
      })(),
  );
}
