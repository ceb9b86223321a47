// What a real-CLI suite reads back from the recording server and the checks every host's suite
// makes of it: the turns of its one session, their files and chat, and the rollbacks (chosen
// files only, with chat, and every turn newest first to the exact start tree), each undone or
// compared with the trees the suite kept before and after each prompt.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Manifest, Message, RollbackResult, Turn } from '../../protocol.js';
import { treeAsText } from '../tree.js';
import type { ConsoleCall } from './world.js';

export const ws = (path: string): string => `workspace:/${path}`;

export type TreeText = Record<string, string>;

/** Runs each prompt in turn, keeping the tree before the first and after each, and what each run gave. */
export async function runPrompts<R>(
  workspace: string,
  prompts: readonly (() => Promise<R>)[],
): Promise<{ trees: TreeText[]; runs: R[] }> {
  const trees = [await treeAsText(workspace)];
  const runs: R[] = [];
  for (const prompt of prompts) {
    runs.push(await prompt());
    trees.push(await treeAsText(workspace));
  }
  return { trees, runs };
}

export class Recording {
  /** The one session the suite's prompts ran in, once a test has found it. */
  sessionId = '';

  constructor(
    private readonly call: ConsoleCall,
    readonly workspace: string,
  ) {}

  async sessions(): Promise<{ sessionId: string; platform: string }[]> {
    return (await this.call<{ sessions: { sessionId: string; platform: string }[] }>('GET', '/api/sessions')).json
      .sessions;
  }

  /** The prompts ran in one session, of `platform`: it becomes the session read from now on. */
  async expectOneSession(platform: string): Promise<string> {
    const sessions = await this.sessions();
    expect(sessions.map((session) => session.platform)).toEqual([platform]);
    this.sessionId = sessions[0].sessionId;
    return this.sessionId;
  }

  async agentTurns(): Promise<Turn[]> {
    const { turns } = (await this.call<{ turns: Turn[] }>('GET', `/api/sessions/${this.sessionId}/turns`)).json;
    return turns.filter((turn) => turn.kind === 'agent');
  }

  async manifest(turnId: string): Promise<Manifest> {
    return (await this.call<Manifest>('GET', `/api/turns/${turnId}`)).json;
  }

  /** `[change, uri]` of every file the turn changed, sorted. */
  async changed(turnId: string): Promise<string[][]> {
    return (await this.manifest(turnId)).files.map((f) => [f.change, f.uri]).sort();
  }

  /** `[role, content]` of every message of the turn. */
  async chatOf(turnId: string): Promise<string[][]> {
    const path = `/api/sessions/${this.sessionId}/messages?turnId=${turnId}`;
    return (await this.call<{ messages: Message[] }>('GET', path)).json.messages.map((m) => [m.role, m.content]);
  }

  async rollback(turnId: string, body: unknown = {}): Promise<RollbackResult> {
    return (await this.call<RollbackResult>('POST', `/api/turns/${turnId}/rollback`, body)).json;
  }

  async rollbackWithChat(turnId: string): Promise<RollbackResult & { deletedMessages: number }> {
    const path = `/api/turns/${turnId}/rollback-with-chat`;
    return (await this.call<RollbackResult & { deletedMessages: number }>('POST', path, {})).json;
  }

  /**
   * Rolls back `src/util.ts` alone of the turn (which changed it from "debug"), looks at the
   * tree between (`between`), then undoes that rollback: the tree is `last` again.
   */
  async expectChosenFileRestoredAndUndone(turnId: string, last: TreeText, between?: () => Promise<void>) {
    const selective = await this.rollback(turnId, { uris: [ws('src/util.ts')] });
    expect(selective).toMatchObject({ ok: true, restored: [ws('src/util.ts')] });
    expect(await readFile(join(this.workspace, 'src', 'util.ts'), 'utf8')).toContain('"debug"');
    await between?.();
    expect(await this.rollback(selective.rollbackTurnId!)).toMatchObject({ ok: true });
    expect(await treeAsText(this.workspace)).toEqual(last);
  }

  /**
   * Rolls the turn back with its chat (every message the person saw goes), looks at the tree
   * between, then undoes that: the chat is back whole and the tree is `last` again.
   */
  async expectRolledBackWithChatAndUndone(turnId: string, last: TreeText, between?: () => Promise<void>) {
    const before = await this.chatOf(turnId);
    const withChat = await this.rollbackWithChat(turnId);
    expect(withChat).toMatchObject({ ok: true, deletedMessages: before.length });
    expect(await this.chatOf(turnId)).toEqual([]);
    await between?.();
    expect(await this.rollback(withChat.rollbackTurnId!)).toMatchObject({ ok: true });
    expect(await this.chatOf(turnId)).toEqual(before);
    expect(await treeAsText(this.workspace)).toEqual(last);
  }

  /** Rolls every agent turn back, newest first: after each, the tree is exactly the one before that turn. */
  async expectEveryTurnRolledBackNewestFirst(trees: TreeText[]) {
    const all = await this.agentTurns();
    for (let n = all.length; n >= 1; n--) {
      expect(await this.rollback(all[n - 1].turnId), `turn ${n}`).toMatchObject({ ok: true, errors: [] });
      expect(await treeAsText(this.workspace), `after rolling back turn ${n}`).toEqual(trees[n - 1]);
    }
  }
}
