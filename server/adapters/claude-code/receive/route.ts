// The server route of the Claude Code adapter, `POST /api/agent/hook/claude-code` (docs/api.md):
// one raw hook event in, the engine calls it maps to. The CLI hands it to the HTTP server,
// which serves it next to its own table without knowing any adapter.
import { BadRequestError } from '../../../engine/errors.js';
import type { Route } from '../../../http/types.js';
import type { AgentClaudeCodeHookResponse } from '../../../protocol.js';
import { CLAUDE_CODE_HOOK_PATH } from '../event.js';
import { ClaudeCodeReceiver } from './receiver.js';

/** The routes of one server: its receiver keeps what links one hook event to the next. */
export function claudeCodeRoutes(): Route[] {
  const receiver = new ClaudeCodeReceiver();
  return [{
    method: 'POST',
    pattern: CLAUDE_CODE_HOOK_PATH,
    handler: async ({ body }, { engine }) => {
      const result = await receiver.receive(body, engine);
      if (!result.ok) throw new BadRequestError(`malformed hook event: ${result.malformed}`);
      const answer: AgentClaudeCodeHookResponse = result.outcome === 'forwarded'
        ? { ok: true, outcome: 'forwarded', calls: result.calls }
        : { ok: true, outcome: result.outcome, ignored: result.reason };
      return { body: answer };
    },
  }];
}
