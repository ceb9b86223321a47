// The server's side of the Claude Code hook: one raw hook event in, the engine calls it means
// (docs/api.md, the hook route): prompt → input; a file tool → before-mutate; Bash or an MCP tool →
// exec, and its PostToolUse (or PostToolUseFailure) → exec-end; Stop, StopFailure or
// SessionEnd → the turn's chat, then turn-end. The hook processes only find the server and
// hand the event over, so the mapping lives here alone.
import { isAbsolute } from 'node:path';
import type { Engine } from '../../../engine/api.js';
import { parseHookEventValue, type HookEvent } from '../event.js';
import { relativeInsideAnyForm } from '../paths.js';
import { chatOf } from './chat.js';
import { fileUriFor } from './file-uri.js';
import { SessionStates, type SessionState } from './sessions.js';
import { readSettledTurnTranscript } from './transcript.js';

const PLATFORM = 'claude-code';
const SESSION_TYPE = 'cli';

export type ReceiveResult =
  | { ok: true; outcome: 'forwarded'; calls: number }
  | { ok: true; outcome: 'ignored' | 'outside-workspace'; reason: string }
  | { ok: false; malformed: string };

type Event<K extends HookEvent['kind']> = Extract<HookEvent, { kind: K }>;

const forwarded = (calls: number): ReceiveResult => ({ ok: true, outcome: 'forwarded', calls });
const ignored = (reason: string): ReceiveResult => ({ ok: true, outcome: 'ignored', reason });

export class ClaudeCodeReceiver {
  private readonly sessions = new SessionStates();

  async receive(raw: unknown, engine: Engine): Promise<ReceiveResult> {
    const parsed = parseHookEventValue(raw);
    if (!parsed.ok) return parsed.ignored ? ignored(parsed.reason) : { ok: false, malformed: parsed.reason };
    const event = parsed.event;
    if (!isAbsolute(event.cwd)) return { ok: false, malformed: 'cwd is not an absolute path' };
    // An agent working elsewhere is not this server's to record (a hook finds servers by prefix).
    if (relativeInsideAnyForm(engine.workspace, event.cwd) === null) {
      return { ok: true, outcome: 'outside-workspace', reason: `cwd outside the workspace: ${event.cwd}` };
    }
    switch (event.kind) {
      case 'prompt': return this.prompt(event, engine);
      case 'file-change': return this.fileChange(event, engine);
      case 'command-start': return this.commandStart(event, engine);
      case 'command-end': return this.commandEnd(event, engine);
      case 'turn-end': return this.turnEnd(event, engine);
    }
  }

  private async prompt(event: Event<'prompt'>, engine: Engine): Promise<ReceiveResult> {
    // A turn Claude Code never ended (killed mid-turn) still gets its chat before the next begins.
    const unfinished = this.sessions.end(event.sessionId);
    const finished = unfinished ? await this.finishTurn(event, unfinished, null, engine) : 0;
    await engine.input({ sessionId: event.sessionId, platform: PLATFORM, sessionType: SESSION_TYPE, content: event.prompt });
    this.sessions.begin(event.sessionId, event.prompt);
    return forwarded(finished + 1);
  }

  private async fileChange(event: Event<'file-change'>, engine: Engine): Promise<ReceiveResult> {
    const target = fileUriFor(event.cwd, event.path, engine.workspace);
    if ('skip' in target) return { ok: true, outcome: 'outside-workspace', reason: target.skip };
    this.noteToolUse(event);
    await engine.beforeMutate({ sessionId: event.sessionId, op: 'write', uri: target.uri });
    return forwarded(1);
  }

  /** Answers once the before scan is done: only then may the command run. */
  private async commandStart(event: Event<'command-start'>, engine: Engine): Promise<ReceiveResult> {
    this.noteToolUse(event);
    const { execId } = await engine.exec({ sessionId: event.sessionId, tool: event.tool, command: event.command });
    // A background command's PostToolUse comes while it still runs: the turn end scans it.
    if (execId !== null && event.toolUseId !== null && !event.background) {
      this.sessions.get(event.sessionId)?.commands.set(event.toolUseId, execId);
    }
    return forwarded(1);
  }

  /** The session's transcript will hold this tool call: its end waits for it (a subagent's goes elsewhere). */
  private noteToolUse(event: Event<'file-change' | 'command-start'>): void {
    if (event.toolUseId !== null && !event.subagent) this.sessions.get(event.sessionId)?.toolUses.add(event.toolUseId);
  }

  private async commandEnd(event: Event<'command-end'>, engine: Engine): Promise<ReceiveResult> {
    const commands = this.sessions.get(event.sessionId)?.commands;
    const execId = event.toolUseId === null ? undefined : commands?.get(event.toolUseId);
    if (execId === undefined) return ignored(`no command of this turn is running as ${event.toolUseId ?? 'a tool without tool_use_id'}`);
    commands!.delete(event.toolUseId!);
    await engine.execEnd({ sessionId: event.sessionId, execId });
    return forwarded(1);
  }

  private async turnEnd(event: Event<'turn-end'>, engine: Engine): Promise<ReceiveResult> {
    const state = this.sessions.end(event.sessionId);
    if (!state) {
      // SessionEnd right after Stop, or a turn this server did not see begin.
      const { turnId } = await engine.turnEnd({ sessionId: event.sessionId });
      return turnId === null ? ignored(`no turn of this session to end on ${event.event}`) : forwarded(1);
    }
    return forwarded(await this.finishTurn(event, state, event.lastAssistantMessage, engine));
  }

  /** Records the chat of the turn `state` was (already ended in `sessions`), then ends it; answers how many calls that took. */
  private async finishTurn(event: HookEvent, state: SessionState, lastReply: string | null, engine: Engine): Promise<number> {
    const items = event.transcriptPath === null
      ? []
      : (await readSettledTurnTranscript(event.transcriptPath, state.prompt, state.toolUses)) ?? [];
    const chat = chatOf(items, lastReply, engine.workspace);
    for (const message of chat) await engine.message({ sessionId: event.sessionId, ...message });
    await engine.turnEnd({ sessionId: event.sessionId });
    return chat.length + 1;
  }
}
