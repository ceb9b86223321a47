// Cursor's events through POST /api/agent/hook/cursor, from its documented payloads: a turn per
// prompt, its shell, MCP and file-tool calls recorded, an edit Cursor reports only afterwards
// (afterFileEdit) undoable all the same; and the same events reaching Claude Code's route (Cursor
// runs `.claude/settings*.json` hooks too) recorded once.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Message, Turn } from '../../protocol.js';
import { startHookTestServer, type HookTestServer } from '../claude-code/test/server.js';
import { treeAsText } from '../../testkit/tree.js';
import * as p from './test/payloads.js';

let t: HookTestServer;
let c: p.CursorContext;
beforeEach(async () => {
  t = await startHookTestServer({
    files: { 'src/app.ts': 'export const answer = 41;\n', 'notes.md': '# Notes\n', 'old.txt': 'old\n' },
  });
  c = { root: t.workspace };
});
afterEach(async () => {
  await t.close();
});

const cursor = async (event: unknown) => (await t.postHostHook('cursor', event)).json;
const turns = async () =>
  (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.CONVERSATION_ID}/turns`)).json.turns;
const files = async (turnId: string) =>
  (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json.files.map((f) => [f.change, f.uri]).sort();
const chat = async () =>
  (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.CONVERSATION_ID}/messages`)).json.messages.map(
    (m) => [m.role, m.content],
  );

describe('POST /api/agent/hook/cursor', () => {
  it('records a turn: a file tool, an edit seen only afterwards, a shell rm and mv, an MCP call; rolls it back exactly', async () => {
    const start = await treeAsText(t.workspace);
    expect(await cursor(p.beforeSubmitPrompt(c, 'Tidy the project'))).toEqual({
      ok: true,
      outcome: 'forwarded',
      calls: 2,
    });
    const write = p.preToolUse(c, 'Write', { file_path: 'src/new.ts', content: 'x' });
    await cursor(write);
    await writeFile(join(t.workspace, 'src', 'new.ts'), 'export const x = 1;\n');
    // An edit Cursor announces only once it is made.
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    expect(
      await cursor(p.afterFileEdit(c, join(t.workspace, 'src', 'app.ts'), [{ old_string: '41', new_string: '42' }])),
    ).toMatchObject({ ok: true, outcome: 'ignored' });
    await cursor(p.beforeShellExecution(c, 'rm old.txt && mv notes.md NOTES.md'));
    await rm(join(t.workspace, 'old.txt'));
    await rename(join(t.workspace, 'notes.md'), join(t.workspace, 'NOTES.md'));
    expect(await cursor(p.afterShellExecution(c, 'rm old.txt && mv notes.md NOTES.md'))).toEqual({
      ok: true,
      outcome: 'forwarded',
      calls: 1,
    });
    await cursor(p.beforeMCPExecution(c, 'files_write', { path: 'mcp.txt' }));
    await writeFile(join(t.workspace, 'mcp.txt'), 'by MCP\n');
    await cursor(p.afterMCPExecution(c, 'files_write', { path: 'mcp.txt' }));
    await cursor(p.afterAgentResponse(c, 'Tidied.'));
    await cursor(p.stop(c));

    const [turn] = await turns();
    expect(turn).toMatchObject({ title: 'Tidy the project', status: 'committed', execUsed: true });
    expect((await t.api<{ sessions: { platform: string }[] }>('GET', '/api/sessions')).json.sessions[0].platform).toBe(
      'cursor',
    );
    // The shell's `mv notes.md NOTES.md` is one rename, its origin listed as deleted (as a storage rename is).
    expect(await files(turn.turnId)).toEqual([
      ['created', 'workspace:/mcp.txt'],
      ['created', 'workspace:/src/new.ts'],
      ['deleted', 'workspace:/notes.md'],
      ['deleted', 'workspace:/old.txt'],
      ['modified', 'workspace:/src/app.ts'],
      ['renamed', 'workspace:/NOTES.md'],
    ]);
    expect(await chat()).toEqual([
      ['user', 'Tidy the project'],
      ['assistant', 'Tidied.'],
    ]);
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({
      ok: true,
      errors: [],
    });
    expect(await treeAsText(t.workspace)).toEqual(start);
  });

  it('an edit reported only afterwards, in a turn with no other call, is still undoable', async () => {
    await cursor(p.beforeSubmitPrompt(c, 'Bump'));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await cursor(p.afterFileEdit(c, join(t.workspace, 'src', 'app.ts'), [{ old_string: '41', new_string: '42' }]));
    await cursor(p.stop(c));
    const [turn] = await turns();
    expect(await files(turn.turnId)).toEqual([['modified', 'workspace:/src/app.ts']]);
    await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {});
    expect(await readFile(join(t.workspace, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
  });

  it('one turn per prompt; a failing tool ends its scan', async () => {
    await cursor(p.beforeSubmitPrompt(c, 'One'));
    const tool = p.preToolUse(c, 'RefactorAll', { pattern: 'x' });
    await cursor(tool);
    expect(await cursor(p.postToolUse(tool, true))).toEqual({ ok: true, outcome: 'forwarded', calls: 1 });
    await cursor(p.stop(c));
    await cursor(p.beforeSubmitPrompt({ ...c, generationId: 'gen-2' }, 'Two'));
    await cursor(p.stop({ ...c, generationId: 'gen-2' }));
    expect((await turns()).map((turn) => [turn.title, turn.status])).toEqual([
      ['One', 'committed'],
      ['Two', 'committed'],
    ]);
  });

  it("a Cursor-shaped event on Claude Code's route is Cursor's, and an event delivered through both hooks is recorded once", async () => {
    const prompt = p.beforeSubmitPrompt(c, 'Through both');
    expect((await t.postHook(prompt)).json).toMatchObject({ ok: true, outcome: 'forwarded' });
    expect(await cursor(prompt)).toMatchObject({
      ok: true,
      outcome: 'ignored',
      ignored: expect.stringContaining('same event'),
    });
    await t.postHook(p.beforeShellExecution(c, 'touch a.txt'));
    await cursor(p.beforeShellExecution(c, 'touch a.txt'));
    await writeFile(join(t.workspace, 'a.txt'), '');
    await cursor(p.afterShellExecution(c, 'touch a.txt'));
    await t.postHook(p.afterShellExecution(c, 'touch a.txt'));
    await t.postHook(p.stop(c));
    await cursor(p.stop(c));
    const all = await turns();
    expect(all.map((turn) => turn.title)).toEqual(['Through both']);
    expect(all[0].execCommands.filter((command) => command.tool === 'Shell')).toHaveLength(1);
    expect(
      (await t.api<{ sessions: { platform: string }[] }>('GET', '/api/sessions')).json.sessions.map((s) => s.platform),
    ).toEqual(['cursor']);
    expect(await chat()).toEqual([['user', 'Through both']]);
  });

  it('answers 404 NOT_FOUND for a host it does not know', async () => {
    const answer = await t.postHostHook('nonesuch', p.stop(c));
    expect(answer).toMatchObject({ status: 404, json: { error: { code: 'NOT_FOUND' } } });
  });
});
