// The MCP tools of `turnback mcp` (docs/api.md "MCP server"): each one call of the terminal's
// operations, answered as JSON text (a patch as plain text). The workspace is the server's cwd,
// found again on every call, so a restarted service is picked up. An active turn is never undone.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  applyUndo,
  diffTurn,
  previewUndo,
  recentTurns,
  showTurn,
  undoTarget,
  type UndoOptions,
} from '../client/operations.js';
import { uriOfPath } from '../client/paths.js';
import { locateTurn } from '../client/turn-ref.js';
import type { WorkspaceClient } from '../client/workspace.js';
import { json, text, workspaceRunner, type McpPlace } from './answers.js';
import { registerPointTools } from './point-tools.js';

const turn = z.string().min(1).describe('the turn: its number in the session, "last", or a unique prefix of its id');
const session = z
  .string()
  .min(1)
  .optional()
  .describe('a session id or unique prefix; default: the most recently active session');
const paths = z.array(z.string().min(1)).describe('paths relative to the workspace folder, or workspace:/ URIs');

const steps = z
  .array(z.number().int().min(1))
  .min(1)
  .optional()
  .describe(
    "only what these steps of the turn changed (each step's index, as show_turn lists them); not with paths or withChat",
  );
const keepBoth = z
  .boolean()
  .optional()
  .describe('on a conflicting file: leave it as it is and write the restored version beside it');

/** A path as typed, or a `workspace:/…` URI copied from an earlier answer. */
function uris(ws: WorkspaceClient, cwd: string, typed: string[] | undefined): string[] | undefined {
  return typed?.map((item) => (item.startsWith('workspace:/') ? item : uriOfPath(ws.workspace.root, cwd, item)));
}

export function registerTools(server: McpServer, place: McpPlace): void {
  const withWorkspace = workspaceRunner(place);
  type UndoArgs = { paths?: string[]; steps?: number[]; withChat?: boolean; force?: boolean; keepBoth?: boolean };
  const undoOptions = (ws: WorkspaceClient, args: UndoArgs): UndoOptions => ({
    uris: uris(ws, place.cwd, args.paths),
    steps: args.steps,
    withChat: args.withChat,
    force: args.force,
    keepBoth: args.keepBoth,
  });

  server.registerTool(
    'list_turns',
    {
      title: 'List turns',
      description:
        'The recorded agent turns of this workspace, newest first: number, id, title, files, line counts, status.',
      inputSchema: { limit: z.number().int().min(1).max(1000).optional(), session },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      withWorkspace(async (ws) =>
        json({ turns: (await recentTurns(ws, args.limit ?? 20, args.session)).map(({ turn: t }) => t) }),
      )(),
  );

  server.registerTool(
    'show_turn',
    {
      title: 'Show a turn',
      description:
        'One turn: its files with their changes, its steps (each tool call or shell command, by index) and the shell commands it ran.',
      inputSchema: { turn, session },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const shown = await showTurn(ws, args.turn, args.session);
        return json({ ...shown.manifest, steps: shown.steps });
      })(),
  );

  server.registerTool(
    'diff_turn',
    {
      title: 'Diff a turn',
      description: "The turn's change as a unified diff, of every file or of the paths given.",
      inputSchema: { turn, paths: paths.optional(), session },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const located = await locateTurn(ws, args.turn, args.session);
        const diffs = await diffTurn(ws, located, uris(ws, place.cwd, args.paths) ?? [], (uri) =>
          uri.replace(/^workspace:\//, ''),
        );
        return text(diffs.map((d) => d.patch).join('') || 'no changes');
      })(),
  );

  server.registerTool(
    'preview_undo',
    {
      title: 'Preview an undo',
      description:
        'What undoing the turn would do (restore, remove, move back), with each conflict and the later turn behind it. Changes nothing. Default turn: the latest agent turn of the most recent session.',
      inputSchema: {
        turn: turn.optional(),
        paths: paths.optional(),
        steps,
        withChat: z.boolean().optional(),
        keepBoth,
        session,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const located = await undoTarget(ws, args.turn, args.session);
        return json({ turn: located.turn, plan: await previewUndo(ws, located, undoOptions(ws, args)) });
      })(),
  );

  server.registerTool(
    'undo_turn',
    {
      title: 'Undo a turn',
      description:
        "Rolls the turn's changes back exactly, or only those of the steps given (never the session's active turn). Refused on a conflict unless force or keepBoth. Default turn: the latest agent turn of the most recent session.",
      inputSchema: {
        turn: turn.optional(),
        paths: paths.optional(),
        steps,
        withChat: z.boolean().optional(),
        force: z.boolean().optional(),
        keepBoth,
        session,
      },
      annotations: { destructiveHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const located = await undoTarget(ws, args.turn, args.session);
        const result = await applyUndo(ws, located, undoOptions(ws, args));
        return { ...json({ turn: located.turn, result }), isError: !result.ok };
      })(),
  );

  server.registerTool(
    'restore_files',
    {
      title: 'Restore files',
      description:
        'Puts the chosen paths back as they were before the turn, leaving every other file as it is. Refused on a conflict unless force.',
      inputSchema: { paths: paths.min(1), fromTurn: turn, force: z.boolean().optional(), keepBoth, session },
      annotations: { destructiveHint: true },
    },
    (args) =>
      withWorkspace(async (ws) => {
        const located = await undoTarget(ws, args.fromTurn, args.session);
        const result = await applyUndo(ws, located, undoOptions(ws, args));
        return { ...json({ turn: located.turn, result }), isError: !result.ok };
      })(),
  );

  registerPointTools(server, withWorkspace);
}
