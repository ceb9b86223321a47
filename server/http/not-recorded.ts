// A host's hook event whose workspace cannot record (refused, store damaged, disk full) is
// answered 200 `not-recorded`, not an error: the hook then tells the person through the host's
// own channel, the first time for each session and reason (docs/api.md "Hook answers").
import type { AgentClaudeCodeHookResponse } from '../protocol.js';

/** Codes after which nothing is recorded in a workspace until a later request succeeds. */
export const STOPS_RECORDING = new Set([
  'NO_SPACE',
  'STORE_DAMAGED',
  'DATA_DIR_LOCKED',
  'DATA_DIR_NOT_PRIVATE',
  'SQLITE_READONLY',
  'SCHEMA_TOO_NEW',
  'WORKSPACE_REFUSED',
  'WORKSPACE_NOT_RECORDING',
  'WORKSPACE_LIMIT',
]);

export function stopsRecording(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STOPS_RECORDING.has(code);
}

/** Remembers what was told, so each session hears each reason once. */
export class Told {
  private readonly seen = new Set<string>();

  answer(sessionKey: string | undefined, error: unknown): AgentClaudeCodeHookResponse {
    const reason = oneLine((error as Error).message ?? String(error));
    const key = `${sessionKey ?? ''}\0${reason}`;
    const first = !this.seen.has(key);
    if (first) {
      this.seen.add(key);
      // Bounded: an old session hears a reason again rather than the set growing forever.
      if (this.seen.size > 10_000) this.seen.delete(this.seen.values().next().value as string);
    }
    return {
      ok: true,
      outcome: 'not-recorded',
      ignored: reason,
      ...(first ? { systemMessage: `turnback is not recording this session: ${reason}` } : {}),
    };
  }
}

/** One line without quotes or backslashes: the sh hook passes it on without a JSON parser. */
function oneLine(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/["\\]/g, "'")
    .slice(0, 400);
}
