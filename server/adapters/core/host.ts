// What every agent host is to turnback: a small mapping from its raw hook events to the
// host-neutral events below, plus where it keeps its transcripts and how it tells the person
// something. The receiver (receiver.ts) turns host-neutral events into engine calls, the same
// for every host, so the same undo holds whichever agent made the change (docs/api.md, "Agent hosts").
import type { ChatMessage, TranscriptItem } from './chat.js';

export interface HostEventBase {
  /** The host's session (Claude Code session_id, Cursor conversation_id): one engine session. */
  sessionId: string;
  /** The absolute folder the agent works in (Claude Code cwd, Cursor workspace_roots[0]). */
  cwd: string;
  /** Where the host says it writes the session's transcript; read only inside the host's own folders. */
  transcriptPath: string | null;
  /** A subagent's id (Claude Code agent_id), null for the main agent: its calls are the turn's that started it. */
  agentId: string | null;
}

export type HostEvent =
  /**
   * The person's prompt: a turn begins, titled by it. `continuesTurn`: a prompt the host wrote
   * itself (Claude Code's `<task-notification>` when a background subagent is done): the turn in
   * progress goes on, no turn begins.
   */
  | (HostEventBase & { kind: 'prompt'; prompt: string; continuesTurn?: boolean })
  /** A tool is about to change these files (paths absolute or relative to cwd): their states are recorded first. */
  | (HostEventBase & { kind: 'before-mutate'; tool: string; paths: string[]; callId: string | null })
  /** A tool turnback cannot see into (shell, MCP, unknown) is about to run: the before scan. */
  | (HostEventBase & {
      kind: 'exec';
      tool: string;
      command: string;
      callId: string | null;
      background: boolean;
      /** A sub-agent's call: the session's later tool calls run inside it, so they do not end it. */
      nests?: boolean;
    })
  /** That tool has returned, done or failed: the after scan. `command`: the call's, when the end carries it (its start may have been lost). */
  | (HostEventBase & { kind: 'exec-end'; tool: string; callId: string | null; command?: string })
  /** The agent's reply as the host reports it (Cursor's afterAgentResponse), for a host without transcripts. */
  | (HostEventBase & { kind: 'reply'; text: string })
  /** A subagent began (agentId set): the turn stays open until it ends. */
  | (HostEventBase & { kind: 'subagent-start' })
  /** A subagent ended (agentId set). */
  | (HostEventBase & { kind: 'subagent-end' })
  /**
   * The agent is done with the turn: its chat is read, then the turn ends (once its subagents
   * have ended too). `lastReply` is the reply as the event carries it (the transcript may lag).
   */
  | (HostEventBase & {
      kind: 'turn-end';
      event: string;
      lastReply: string | null;
      runningAgents?: string[];
      sessionEnded?: boolean;
    });

export type HostEventKind = HostEvent['kind'];

export type ParsedHostEvent =
  | { ok: true; event: HostEvent }
  /** A valid event turnback has no use for. */
  | { ok: false; ignored: true; reason: string }
  /** Not an event of this host at all. */
  | { ok: false; ignored: false; reason: string };

/** Collects one turn from a transcript's lines, given newest first (transcript/read.ts reads them, bounded). */
export interface TurnCollector {
  /** One whole line; true once the turn's prompt was reached, so nothing before it matters. */
  take(line: string): boolean;
  /** The turn's items in transcript order: what was collected up to its prompt (or the read's bound). */
  items(): TranscriptItem[];
  /**
   * Whether the lines taken hold the host's mark of the turn's end (Copilot CLI's log of its
   * agentStop hook): a turn's end waits briefly for it. Without it, no mark is awaited.
   */
  ended?(): boolean;
}

/** How a host's transcripts are read. */
export interface HostTranscripts {
  /** The folders the host keeps its transcripts in, for a home folder and environment: nothing elsewhere is read. */
  folders(home: string, env: NodeJS.ProcessEnv): string[];
  /** A collector for the turn prompted by `prompt` (null: the last turn). */
  collector(prompt: string | null): TurnCollector;
  /** The host may create a session's transcript only after its first turn has ended (Copilot CLI). */
  createdAfterEnd?: boolean;
}

/** What the host's hook prints so that the person sees `message` in the host's own channel. */
export interface HostNotice {
  stdout?: string;
  stderr?: string;
}

export interface HostAdapter {
  /** The route's `:host` and `turnback init <host>`'s name. */
  name: string;
  /** The engine session's platform and type (`claude-code`, `cli`). */
  platform: string;
  sessionType: string;
  /** Its raw event (the JSON its hook got on stdin) as a host-neutral one. */
  parse(raw: unknown): ParsedHostEvent;
  /** Where the chat comes from; a host without transcripts records only the replies its events carry. */
  transcripts?: HostTranscripts;
  /** The chat the person saw, from the turn's transcript items; defaults to chat.ts's chatOf. */
  chat?(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[];
  /**
   * The host reports some file edits only after they happened (Cursor's afterFileEdit): every
   * turn is also scanned from its prompt to its end, so those edits are undoable too.
   */
  scansWholeTurn?: boolean;
  /**
   * The host prompts itself when a background subagent is done (a `continuesTurn` prompt): a turn
   * whose host ended it and whose subagents have all ended waits briefly for that prompt.
   */
  promptsAfterSubagents?: boolean;
  /**
   * Every `exec-end` it sends is of a call whose start it sends as an `exec` under the same call
   * id (no end of a read-only or file tool): an end whose start never came is then a command that
   * ran unseen, recorded as a `gap` of the turn (receiver.ts, execUnseen). Without it such an end is ignored.
   */
  endsFollowExecs?: boolean;
  /**
   * The name of another host when `raw` is that host's event, sent through this host's hooks
   * (Cursor runs the hooks of Claude Code's settings with its own payloads); else null.
   */
  eventOfHost?(raw: unknown): string | null;
  /**
   * What identifies one event whichever of its hooks delivered it, when the host may deliver it
   * more than once (Cursor runs its own hooks and Claude Code's): a repeat within seconds is
   * answered `ignored`, recorded once.
   */
  deliveryKey?(raw: unknown): string | null;
  /** How the host shows the person a line (Claude Code: `{"systemMessage": …}` on stdout). */
  notice(message: string): HostNotice;
  /**
   * What the host's prompt hook prints on stdout (one JSON object) so that `context` goes to the
   * agent with the prompt (Claude Code: `hookSpecificOutput.additionalContext`); null when the
   * host's plugin adds the answer's `agentNotice` itself (OpenCode); absent when the host has no
   * such channel (undone-notice.ts).
   */
  promptContext?(context: string): Record<string, unknown> | null;
}
