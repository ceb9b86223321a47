// The MCP tools of `turnback mcp` (docs/api.md "MCP server"): each one call of the terminal's
// operations, answered as JSON text (a patch as plain text). The workspace is the server's cwd,
// found again on every call, so a restarted service is picked up. The tools act as the calling
// agent (agent-scope.ts): agent turns only, an active turn never, the person asked first before
// overwriting what someone else changed (person-yes.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { applyUndo, diffTurn, previewUndo, recentTurns, showTurn, type UndoOptions } from '../client/operations.js';
import { uriOfPath } from '../client/paths.js';
import { locateTurn } from '../client/turn-ref.js';
import type { WorkspaceClient } from '../client/workspace.js';
import { json, text, workspaceRunner, type McpPlace } from './answers.js';
import { agentUndoTarget, findCaller, type AgentTarget } from './agent-scope.js';
import { changedByOthers, requirePersonsYes } from './person-yes.js';
import { registerPointTools } from './point-tools.js';

const turn = z.string().min(1).describe('the turn: its number in the session, "last", or a unique prefix of its id');
const session = z
  .string()
  .min(1)
  .optional()
  .describe("a session id or unique prefix; default: the calling agent's session (else the most recently active one)");

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The host's id of the tool call asking (Claude Code sends it as `claudecode/toolUseId`): the step the undo is recorded as. */
function toolCallOf(extra: Extra): string | undefined {
  const id = extra._meta?.['claudecode/toolUseId'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}
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
  type UndoArgs = {
    paths?: string[];
    steps?: number[];
    withChat?: boolean;
    force?: boolean;
    keepBoth?: boolean;
    onlyHere?: boolean;
  };
  const undoOptions = (ws: WorkspaceClient, args: UndoArgs): UndoOptions => ({
    uris: uris(ws, place.cwd, args.paths),
    steps: args.steps,
    withChat: args.withChat,
    force: args.force,
    keepBoth: args.keepBoth,
    onlyHere: args.onlyHere,
  });
  const target = async (ws: WorkspaceClient, tool: string, ref: string | undefined, sessionFlag: string | undefined) =>
    agentUndoTarget(ws, ref, sessionFlag, await findCaller(ws, place.session, tool));
  /** The undo as the agent: the person's yes first for force or keep-both over others' changes, inside the asking turn when there is one. */
  const undoAsAgent = async (ws: WorkspaceClient, located: AgentTarget, args: UndoArgs, extra: Extra) => {
    const options = undoOptions(ws, args);
    if (options.force || options.keepBoth) {
      const plan = await previewUndo(ws, located, options);
      await requirePersonsYes(server, ws, located, options, await changedByOthers(ws, plan, located.caller));
    }
    if (located.asking) {
      const stepId = toolCallOf(extra);
      options.inTurn = { turnId: located.asking, stepId, stepTitle: `Undo of #${located.turn.number}` };
    }
    const result = await applyUndo(ws, located, options);
    return { ...json({ turn: located.turn, result }), isError: !result.ok };
  };

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
        "What undoing the turn would do (restore, remove, move back), with each conflict and the later turn behind it. Changes nothing. Default turn: the latest agent turn of the caller's session before the one asking.",
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
        const located = await target(ws, 'preview_undo', args.turn, args.session);
        return json({ turn: located.turn, plan: await previewUndo(ws, located, undoOptions(ws, args)) });
      })(),
  );

  server.registerTool(
    'undo_turn',
    {
      title: 'Undo a turn',
      description:
        "Rolls an agent turn's changes back exactly, or only those of the steps given. Default turn: the latest agent turn of the caller's session before the one asking; asked during that turn, the undo is recorded in it. Never a running turn nor a rollback the person made. Refused on a conflict unless force or keepBoth; over a path someone other than this agent changed, those need the person's yes.",
      inputSchema: {
        turn: turn.optional(),
        paths: paths.optional(),
        steps,
        withChat: z.boolean().optional(),
        force: z.boolean().optional(),
        keepBoth,
        onlyHere: z
          .boolean()
          .optional()
          .describe("this project's turn alone, not the same prompt's linked turns in other projects"),
        session,
      },
      annotations: { destructiveHint: true },
    },
    (args, extra) =>
      withWorkspace(async (ws) =>
        undoAsAgent(ws, await target(ws, 'undo_turn', args.turn, args.session), args, extra),
      )(),
  );

  server.registerTool(
    'restore_files',
    {
      title: 'Restore files',
      description:
        "Puts the chosen paths back as they were before an agent turn, leaving every other file as it is. Refused on a conflict unless force; over a path someone other than this agent changed, force needs the person's yes.",
      inputSchema: { paths: paths.min(1), fromTurn: turn, force: z.boolean().optional(), keepBoth, session },
      annotations: { destructiveHint: true },
    },
    (args, extra) =>
      withWorkspace(async (ws) =>
        undoAsAgent(ws, await target(ws, 'restore_files', args.fromTurn, args.session), args, extra),
      )(),
  );

  registerPointTools(server, withWorkspace);
}
