// Maps a parsed hook event to the agent API calls of API.md, in the order they must run.
import { resolve } from 'node:path';
import type { AgentCall } from './client.js';
import type { HookEvent } from './event.js';
import { lastAssistantText } from './transcript.js';
import { relativeInsideAnyForm, workspaceUri } from './paths.js';

export const PLATFORM = 'claude-code';
export const SESSION_TYPE = 'cli';

export type CallPlan = { calls: AgentCall[] } | { skip: string };

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
      const reply = event.lastAssistantMessage ?? (event.transcriptPath ? lastAssistantText(event.transcriptPath) : null);
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
