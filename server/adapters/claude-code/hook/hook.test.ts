// Recorded-format Claude Code hook payloads through the real `turnback hook claude-code`
// command, against a real server; what it recorded is read back through the console API.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Message, Session, Turn } from '../../../protocol.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';
import { runCli, runHook } from '../../../testkit/spawn.js';
import { recordedEvents } from '../../codex/test/fixtures.js';

let t: HookTestServer;
let c: { cwd: string; transcriptPath: string };

beforeEach(async () => {
  t = await startHookTestServer({ files: { 'src/app.ts': 'export const answer = 41;\n', 'README.md': '# app\n' } });
  c = t.context;
});
afterEach(async () => {
  await t.close();
});

async function hook(payload: unknown): Promise<void> {
  const result = await runHook(payload, t.env);
  expect(result.code).toBe(0);
}

const hookLog = () => readFile(join(t.env.XDG_STATE_HOME!, 'turnback', 'hook.log'), 'utf8').catch(() => '');
const sessions = async () => (await t.api<{ sessions: Session[] }>('GET', '/api/sessions')).json.sessions;
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const manifest = async (turnId: string) => (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json;
const messages = async () =>
  (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json.messages;

// Each hook is its own process started through tsx: slow on a loaded machine.
describe('turnback hook claude-code against a running server', { timeout: 90_000 }, () => {
  it('begins a claude-code cli turn on a prompt, with the prompt as the user message', async () => {
    await hook(p.userPromptSubmit(c, 'Bump the answer\nand explain why'));
    expect(await sessions()).toMatchObject([{ sessionId: p.SESSION_ID, platform: 'claude-code', sessionType: 'cli' }]);
    const [turn] = await turns();
    expect(turn).toMatchObject({ number: 1, status: 'active', title: 'Bump the answer' });
    expect(await messages()).toMatchObject([
      { role: 'user', content: 'Bump the answer\nand explain why', turnId: turn.turnId },
    ]);
    expect(await hookLog()).toBe('');
  });

  it('records the original state of every file a Write, Edit, MultiEdit or NotebookEdit is about to change', async () => {
    await hook(p.userPromptSubmit(c, 'Edit things'));
    await hook(p.write(c, join(t.workspace, 'src', 'new.ts'), 'export {};\n'));
    await hook(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await hook(
      p.multiEdit({ ...c, cwd: join(t.workspace, 'src') }, '../README.md', [{ old_string: 'app', new_string: 'App' }]),
    );
    await hook(p.notebookEdit(c, join(t.workspace, 'notes', 'analysis.ipynb'), 'print(1)'));
    const [turn] = await turns();
    const { entries } = await manifest(turn.turnId);
    expect(entries.map((e) => [e.op, e.uri, e.before?.type ?? null])).toEqual([
      ['write', 'workspace:/src/new.ts', null],
      ['write', 'workspace:/src/app.ts', 'file'],
      ['write', 'workspace:/README.md', 'file'],
      ['mkdir', 'workspace:/notes', null],
      ['write', 'workspace:/notes/analysis.ipynb', null],
    ]);
  });

  it('records nothing of a path outside the workspace, and tells the person once for the session', async () => {
    await hook(p.userPromptSubmit(c, 'Touch something else'));
    const first = await runHook(p.write(c, join(t.root, 'outside.txt'), 'x'), t.env);
    expect(JSON.parse(first.stdout)).toEqual({
      systemMessage: expect.stringMatching(/^turnback is not recording a change of this session: .*outside\.txt/),
    });
    const again = await runHook(p.edit(c, '../outside.txt', 'x', 'y'), t.env);
    expect(again.stdout).toBe('');
    const [turn] = await turns();
    expect((await manifest(turn.turnId)).entries).toEqual([]);
    expect((await hookLog()).trim().split('\n')).toEqual([expect.stringMatching(/not recorded: .*outside\.txt/)]);
  });

  it("prints the prompt's paragraph about an undo as Claude Code's additionalContext, once", async () => {
    await hook(p.userPromptSubmit(c, 'Bump the answer'));
    await hook(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await hook(p.stop(c));
    const [turn] = await turns();
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).status).toBe(200);
    const told = await runHook(p.userPromptSubmit(c, 'Go on'), t.env);
    expect(JSON.parse(told.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: expect.stringContaining('"src/app.ts" (as before turn #1)'),
      },
    });
    await hook(p.stop(c));
    expect((await runHook(p.userPromptSubmit(c, 'And on'), t.env)).stdout).toBe('');
  });

  it('marks the turn as having run a shell command', async () => {
    await hook(p.userPromptSubmit(c, 'Run the tests'));
    await hook(p.bash(c, 'npm test -- --run'));
    const [turn] = await turns();
    expect(turn.execUsed).toBe(true);
    expect(turn.execCommands).toMatchObject([{ tool: 'Bash', command: 'npm test -- --run' }]);
  });

  it("on stop, records the turn's chat from the transcript and commits the turn", async () => {
    await hook(p.userPromptSubmit(c, 'Bump the answer'));
    const edit = p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42');
    await hook(edit);
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await writeFile(
      c.transcriptPath,
      p.transcriptLines([{ prompt: 'Bump the answer', reply: ['Bumped it to 42.'], tools: [edit] }]),
    );
    await hook(p.stop(c));
    const [turn] = await turns();
    expect(turn).toMatchObject({ status: 'committed', fileCount: 1 });
    expect((await messages()).map((m) => [m.role, m.content, m.turnId])).toEqual([
      ['user', 'Bump the answer', turn.turnId],
      ['assistant', 'I will write it.', turn.turnId],
      ['tool', 'Edit(src/app.ts)', turn.turnId],
      ['assistant', 'Bumped it to 42.', turn.turnId],
    ]);
  });

  it('on stop without a readable transcript, still commits the turn', async () => {
    await hook(p.userPromptSubmit(c, 'Quick one'));
    await hook(p.stop({ ...c, transcriptPath: join(t.root, 'missing.jsonl') }));
    expect((await turns())[0].status).toBe('committed');
    expect((await messages()).map((m) => m.role)).toEqual(['user']);
  });

  it("hands another host's event to that host's route: `turnback hook codex` begins a Codex turn", async () => {
    const prompt = recordedEvents(t.env.HOME ?? '/home/u', t.workspace).find(
      (e) => e.hook_event_name === 'UserPromptSubmit',
    )!;
    const result = await runCli(['hook', 'codex'], { env: t.env, stdin: JSON.stringify(prompt) });
    expect(result.code).toBe(0);
    const codex = (await sessions()).find((s) => s.sessionId === prompt.session_id);
    expect(codex).toMatchObject({ platform: 'codex' });
    expect(await hookLog()).toBe('');
  });

  it('refuses a host name that is no name, and logs an event of another host without a session', async () => {
    expect((await runCli(['hook', 'Codex!'], { env: t.env, stdin: '{}' })).code).toBe(1);
    expect((await runCli(['hook', 'codex'], { env: t.env, stdin: '{"hook_event_name":"Stop"}' })).code).toBe(0);
    expect(await hookLog()).toContain('malformed input: no session id');
  });
});
