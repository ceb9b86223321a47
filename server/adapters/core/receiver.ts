// The server's side of every host's hook: one host-neutral event in (host.ts), the engine calls
// it means (docs/api.md, the hook route): prompt → input (a turn begins); before-mutate → the
// files' states; exec → the before scan, exec-end → the after scan; turn-end → the turn's chat
// from the host's transcript, then turn-end, once the subagents started in the turn have ended
// too (or a bound has passed). Events of one session are handled one after the other, in the
// order they came: a subagent's and the main agent's arrive side by side.
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { Engine } from '../../engine/api.js';
import { isStepId } from '../../engine/record/step-ref.js';
import { chatOfItems, type ChatMessage, type TranscriptItem } from './chat.js';
import { placeOfEvent } from './event-place.js';
import { fileUriFor } from './file-uri.js';
import type { HostAdapter, HostEvent } from './host.js';
import { relativeInsideAnyForm } from './paths.js';
import { RecentKeys } from './recent-keys.js';
import { cutText } from './text.js';
import type { ExecUnseenReason } from '../../protocol.js';
import { tellsAgentsOf } from './agent-notices.js';
import { undoneNotice } from './undone-notice.js';
import { SessionStates, type TurnEndEvent, type TurnState } from './sessions.js';
import { settleTurn, type SettledTurn, type SettleOptions } from './transcript/settle.js';
import { awaitedTranscript, type TranscriptPlace } from './transcript/read.js';

export type ReceiveResult =
  /** `agentNotice`: a prompt's paragraph for the agent about what the person took back (undone-notice.ts). */
  /** `tell`: a line for the person (sessions pruned for the store budget), once. */
  | { ok: true; outcome: 'forwarded'; calls: number; agentNotice?: string; tell?: string }
  | { ok: true; outcome: 'ignored'; reason: string }
  /** `tell`: what the hook shows the person, the first time for the session (a change not recorded is never silent). */
  | { ok: true; outcome: 'outside-workspace'; reason: string; tell?: string }
  | { ok: false; malformed: string };

export interface ReceiverOptions {
  /** Where the host's transcript folders are looked for (default: this user's home and environment). */
  transcripts?: Partial<TranscriptPlace>;
  /** How long a turn the host ended waits for its subagents before it ends all the same. */
  subagentWaitMs?: number;
  /** How long it then waits for the host's own prompt about them. */
  subagentPromptWaitMs?: number;
  /** Whether an agent of the host is told what the person undid (default: agent-notices.ts's settings). */
  tellsAgents?: (host: string) => boolean;
  /** Once after sessions were pruned for the person's budget over all workspaces: the line to show (the service's keeper). */
  personBudgetNews?: () => string | null;
}

