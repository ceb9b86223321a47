// The MCP tools of `turnback mcp` (docs/api.md "MCP server"): each one call of the terminal's
// operations, answered as JSON text (a patch as plain text). The workspace is the server's cwd,
// found again on every call, so a restarted service is picked up. An active turn is never undone.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CliError } from '../client/errors.js';
import {
  applyUndo, diffTurn, previewUndo, recentTurns, showTurn, undoTarget, type UndoOptions,
} from '../client/operations.js';
import { uriOfPath } from '../client/paths.js';
import { connectService } from '../client/service.js';
import { locateTurn } from '../client/turn-ref.js';
import { openWorkspace, type WorkspaceClient } from '../client/workspace.js';

export interface McpPlace {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How to run `turnback` itself, to start the service when none answers. */
  bin: string[];
}

const turn = z.string().min(1).describe('the turn: its number in the session, "last", or a unique prefix of its id');
const session = z.string().min(1).optional().describe('a session id or unique prefix; default: the most recently active session');
const paths = z.array(z.string().min(1)).describe('paths relative to the workspace folder, or workspace:/ URIs');

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

/** A path as typed, or a `workspace:/…` URI copied from an earlier answer. */
function uris(ws: WorkspaceClient, cwd: string, typed: string[] | undefined): string[] | undefined {
  return typed?.map((item) => (item.startsWith('workspace:/') ? item : uriOfPath(ws.workspace.root, cwd, item)));
}

export function registerTools(server: McpServer, place: McpPlace): void {
  const withWorkspace = (work: (ws: WorkspaceClient) => Promise<CallToolResult>) => async (): Promise<CallToolResult> => {
    try {
      return await work(await openWorkspace(await connectService(place.env, place.bin), place.cwd));
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}` }] };
    }
  };
  const undoOptions = (ws: WorkspaceClient, args: { paths?: string[]; withChat?: boolean; force?: boolean }): UndoOptions => ({
    uris: uris(ws, place.cwd, args.paths), withChat: args.withChat, force: args.force,
  });

  server.registerTool('list_turns', {
    title: 'List turns',
    description: 'The recorded agent turns of this workspace, newest first: number, id, title, files, line counts, status.',
    inputSchema: { limit: z.number().int().min(1).max(1000).optional(), session },
    annotations: { readOnlyHint: true },
  }, (args) => withWorkspace(async (ws) => json({ turns: (await recentTurns(ws, args.limit ?? 20, args.session)).map(({ turn: t }) => t) }))());

  server.registerTool('show_turn', {
    title: 'Show a turn',
    description: 'One turn: its files with their changes, and the shell commands it ran.',
    inputSchema: { turn, session },
    annotations: { readOnlyHint: true },
  }, (args) => withWorkspace(async (ws) => json((await showTurn(ws, args.turn, args.session)).manifest))());

  server.registerTool('diff_turn', {
    title: 'Diff a turn',
    description: "The turn's change as a unified diff, of every file or of the paths given.",
    inputSchema: { turn, paths: paths.optional(), session },
    annotations: { readOnlyHint: true },
  }, (args) => withWorkspace(async (ws) => {
    const located = await locateTurn(ws, args.turn, args.session);
    const diffs = await diffTurn(ws, located, uris(ws, place.cwd, args.paths) ?? [], (uri) => uri.replace(/^workspace:\//, ''));
    return text(diffs.map((d) => d.patch).join('') || 'no changes');
  })());

  server.registerTool('preview_undo', {
    title: 'Preview an undo',
    description: 'What undoing the turn would do (restore, remove, move back), with each conflict and the later turn behind it. Changes nothing. Default turn: the latest agent turn of the most recent session.',
    inputSchema: { turn: turn.optional(), paths: paths.optional(), withChat: z.boolean().optional(), session },
    annotations: { readOnlyHint: true },
  }, (args) => withWorkspace(async (ws) => {
    const located = await undoTarget(ws, args.turn, args.session);
    return json({ turn: located.turn, plan: await previewUndo(ws, located, undoOptions(ws, args)) });
  })());

  server.registerTool('undo_turn', {
    title: 'Undo a turn',
    description: "Rolls the turn's changes back exactly (never the session's active turn). Refused on a conflict unless force. Default turn: the latest agent turn of the most recent session.",
    inputSchema: { turn: turn.optional(), paths: paths.optional(), withChat: z.boolean().optional(), force: z.boolean().optional(), session },
    annotations: { destructiveHint: true },
  }, (args) => withWorkspace(async (ws) => {
    const located = await undoTarget(ws, args.turn, args.session);
    const result = await applyUndo(ws, located, undoOptions(ws, args));
    return { ...json({ turn: located.turn, result }), isError: !result.ok };
  })());

  server.registerTool('restore_files', {
    title: 'Restore files',
    description: 'Puts the chosen paths back as they were before the turn, leaving every other file as it is. Refused on a conflict unless force.',
    inputSchema: { paths: paths.min(1), fromTurn: turn, force: z.boolean().optional(), session },
    annotations: { destructiveHint: true },
  }, (args) => withWorkspace(async (ws) => {
    const located = await undoTarget(ws, args.fromTurn, args.session);
    const result = await applyUndo(ws, located, undoOptions(ws, args));
    return { ...json({ turn: located.turn, result }), isError: !result.ok };
  })());
}
