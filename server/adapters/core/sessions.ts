// What the server remembers of each host session between two hook events, in memory: the turn
// in progress (its prompt, for reading its chat from the transcript when it ends), the calls
// still running by the call id that links a tool's start to its end, the call ids the turn's
// events announced (its end waits until the transcript holds them), the subagents started in
// it, and an end the host already reported while those still run. A restart loses nothing that
// matters: closing the engine commits every active turn (and runs the after scans of every
// command still open).
import type { Engine } from '../../engine/api.js';
import type { HostEvent } from './host.js';

export type TurnEndEvent = Extract<HostEvent, { kind: 'turn-end' }>;

export interface TurnState {
  prompt: string;
  /** callId (or a key of its own, for a call without one) → execId, for commands whose end is reported. */
  commands: Map<string, string>;
  /** Commands a later event of the session ended before their own end came (callId → execId). */
  endedEarly: Map<string, string>;
  /** Call ids of every command whose start this turn saw (background ones too): an end of another ran unseen. */
  started: Set<string>;
  /** Keys of `commands` that are sub-agents' calls: the session's later events run inside them. */
  nesting: Set<string>;
  /** The engine each command runs in (execId → engine): a session's events may reach several workspaces. */
  engineOf: Map<string, Engine>;
  /** Every workspace the turn is recorded in (its root → its engine): one turn in each, ended together. */
  engines: Map<string, Engine>;
  /** The turn's id in each of those workspaces (its root → turnId): linked to one another (Turn.linked). */
  turnIds: Map<string, string>;
  /** Every call id the main agent's events of this turn carried. */
  toolUses: Set<string>;
  /** Subagents started in this turn and not ended yet: the turn waits for them. */
  agents: Set<string>;
  /** Every subagent seen in this turn, ended or not. */
  seenAgents: Set<string>;
  /** The host ended the turn while subagents ran: the end waits for them (or its bound). */
  pendingEnd: { event: TurnEndEvent; timer: NodeJS.Timeout } | null;
}

/** Sessions a host left without an end (killed) are forgotten, oldest first, past this many. */
const MAX_SESSIONS = 1000;
/** Subagent ids of ended turns remembered per session, so a late call is never another turn's. */
const MAX_ENDED_AGENTS = 200;

interface SessionEntry {
  turn: TurnState | null;
  endedAgents: Set<string>;
}

export class SessionStates {
  private readonly sessions = new Map<string, SessionEntry>();

  private entry(sessionId: string): SessionEntry {
    let entry = this.sessions.get(sessionId);
    if (entry) {
      // Most recently used last: the oldest is the first to go.
      this.sessions.delete(sessionId);
    } else {
      entry = { turn: null, endedAgents: new Set() };
    }
    this.sessions.set(sessionId, entry);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return entry;
  }

  /** A new turn of `sessionId` begins with `prompt`. */
  begin(sessionId: string, prompt: string): TurnState {
    const turn: TurnState = {
      prompt,
      commands: new Map(),
      endedEarly: new Map(),
      started: new Set(),
      nesting: new Set(),
      engineOf: new Map(),
      engines: new Map(),
      turnIds: new Map(),
      toolUses: new Set(),
      agents: new Set(),
      seenAgents: new Set(),
      pendingEnd: null,
    };
    this.entry(sessionId).turn = turn;
    return turn;
  }

  get(sessionId: string): TurnState | undefined {
    return this.sessions.get(sessionId)?.turn ?? undefined;
  }

  /** Whether `agentId` was a subagent of a turn of `sessionId` that has ended. */
  endedAgent(sessionId: string, agentId: string): boolean {
    return this.sessions.get(sessionId)?.endedAgents.has(agentId) ?? false;
  }

  /** The turn of `sessionId` is over: its state, if there was one, and forgets it (its subagents stay known as ended). */
  end(sessionId: string): TurnState | undefined {
    const entry = this.sessions.get(sessionId);
    const turn = entry?.turn ?? undefined;
    if (!entry || !turn) return undefined;
    entry.turn = null;
    if (turn.pendingEnd) clearTimeout(turn.pendingEnd.timer);
    for (const agent of turn.seenAgents) entry.endedAgents.add(agent);
    while (entry.endedAgents.size > MAX_ENDED_AGENTS)
      entry.endedAgents.delete(entry.endedAgents.values().next().value as string);
    return turn;
  }
}
