// Maps a parsed hook event to the agent API calls of API.md, in the order they must run.
// The server runs them against its own engine (receive.ts); nothing here touches the disk
// beyond resolving paths, so the mapping is the same whoever asks.
import { resolve } from 'node:path';
import type { HookEvent } from '../event.js';
import { relativeInsideAnyForm, workspaceUri } from '../paths.js';

export const PLATFORM = 'claude-code';
export const SESSION_TYPE = 'cli';

/** The agent routes a hook event turns into. */
export type AgentCallPath =
  | '/api/agent/input'
  | '/api/agent/message'
  | '/api/agent/turn-end'
  | '/api/agent/exec'
  | '/api/agent/before-mutate';

export interface AgentCall {
  path: AgentCallPath;
  body: Record<string, unknown>;
}

export type CallPlan = { calls: AgentCall[] } | { skip: string };

/**
 * A stop's reply is `event.lastAssistantMessage`: whoever reads a transcript for it does so
 * before calling this.
 */
export function callsFor(event: HookEvent, workspace: string): CallPlan {
  const sessionId = event.sessionId;
  switch (event.kind) {
    case 'prompt':
      return {
        calls: [{
          path: '/api/agent/input',
          body: { sessionId, platform: PLATFORM, sessionType: SESSION_TYPE, content: event.prompt },
        }],
      };
    case 'shell':
      return { calls: [{ path: '/api/agent/exec', body: { sessionId, tool: 'exec', command: event.command } }] };
    case 'file-change':
      return fileChangeCalls(event.sessionId, resolve(event.cwd, event.path), workspace);
    case 'stop': {
      const reply = event.lastAssistantMessage;
      const calls: AgentCall[] = [];
      if (reply !== null) {
        calls.push({ path: '/api/agent/message', body: { sessionId, role: 'assistant', content: reply } });
      }
      calls.push({ path: '/api/agent/turn-end', body: { sessionId } });
      return { calls };
    }
  }
}

/** The engine itself records the parent folders a write will create, so a rollback removes them. */
function fileChangeCalls(sessionId: string, absolutePath: string, workspace: string): CallPlan {
  const relativePath = relativeInsideAnyForm(workspace, absolutePath);
  if (relativePath === null) return { skip: `path outside the workspace: ${absolutePath}` };
  if (relativePath === '') return { skip: 'path is the workspace itself' };
  return {
    calls: [{ path: '/api/agent/before-mutate', body: { sessionId, op: 'write', uri: workspaceUri(relativePath) } }],
  };
}
