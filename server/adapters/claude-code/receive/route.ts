// The server route of the Claude Code adapter, `POST /api/agent/hook/claude-code` (API.md):
// one raw hook event in, the engine calls it maps to. The CLI hands it to the HTTP server,
// which serves it next to its own table without knowing any adapter.
import type { Engine } from '../../../engine/api.js';
import { BadRequestError } from '../../../engine/errors.js';
import type { Route } from '../../../http/types.js';
import type { AgentClaudeCodeHookResponse } from '../../../protocol.js';
import type { AgentCall } from './calls.js';
import { receiveHookEvent } from './receive.js';

export const CLAUDE_CODE_HOOK_PATH = '/api/agent/hook/claude-code';

function runCall(engine: Engine, { path, body }: AgentCall): Promise<unknown> {
  const b = body as never;
  switch (path) {
    case '/api/agent/input': return engine.input(b);
    case '/api/agent/message': return engine.message(b);
    case '/api/agent/turn-end': return engine.turnEnd(b);
    case '/api/agent/exec': return engine.exec(b);
    case '/api/agent/before-mutate': return engine.beforeMutate(b);
  }
}

export function claudeCodeRoutes(): Route[] {
  return [{
    method: 'POST',
    pattern: CLAUDE_CODE_HOOK_PATH,
    handler: async ({ body }, { engine }) => {
      const result = await receiveHookEvent(body, engine.workspace, (call) => runCall(engine, call));
      if (!result.ok) throw new BadRequestError(`malformed hook event: ${result.malformed}`);
      const answer: AgentClaudeCodeHookResponse = { ok: true, outcome: result.outcome };
      return { body: answer };
    },
  }];
}
