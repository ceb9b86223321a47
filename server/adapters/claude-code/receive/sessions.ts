// What the server remembers of each Claude Code session between two hook events, in memory:
// the prompt of the turn in progress (its chat is read from the transcript when the turn
// ends) and the commands still running, by the tool_use_id that links a PreToolUse to its
// PostToolUse, and the tool_use_ids of every tool call the turn's hooks announced (the turn's
// end waits until the transcript holds them all). A restart loses nothing that matters: closing the engine commits every active
// turn (and runs the after scans of every command still open).

export interface SessionState {
  prompt: string;
  /** tool_use_id → execId, for commands whose end is reported by PostToolUse. */
  commands: Map<string, string>;
  /** Every tool_use_id a PreToolUse of this turn carried. */
  toolUses: Set<string>;
}

/** Sessions Claude Code left without an end (killed) are forgotten, oldest first, past this many. */
const MAX_SESSIONS = 1000;

export class SessionStates {
  private readonly states = new Map<string, SessionState>();

  /** A new turn of `sessionId` begins with `prompt`. */
  begin(sessionId: string, prompt: string): void {
    this.states.delete(sessionId);
    this.states.set(sessionId, { prompt, commands: new Map(), toolUses: new Set() });
    if (this.states.size > MAX_SESSIONS) this.states.delete(this.states.keys().next().value as string);
  }

  get(sessionId: string): SessionState | undefined {
    return this.states.get(sessionId);
  }

  /** The turn of `sessionId` is over: its state, if there was one, and forgets it. */
  end(sessionId: string): SessionState | undefined {
    const state = this.states.get(sessionId);
    this.states.delete(sessionId);
    return state;
  }
}