/** A line a hook shows the person: one line without quotes or backslashes, as the sh hook passes it on without a JSON parser. */
function hookLine(text: string): string {
  return text.replace(/[\r\n\t"\\]+/g, ' ').slice(0, 400);
}

/** Whether `key` is new to `told` (a session and reason told once); remembered, the oldest let go past 10,000. */
function firstTime(told: Set<string>, key: string): boolean {
  if (told.has(key)) return false;
  told.add(key);
  if (told.size > 10_000) told.delete(told.values().next().value as string);
  return true;
}

/** Background subagents may work for minutes after their parent's Stop; past this the turn is closed. */
export const SUBAGENT_WAIT_MS = 10 * 60 * 1000;
/** How long, after a turn's end, its chat is still looked for in a host's log that was behind (a loaded machine). */
export const LATE_CHAT_WAIT_MS = 60 * 1000;
/** Its log is looked at this often (a stat; a read only when the log changed). */
const LATE_CHAT_POLL_MS = 500;
/** Turns waited on so at once, at most: past it a turn keeps the chat its end found. */
const MAX_LATE_CHATS = 4;
/** How long a turn whose subagents are done waits for the host's own prompt about them (promptsAfterSubagents). */
export const SUBAGENT_PROMPT_WAIT_MS = 15 * 1000;

type Event<K extends HostEvent['kind']> = Extract<HostEvent, { kind: K }>;

/** Why a command whose start was lost is not in its turn, as the person reads it. */
const UNSEEN_REASONS: Record<ExecUnseenReason, string> = {
  'no-start-scan':
    'no scan of the turn came before it: a turn start is scanned only with a filesystem watcher, and no command of the turn had ended',
  'index-moved': "another session's command scanned the workspace since this turn's previous scan",
  'index-partial': 'a scan of the workspace was cut short',
};

const forwarded = (calls: number): ReceiveResult => ({ ok: true, outcome: 'forwarded', calls });
const ignored = (reason: string): ReceiveResult => ({ ok: true, outcome: 'ignored', reason });

/** The session's turn in progress in `engine`, if any (a session it never saw has none). */
function activeTurnOf(engine: Engine, sessionId: string): { turnId: string } | undefined {
  try {
    const [latest] = engine.listTurns(sessionId, { limit: 1 });
    return latest?.status === 'active' ? latest : undefined;
  } catch {
    return undefined;
  }
}

export class HostReceiver {
  private readonly sessions = new SessionStates();
  private readonly deliveries = new RecentKeys();
  /** Sessions told that something of theirs is not recorded here (bounded: an old one may hear it again). */
  private readonly toldOutside = new Set<string>();
  /** Sessions told, by reason, that a command's start was lost (bounded as `toldOutside`). */
  private readonly toldLost = new Set<string>();
  /** The tail of each session's chain of events: the next waits for it. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly place: TranscriptPlace;
  private readonly subagentWaitMs: number;
  private readonly subagentPromptWaitMs: number;
  /** Turns whose chat is still looked for after their end (chatLater). */
  private lateChats = 0;
  private readonly tellsAgents: (host: string) => boolean;
  private readonly personBudgetNews: () => string | null;

  constructor(
    readonly host: HostAdapter,
    options: ReceiverOptions = {},
  ) {
    this.place = { home: options.transcripts?.home ?? homedir(), env: options.transcripts?.env ?? process.env };
    this.subagentWaitMs = options.subagentWaitMs ?? SUBAGENT_WAIT_MS;
    this.subagentPromptWaitMs = options.subagentPromptWaitMs ?? SUBAGENT_PROMPT_WAIT_MS;
    this.tellsAgents = options.tellsAgents ?? ((host) => tellsAgentsOf(host));
    this.personBudgetNews = options.personBudgetNews ?? (() => null);
  }

  /** `otherEngines`: the engines of the other workspaces the session's recent events went to (after a restart, its turn may go on there). */
  async receive(raw: unknown, engine: Engine, otherEngines?: () => Promise<Engine[]>): Promise<ReceiveResult> {
    const key = this.host.deliveryKey?.(raw) ?? null;
    if (key !== null && this.deliveries.seen(key))
      return ignored('the same event again (another of its hooks delivered it)');
    const parsed = this.host.parse(raw);
    if (!parsed.ok) return parsed.ignored ? ignored(parsed.reason) : { ok: false, malformed: parsed.reason };
    const event = parsed.event;
    if (!isAbsolute(event.cwd)) return { ok: false, malformed: 'cwd is not an absolute path' };
    // An agent working elsewhere is not this server's to record (a hook finds servers by prefix).
    const place = placeOfEvent(event);
    if (relativeInsideAnyForm(engine.workspace, place) === null) {
      const reason =
        place === event.cwd || event.kind !== 'before-mutate'
          ? `cwd outside the workspace: ${event.cwd}`
          : `path outside the workspace: ${resolve(event.cwd, event.paths[0])}`;
      return this.outside(event.sessionId, reason, engine);
    }
    const result = await this.inOrder(event.sessionId, async () => {
      if (!this.sessions.get(event.sessionId)) await this.restore(event.sessionId, engine, otherEngines);
      return this.handle(event, engine);
    });
    if (result.ok && result.outcome === 'outside-workspace')
      return this.outside(event.sessionId, result.reason, engine);
    // Sessions pruned for a budget: the next hook that has no other line tells the person, the
    // workspace's own first; the person budget's news waits for the answer after.
    if (result.ok && result.outcome === 'forwarded' && !result.agentNotice && !result.tell) {
      const tell = engine.takeBudgetNews() ?? this.personBudgetNews();
      if (tell) return { ...result, tell: hookLine(tell) };
    }
    return result;
  }

  /** An event whose files are outside the workspace: recorded nowhere, so the person hears it, once per session and workspace. */
  private outside(sessionId: string, reason: string, engine: Engine): ReceiveResult {
    const key = `${sessionId}\0${engine.workspace}`;
    if (!firstTime(this.toldOutside, key)) return { ok: true, outcome: 'outside-workspace', reason };
    const tell = hookLine(`turnback is not recording a change of this session: ${reason}`);
    return { ok: true, outcome: 'outside-workspace', reason, tell };
  }

  private inOrder<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.chains.set(sessionId, tail);
    void tail.then(() => {
      if (this.chains.get(sessionId) === tail) this.chains.delete(sessionId);
    });
    return next;
  }

  private handle(event: HostEvent, engine: Engine): Promise<ReceiveResult> {
    const late = this.lateSubagent(event);
    if (late) return Promise.resolve(late);
    switch (event.kind) {
      case 'prompt':
        return this.prompt(event, engine);
      case 'before-mutate':
        return this.beforeMutate(event, engine);
      case 'exec':
        return this.exec(event, engine);
      case 'exec-end':
        return this.execEnd(event, engine);
      case 'reply':
        return this.reply(event, engine);
      case 'subagent-start':
        return Promise.resolve(this.subagentStart(event));
      case 'subagent-end':
        return this.subagentEnd(event, engine);
      case 'turn-end':
        return this.turnEnd(event, engine);
    }
  }

  /**
   * A subagent's event after the turn that started it has ended: it is that turn's, so it is
   * never recorded in another one (docs/api.md: late calls are the parent turn's).
   */
  private lateSubagent(event: HostEvent): ReceiveResult | null {
    if (event.agentId === null || event.kind === 'prompt' || event.kind === 'turn-end') return null;
    const turn = this.sessions.get(event.sessionId);
    if (turn?.seenAgents.has(event.agentId)) return null;
    if (!this.sessions.endedAgent(event.sessionId, event.agentId)) {
      // First seen now: a subagent of the turn in progress (a host may send no start event).
      if (turn && event.kind !== 'subagent-end') {
        turn.agents.add(event.agentId);
        turn.seenAgents.add(event.agentId);
      }
      return null;
    }
    return ignored(`subagent ${event.agentId} belongs to a turn that has ended`);
  }

  private async prompt(event: Event<'prompt'>, engine: Engine): Promise<ReceiveResult> {
    if (event.continuesTurn) return this.continueTurn(event);
    // A turn the host never ended (killed mid-turn, or its subagents still running) gets its chat before the next begins.
    const unfinished = this.sessions.end(event.sessionId);
    const finished = unfinished
      ? await this.finishTurn(event, unfinished, unfinished.pendingEnd?.event.lastReply ?? null, engine)
      : 0;
    // Read before this prompt's turn begins: that turn closes the window, so it is said once.
    const notice =
      this.host.promptContext && this.tellsAgents(this.host.name) ? undoneNotice(engine, event.sessionId) : null;
    const told = notice === null ? {} : { agentNotice: notice };
    const { turnId } = await engine.input({
      sessionId: event.sessionId,
      platform: this.host.platform,
      sessionType: this.host.sessionType,
      content: event.prompt,
    });
    const begun = this.sessions.begin(event.sessionId, event.prompt);
    begun.engines.set(engine.workspace, engine);
    if (turnId !== null) begun.turnIds.set(engine.workspace, turnId);
    if (!this.host.scansWholeTurn) return { ...forwarded(finished + 1), ...told };
    // Never ended by a call: the turn's end runs its after scan, so an edit reported only afterwards is in it.
    await engine.exec({
      sessionId: event.sessionId,
      tool: this.host.name,
      command: '(the whole turn: edits reported after they happened)',
    });
    return { ...forwarded(finished + 2), ...told };
  }

  /** The host's own prompt about its subagents: the turn they belong to goes on (its end comes with the next turn-end). */
  private continueTurn(event: Event<'prompt'>): ReceiveResult {
    const turn = this.sessions.get(event.sessionId);
    if (!turn) return ignored('a prompt of the host itself, and no turn of this session is in progress');
    if (turn.pendingEnd) clearTimeout(turn.pendingEnd.timer);
    turn.pendingEnd = null;
    return forwarded(0);
  }

  private async beforeMutate(event: Event<'before-mutate'>, engine: Engine): Promise<ReceiveResult> {
    if (event.paths.length === 0) return { ok: false, malformed: `${event.tool} names no file` };
    this.noteCall(event);
    let calls = (await this.endOpenCommands(event.sessionId, engine)) + (await this.joined(event, engine));
    const skipped: string[] = [];
    const uris: string[] = [];
    for (const path of event.paths) {
      const target = fileUriFor(event.cwd, path, engine.workspace);
      if ('skip' in target) skipped.push(target.skip);
      else uris.push(target.uri);
    }
    // The step is the tool call, titled by its tool as the chat shows it (`Edit(src/app.ts)`).
    const title = `${event.tool}(${uris.map((uri) => uri.replace(/^workspace:\//, '')).join(', ')})`;
    const step = event.callId !== null && isStepId(event.callId) ? { id: event.callId, title } : undefined;
    for (const uri of uris) {
      await engine.beforeMutate({ sessionId: event.sessionId, op: 'write', uri, ...(step ? { step } : {}) });
      calls++;
    }
    return calls > 0 ? forwarded(calls) : { ok: true, outcome: 'outside-workspace', reason: skipped.join('; ') };
  }

  /** Answers once the before scan is done: only then may the command run. */
  private async exec(event: Event<'exec'>, engine: Engine): Promise<ReceiveResult> {
    this.noteCall(event);
    const ended = (await this.endOpenCommands(event.sessionId, engine)) + (await this.joined(event, engine));
    const { turnId, execId } = await engine.exec({
      sessionId: event.sessionId,
      tool: event.tool,
      command: event.command,
    });
    // A background command's end is reported while it still runs: the turn end scans it.
    const turn = this.sessions.get(event.sessionId) ?? this.adopted(event.sessionId, turnId, engine);
    if (event.callId !== null) turn?.started.add(event.callId);
    if (execId !== null && !event.background && turn) {
      // A call without an id has no end to match: the next event of the session ends it.
      const key = event.callId ?? `\0${execId}`;
      turn.commands.set(key, execId);
      if (event.nests === true) turn.nesting.add(key);
      turn.engineOf.set(execId, engine);
    }
    return forwarded(ended + 1);
  }

  /**
   * After a restart this receiver knows no turn of the session, while its engines may hold one
   * the crash cut short and recovery resumed, here or in another workspace the session reached:
   * followed again as one turn, so the session's next prompt or stop ends it everywhere and a
   * move to another workspace begins its linked turn there.
   */
  private async restore(sessionId: string, engine: Engine, otherEngines?: () => Promise<Engine[]>): Promise<void> {
    const others = otherEngines ? await otherEngines() : [];
    let turn: TurnState | undefined;
    const resumed: { engine: Engine; turnId: string; prompt: string }[] = [];
    for (const each of [engine, ...others]) {
      if (each.workspace === engine.workspace && each !== engine) continue;
      const latest = activeTurnOf(each, sessionId);
      if (!latest) continue;
      const prompt = each.messages(sessionId, { turnId: latest.turnId }).find((m) => m.role === 'user')?.content ?? '';
      turn ??= this.sessions.begin(sessionId, prompt);
      turn.engines.set(each.workspace, each);
      turn.turnIds.set(each.workspace, latest.turnId);
      resumed.push({ engine: each, turnId: latest.turnId, prompt });
    }
    // The same prompt's turns, begun in two workspaces and cut by the crash before they knew one
    // another (between a turn's begin and its link): linked now, so one undo takes back both.
    for (const one of resumed)
      for (const other of resumed)
        if (one !== other && one.prompt === other.prompt)
          one.engine.linkTurn(one.turnId, { root: other.engine.workspace, turnId: other.turnId });
  }

  /**
   * A turn the engine records and this receiver never saw begin: one a crash cut short, resumed
   * when the service started again. It is followed from here on, titled by its prompt as recorded.
   */
  private adopted(sessionId: string, turnId: string | null, engine: Engine): TurnState | undefined {
    if (turnId === null) return undefined;
    const prompt = engine.messages(sessionId, { turnId }).find((m) => m.role === 'user')?.content ?? '';
    const turn = this.sessions.begin(sessionId, prompt);
    turn.engines.set(engine.workspace, engine);
    turn.turnIds.set(engine.workspace, turnId);
    return turn;
  }

  /**
   * The session's turn reaches another workspace (its cwd or file moved there: a resume in
   * another folder, `--add-dir`): a turn of the same prompt begins there, ended with the others.
   */
  private async joined(event: Event<'before-mutate' | 'exec'>, engine: Engine): Promise<number> {
    const turn = this.sessions.get(event.sessionId);
    if (!turn || turn.engines.has(engine.workspace)) return 0;
    turn.engines.set(engine.workspace, engine);
    const { turnId } = await engine.input({
      sessionId: event.sessionId,
      platform: this.host.platform,
      sessionType: this.host.sessionType,
      content: turn.prompt,
    });
    if (turnId !== null) this.link(turn, engine, turnId);
    return 1;
  }

  /** The turn just begun in `engine`'s workspace and the same prompt's turns elsewhere know one another (Turn.linked). */
  private link(turn: TurnState, engine: Engine, turnId: string): void {
    for (const [root, otherTurnId] of turn.turnIds) {
      const other = turn.engines.get(root);
      if (!other || root === engine.workspace) continue;
      engine.linkTurn(turnId, { root, turnId: otherTurnId });
      other.linkTurn(otherTurnId, { root: engine.workspace, turnId });
    }
    turn.turnIds.set(engine.workspace, turnId);
  }

  /**
   * Before a later event of the session records anything, every command of it still open (its
   * end never came, or came with another call id) gets its after scan: what it changed is its,
   * never taken for the state a file tool or the next command found (docs/api.md, open commands).
   */
  private async endOpenCommands(sessionId: string, engine: Engine): Promise<number> {
    const turn = this.sessions.get(sessionId);
    if (!turn || turn.commands.size === 0) return 0;
    let calls = 0;
    for (const [callId, execId] of [...turn.commands]) {
      if (turn.nesting.has(callId)) continue;
      turn.commands.delete(callId);
      turn.endedEarly.set(callId, execId);
      await (turn.engineOf.get(execId) ?? engine).execEnd({ sessionId, execId });
      calls++;
    }
    return calls;
  }

  /** The session's transcript will hold this call: the turn's end waits for it (a subagent's goes elsewhere). */
  private noteCall(event: Event<'before-mutate' | 'exec'>): void {
    if (event.callId !== null && event.agentId === null) this.sessions.get(event.sessionId)?.toolUses.add(event.callId);
    if (event.callId !== null) this.sessions.get(event.sessionId)?.started.add(event.callId);
  }

  private async execEnd(event: Event<'exec-end'>, engine: Engine): Promise<ReceiveResult> {
    const turn = this.sessions.get(event.sessionId);
    const execId = event.callId === null ? undefined : turn?.commands.get(event.callId);
    if (execId === undefined) {
      // Ended already by a later event of the session: the engine answers what its after scan found then.
      const early = event.callId === null ? undefined : turn?.endedEarly.get(event.callId);
      if (early !== undefined) {
        turn!.endedEarly.delete(event.callId!);
        await (turn!.engineOf.get(early) ?? engine).execEnd({ sessionId: event.sessionId, execId: early });
        return forwarded(1);
      }
      if (this.host.endsFollowExecs && turn && event.callId !== null && !turn.started.has(event.callId))
        return this.execUnseen(event, turn, engine);
      return ignored(`no command of this turn is running as ${event.callId ?? 'a call without an id'}`);
    }
    turn!.commands.delete(event.callId!);
    turn!.nesting.delete(event.callId!);
    await (turn!.engineOf.get(execId) ?? engine).execEnd({ sessionId: event.sessionId, execId });
    return forwarded(1);
  }

  /**
   * The end of a command whose start never came (its hook lost, timed out, or sent while no
   * service ran): it ran unseen, so the engine records what changed since the turn's own last
   * scan as a `gap` of the turn, or says why it cannot. The person hears it, once per session and outcome.
   */
  private async execUnseen(event: Event<'exec-end'>, turn: TurnState, engine: Engine): Promise<ReceiveResult> {
    turn.started.add(event.callId!);
    const found = await engine.execUnseen({
      sessionId: event.sessionId,
      tool: event.tool,
      ...(event.command !== undefined ? { command: event.command } : {}),
    });
    const what = event.command ? `${event.tool}: ${cutText(event.command, 80)}` : event.tool;
    if (found.turnId === null) {
      // The session's turn is recorded in another workspace and never reached this one: what
      // the command changed here is in no turn, so the person hears it.
      if (turn.turnIds.size === 0 || turn.turnIds.has(engine.workspace))
        return ignored(`no command of this turn is running as ${event.callId!}`);
      const line = `turnback did not hear the start of a command (${what}) in ${engine.workspace}, which this session's turn had not reached: its change there is not in the turn's undo`;
      return this.toldOnce(`${event.sessionId}\0elsewhere\0${engine.workspace}`, line);
    }
    const line =
      found.outcome === 'recorded'
        ? `turnback did not hear the start of a command (${what}): what changed since the turn's previous scan is recorded as a gap command of the turn, undone with it`
        : found.outcome === 'not-recorded'
          ? `turnback did not hear the start of a command (${what}) and cannot tell its change from yours (${UNSEEN_REASONS[found.reason!]}): it is not in the turn's undo`
          : null;
    if (line === null) return forwarded(1);
    return this.toldOnce(`${event.sessionId}\0${found.outcome}\0${found.reason ?? ''}`, line);
  }

  /** Forwarded, with `line` for the person the first time for `key` (a session and reason). */
  private toldOnce(key: string, line: string): ReceiveResult {
    if (!firstTime(this.toldLost, key)) return forwarded(1);
    return { ok: true, outcome: 'forwarded', calls: 1, tell: hookLine(line) };
  }

  /** Recorded as it comes: the host keeps no transcript to read it from at the turn's end. */
  private async reply(event: Event<'reply'>, engine: Engine): Promise<ReceiveResult> {
    if (!this.sessions.get(event.sessionId)) return ignored('a reply, and no turn of this session is in progress');
    await engine.message({ sessionId: event.sessionId, role: 'assistant', content: event.text });
    return forwarded(1);
  }

  private subagentStart(event: Event<'subagent-start'>): ReceiveResult {
    const turn = this.sessions.get(event.sessionId);
    if (!turn || event.agentId === null) return ignored('no turn of this session is in progress');
    turn.agents.add(event.agentId);
    turn.seenAgents.add(event.agentId);
    return forwarded(0);
  }

  private async subagentEnd(event: Event<'subagent-end'>, engine: Engine): Promise<ReceiveResult> {
    const turn = this.sessions.get(event.sessionId);
    if (!turn || event.agentId === null || !turn.agents.delete(event.agentId))
      return ignored(`no subagent ${event.agentId ?? ''} of this turn is running`);
    if (turn.agents.size > 0 || !turn.pendingEnd) return forwarded(0);
    if (this.host.promptsAfterSubagents) {
      // The host will prompt itself about them and answer: the turn ends with that answer (or soon, without).
      this.waitForEnd(turn, turn.pendingEnd.event, engine, this.subagentPromptWaitMs);
      return forwarded(0);
    }
    // The last subagent of a turn its host already ended: the turn ends now.
    const pending = turn.pendingEnd.event;
    this.sessions.end(event.sessionId);
    return forwarded(await this.finishTurn(pending, turn, pending.lastReply, engine));
  }

  private async turnEnd(event: Event<'turn-end'>, engine: Engine): Promise<ReceiveResult> {
    const turn = this.sessions.get(event.sessionId);
    for (const agentId of turn ? (event.runningAgents ?? []) : []) {
      if (this.sessions.endedAgent(event.sessionId, agentId)) continue;
      turn!.agents.add(agentId);
      turn!.seenAgents.add(agentId);
    }
    if (turn && turn.agents.size > 0 && !event.sessionEnded) {
      // Its subagents still work in the background: the turn ends with the last of them, or at the bound.
      this.waitForEnd(
        turn,
        { ...event, lastReply: event.lastReply ?? turn.pendingEnd?.event.lastReply ?? null },
        engine,
        this.subagentWaitMs,
      );
      return forwarded(0);
    }
    const state = this.sessions.end(event.sessionId);
    if (!state) {
      // SessionEnd right after Stop, or a turn this server did not see begin.
      const { turnId } = await engine.turnEnd({ sessionId: event.sessionId });
      return turnId === null ? ignored(`no turn of this session to end on ${event.event}`) : forwarded(1);
    }
    return forwarded(await this.finishTurn(event, state, event.lastReply, engine));
  }

  /** The host has ended `turn`: it ends for good after `ms` unless something (a subagent, the host's prompt) keeps it going. */
  private waitForEnd(turn: TurnState, event: TurnEndEvent, engine: Engine, ms: number): void {
    if (turn.pendingEnd) clearTimeout(turn.pendingEnd.timer);
    const timer = setTimeout(() => void this.inOrder(event.sessionId, () => this.endAtBound(turn, event, engine)), ms);
    timer.unref();
    turn.pendingEnd = { event, timer };
  }

  private async endAtBound(turn: TurnState, event: TurnEndEvent, engine: Engine): Promise<void> {
    if (this.sessions.get(event.sessionId) !== turn) return; // ended meanwhile
    this.sessions.end(event.sessionId);
    await this.finishTurn(
      turn.pendingEnd?.event ?? event,
      turn,
      turn.pendingEnd?.event.lastReply ?? event.lastReply,
      engine,
    ).catch(() => undefined);
  }

  /** Records the chat of the turn `state` was (already ended in `sessions`), then ends it; answers how many calls that took. */
  private async finishTurn(
    event: HostEvent,
    state: TurnState,
    lastReply: string | null,
    engine: Engine,
  ): Promise<number> {
    const read = await this.transcriptItems(event, state);
    const chat = this.chatOf(read?.items ?? [], lastReply, engine);
    for (const message of chat) await engine.message({ sessionId: event.sessionId, ...message });
    const { turnId } = await engine.turnEnd({ sessionId: event.sessionId });
    // The host's log did not hold the whole turn by the end's own wait: the rest joins the turn when it is written.
    const later = read ? !read.settled : this.transcriptComesLater(event);
    if (later && turnId !== null && this.lateChats < MAX_LATE_CHATS) {
      this.lateChats++;
      void this.chatLater(event, state, lastReply, chat, turnId, engine).finally(() => this.lateChats--);
    }
    // The same turn in the other workspaces the session reached ends with it.
    let others = 0;
    for (const [workspace, other] of state.engines) {
      if (workspace === engine.workspace) continue;
      await other.turnEnd({ sessionId: event.sessionId }).catch(() => undefined);
      others++;
    }
    return chat.length + 1 + others;
  }

  private chatOf(items: TranscriptItem[], lastReply: string | null, engine: Engine): ChatMessage[] {
    return this.host.chat
      ? this.host.chat(items, lastReply, engine.workspace)
      : chatOfItems(items, lastReply, engine.workspace, { fields: {}, pathFields: new Set() });
  }

  private async transcriptItems(event: HostEvent, state: TurnState, late?: SettleOptions): Promise<SettledTurn | null> {
    const transcripts = this.host.transcripts;
    if (!transcripts || event.transcriptPath === null) return null;
    return settleTurn(transcripts, event.transcriptPath, state.prompt, state.toolUses, this.place, late);
  }

  /** A transcript the host has not created yet but will (HostTranscripts.createdAfterEnd). */
  private transcriptComesLater(event: HostEvent): boolean {
    const transcripts = this.host.transcripts;
    if (!transcripts?.createdAfterEnd || event.transcriptPath === null) return false;
    return awaitedTranscript(transcripts, event.transcriptPath, this.place);
  }

  /**
   * Off the hook's path: waits (up to LATE_CHAT_WAIT_MS) for the log to hold the whole turn, then
   * adds to the ended turn the messages after those it got. Nothing when what it got is not their start.
   */
  private async chatLater(
    event: HostEvent,
    state: TurnState,
    lastReply: string | null,
    recorded: ChatMessage[],
    turnId: string,
    engine: Engine,
  ): Promise<void> {
    try {
      const read = await this.transcriptItems(event, state, {
        waitMs: LATE_CHAT_WAIT_MS,
        pollMs: LATE_CHAT_POLL_MS,
        awaitCreation: true,
      });
      if (!read) return;
      const chat = this.chatOf(read.items, lastReply, engine);
      const same = (a: ChatMessage, b: ChatMessage) => a.role === b.role && a.content === b.content;
      if (chat.length <= recorded.length || !recorded.every((message, i) => same(message, chat[i]))) return;
      for (const message of chat.slice(recorded.length))
        await engine.message({ sessionId: event.sessionId, ...message, turnId });
    } catch {
      /* the engine closed meanwhile: the turn keeps the chat it got */
    }
  }
}
