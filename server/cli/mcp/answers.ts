// What every MCP tool of `turnback mcp` shares: the folder it serves, its answers as JSON or plain
// text, and the run of its work against that folder's workspace (found again on every call, so a
// restarted service is picked up), a refusal or bad input answered as the tool's error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CliError } from '../client/errors.js';
import { connectService } from '../client/service.js';
import { openWorkspace, type WorkspaceClient } from '../client/workspace.js';

export interface McpPlace {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How to run `turnback` itself, to start the service when none answers. */
  bin: string[];
  /** The calling agent's session, as its host tells it (agent-scope.ts); undefined when it does not. */
  session?: string;
}

export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
export const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

export type WithWorkspace = (work: (ws: WorkspaceClient) => Promise<CallToolResult>) => () => Promise<CallToolResult>;

export function workspaceRunner(place: McpPlace): WithWorkspace {
  return (work) => async () => {
    try {
      return await work(await openWorkspace(await connectService(place.env, place.bin), place.cwd));
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}` }] };
    }
  };
}
