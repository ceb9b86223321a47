// POST /api/agent/hook/claude-code: the server maps a raw Claude Code hook event to engine
// calls itself; what it recorded is read back through the console API.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Message, Turn } from '../../../protocol.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';

let t: HookTestServer;
let c: { cwd: string; transcriptPath: string };
beforeEach(async () => {
  t = await startHookTestServer({ files: { 'src/app.ts': 'export const answer = 41;\n' } });
  c = t.context;
});
afterEach(async () => {
  await t.close();
});

const sessions = async () => (await t.api<{ sessions: unknown[] }>('GET', '/api/sessions')).json.sessions;
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const entries = async (turnId: string) => (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json.entries;
const messages = async () =>
  (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json.messages;
const chat = async () => (await messages()).map((m) => [m.role, m.content]);

async function forwarded(event: unknown, calls = 1): Promise<void> {
  expect(await t.postHook(event)).toEqual({ status: 200, json: { ok: true, outcome: 'forwarded', calls } });
}

describe('POST /api/agent/hook/claude-code', () => {
  it('begins a claude-code cli turn on a prompt', async () => {
    await forwarded(p.userPromptSubmit(c, 'Bump the answer'));
    const [turn] = await turns();
    expect(turn).toMatchObject({ number: 1, status: 'active', title: 'Bump the answer' });
    expect(await messages()).toMatchObject([{ role: 'user', content: 'Bump the answer', turnId: turn.turnId }]);
  });

  it('titles a turn by the first non-blank line of its prompt, cut by code points', async () => {
    await forwarded(p.userPromptSubmit(c, '\n  \nFix the login bug\nthen the tests'));
    await forwarded(p.stop(c), 1);
    await forwarded(p.userPromptSubmit(c, `${'a'.repeat(119)}😀 and more`));
    expect((await turns()).map((turn) => turn.title)).toEqual(['Fix the login bug', `${'a'.repeat(119)}😀`]);
  });

  it('records the state of a file a tool is about to change, a path relative to the cwd included', async () => {
    await forwarded(p.userPromptSubmit(c, 'Edit'));
    await forwarded(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await forwarded(p.write({ ...c, cwd: join(t.workspace, 'src') }, 'lib/new.ts', 'x'));
    const [turn] = await turns();
    expect((await entries(turn.turnId)).map((e) => [e.op, e.uri, e.before?.type ?? null])).toEqual([
      ['write', 'workspace:/src/app.ts', 'file'],
      ['mkdir', 'workspace:/src/lib', null],
      ['write', 'workspace:/src/lib/new.ts', null],
    ]);
  });

  it('labels each step by its tool, as the chat does: an Edit is Edit(…), a Write is Write(…)', async () => {
    await forwarded(p.userPromptSubmit(c, 'Edit and write'));
    await forwarded(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await forwarded(p.write(c, join(t.workspace, 'notes.md'), 'x'));
    await writeFile(join(t.workspace, 'notes.md'), 'x');
    const [turn] = await turns();
    const steps = (await t.api<{ steps: { title: string }[] }>('GET', `/api/turns/${turn.turnId}/steps`)).json.steps;
    expect(steps.map((step) => step.title)).toEqual(['Edit(src/app.ts)', 'Write(notes.md)']);
  });

  it('takes a file name as it is on disk: an NFD name is recorded and rolled back, its NFC twin untouched', async () => {
    const nfd = 'caf\u0065\u0301.txt';
    const nfc = nfd.normalize('NFC');
    await writeFile(join(t.workspace, nfd), 'decomposed\n');
    await writeFile(join(t.workspace, nfc), 'composed\n');
    await forwarded(p.userPromptSubmit(c, 'Edit the NFD one'));
    await forwarded(p.edit(c, join(t.workspace, nfd), 'decomposed', 'changed'));
    await writeFile(join(t.workspace, nfd), 'changed\n');
    await forwarded(p.stop(c));
    const [turn] = await turns();
    expect((await t.api<Manifest>('GET', `/api/turns/${turn.turnId}`)).json.files.map((f) => f.uri)).toEqual([
      `workspace:/${nfd}`,
    ]);
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({
      ok: true,
      restored: [`workspace:/${nfd}`],
    });
    expect(await readFile(join(t.workspace, nfd), 'utf8')).toBe('decomposed\n');
    expect(await readFile(join(t.workspace, nfc), 'utf8')).toBe('composed\n');
  });

  it('logs a Bash or MCP call as a command of the turn, under its tool name', async () => {
    await forwarded(p.userPromptSubmit(c, 'Test'));
    await forwarded(p.bash(c, 'npm test'));
    // The Bash call still open is ended first (its after scan), then the MCP call's before scan.
    await forwarded(p.preToolUse(c, 'mcp__db__query', { sql: 'select 1' }), 2);
    expect((await turns())[0]).toMatchObject({
      execUsed: true,
      execCommands: [
        { tool: 'Bash', command: 'npm test' },
        { tool: 'mcp__db__query', command: '{"sql":"select 1"}' },
      ],
    });
  });

  it('ends the command its PostToolUse or PostToolUseFailure names by tool_use_id, and no other', async () => {
    await forwarded(p.userPromptSubmit(c, 'Two commands'));
    const first = p.bash(c, 'true');
    const second = p.preToolUse(c, 'mcp__fs__touch', { path: 'x' });
    await forwarded(first);
    // Run side by side: the second's start ends the first (its after scan), and the first's own end answers what that found.
    await forwarded(second, 2);
    await forwarded(p.postToolUse(second, true));
    await forwarded(p.postToolUse(first));
    // Told twice: nothing is running under it.
    expect((await t.postHook(p.postToolUse(first))).json).toMatchObject({
      ok: true,
      outcome: 'ignored',
      ignored: expect.stringMatching(/no command/),
    });
    // Of a tool_use_id never started: a command ran unseen, and what changed since the turn's last scan is looked for (nothing here).
    await forwarded(p.postToolUse(p.bash(c, 'ls')));
  });

  it('leaves a background command open for the turn end: its PostToolUse comes while it runs', async () => {
    await forwarded(p.userPromptSubmit(c, 'Serve'));
    const serve = p.preToolUse(c, 'Bash', { command: 'npm run dev', run_in_background: true });
    await forwarded(serve);
    expect((await t.postHook(p.postToolUse(serve))).json).toMatchObject({ outcome: 'ignored' });
  });

  it('on stop, records every text block and a line per tool call from the transcript, then commits', async () => {
    await forwarded(p.userPromptSubmit(c, 'Explain'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Explain', reply: ['Here is why.'] }]));
    // The reply in the event is the transcript's last one: recorded once.
    await forwarded({ ...p.stop(c), last_assistant_message: 'Here is why.' }, 4);
    const [turn] = await turns();
    expect(turn.status).toBe('committed');
    expect(await chat()).toEqual([
      ['user', 'Explain'],
      ['assistant', 'I will write it.'],
      ['tool', 'Write()'],
      ['assistant', 'Here is why.'],
    ]);
    expect((await messages()).every((m) => m.turnId === turn.turnId)).toBe(true);
  });

  it('on stop, adds the reply the event carries when the transcript does not hold it yet', async () => {
    await forwarded(p.userPromptSubmit(c, 'One'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'One', reply: [] }]));
    await forwarded({ ...p.stop(c), last_assistant_message: 'From the event.' }, 4);
    await forwarded(p.userPromptSubmit(c, 'Two'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Two', reply: ['Two, from the transcript.'] }]));
    // Relative to the server's cwd it names the very file; only an absolute path is read.
    await forwarded(p.stop({ ...c, transcriptPath: relative(process.cwd(), c.transcriptPath) }));
    expect(await chat()).toEqual([
      ['user', 'One'],
      ['assistant', 'I will write it.'],
      ['tool', 'Write()'],
      ['assistant', 'From the event.'],
      ['user', 'Two'],
    ]);
    expect((await turns()).map((turn) => turn.status)).toEqual(['committed', 'committed']);
  });

  it("on stop, waits for the transcript to hold every tool call the turn's hooks announced", async () => {
    await forwarded(p.userPromptSubmit(c, 'Bump'));
    const edit = p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42');
    await forwarded(edit);
    // Claude Code can fire Stop before its last transcript lines are written.
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Bump', reply: [], tools: [] }]));
    const late = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
      writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Bump', reply: ['Bumped.'], tools: [edit] }])),
    );
    await forwarded({ ...p.stop(c), last_assistant_message: 'Bumped.' }, 4);
    await late;
    expect(await chat()).toEqual([
      ['user', 'Bump'],
      ['assistant', 'I will write it.'],
      ['tool', 'Edit(src/app.ts)'],
      ['assistant', 'Bumped.'],
    ]);
  });

  it('on stop, waits for the transcript a bounded time only: the turn commits with what it holds', async () => {
    await forwarded(p.userPromptSubmit(c, 'Bump'));
    await forwarded(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Bump', reply: [], tools: [] }]));
    await forwarded({ ...p.stop(c), last_assistant_message: 'Bumped.' }, 3);
    expect((await turns()).map((turn) => turn.status)).toEqual(['committed']);
    expect(await chat()).toEqual([
      ['user', 'Bump'],
      ['assistant', 'I will write it.'],
      ['assistant', 'Bumped.'],
    ]);
  });

  it('closes a turn that ends in StopFailure (an API error), once, with the error in its chat', async () => {
    await forwarded(p.userPromptSubmit(c, 'Explode'));
    await writeFile(
      c.transcriptPath,
      `${JSON.stringify({ type: 'user', message: { content: 'Explode' } })}\n${JSON.stringify({
        type: 'assistant',
        message: { id: 'synthetic', content: [{ type: 'text', text: 'API Error: 400 boom' }] },
      })}\n`,
    );
    await forwarded(p.stopFailure(c), 2);
    // Claude Code sends SessionEnd next: nothing is left to end.
    expect((await t.postHook(p.sessionEnd(c))).json).toMatchObject({
      outcome: 'ignored',
      ignored: expect.stringMatching(/no turn/),
    });
    const [turn] = await turns();
    expect(turn.status).toBe('committed');
    expect(await chat()).toEqual([
      ['user', 'Explode'],
      ['assistant', 'API Error: 400 boom'],
    ]);
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).status).toBe(200);
  });

  it('closes a turn that ends in SessionEnd alone (--max-turns, an exit)', async () => {
    await forwarded(p.userPromptSubmit(c, 'Loop'));
    await forwarded(p.edit(c, join(t.workspace, 'src', 'app.ts'), '41', '42'));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await forwarded(p.sessionEnd(c));
    const [turn] = await turns();
    expect(turn).toMatchObject({ status: 'committed', fileCount: 1 });
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({ ok: true });
    expect(await readFile(join(t.workspace, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
  });

  it('gives a turn Claude Code never ended its chat when the next prompt comes', async () => {
    await forwarded(p.userPromptSubmit(c, 'First'));
    await writeFile(
      c.transcriptPath,
      p.transcriptLines([
        { prompt: 'First', reply: ['Half done.'] },
        { prompt: 'Second', reply: [] },
      ]),
    );
    await forwarded(p.userPromptSubmit(c, 'Second'), 5);
    expect((await turns()).map((turn) => [turn.title, turn.status, turn.messageCount])).toEqual([
      ['First', 'committed', 4],
      ['Second', 'active', 1],
    ]);
  });

  it('answers ignored for an event or a tool turnback does not use, recording nothing', async () => {
    const sessionStart = { ...p.stop(c), hook_event_name: 'SessionStart', source: 'startup' };
    const read = p.preToolUse(c, 'Read', { file_path: join(t.workspace, 'src', 'app.ts') });
    for (const event of [sessionStart, read]) {
      expect(await t.postHook(event)).toEqual({
        status: 200,
        json: { ok: true, outcome: 'ignored', ignored: expect.any(String) },
      });
    }
    expect(await sessions()).toEqual([]);
  });

  it('answers outside-workspace for a file or a cwd outside its workspace, recording nothing', async () => {
    await forwarded(p.userPromptSubmit(c, 'Elsewhere'));
    const outside = { status: 200, json: { ok: true, outcome: 'outside-workspace', ignored: expect.any(String) } };
    // Never silent: the first time for the session, the hook is given what to tell the person.
    expect((await t.postHook(p.write(c, join(t.root, 'outside.ts'), 'x'))).json).toEqual({
      ok: true,
      outcome: 'not-recorded',
      ignored: expect.stringContaining('outside.ts'),
      systemMessage: expect.stringMatching(/^turnback is not recording a change of this session: .*outside\.ts/),
    });
    expect(await t.postHook(p.userPromptSubmit({ cwd: t.root }, 'Not here'))).toEqual(outside);
    expect(await t.postHook(p.bash({ cwd: t.root }, 'ls'))).toEqual(outside);
    const [turn] = await turns();
    expect(turn.execUsed).toBe(false);
    expect(await entries(turn.turnId)).toEqual([]);
    expect((await messages()).map((m) => m.content)).toEqual(['Elsewhere']);
  });

  it.each([
    ['not JSON', '{"session_id": ', /JSON/],
    ['an empty body', '', /hook_event_name/],
    ['a bad session id', JSON.stringify(p.userPromptSubmit({ cwd: '/', sessionId: '../x' }, 'x')), /session_id/],
    ['a relative cwd', JSON.stringify(p.userPromptSubmit({ cwd: 'workspace' }, 'x')), /cwd/],
    ['a Write without file_path', JSON.stringify(p.preToolUse({ cwd: '/' }, 'Write', {})), /file_path/],
  ])('refuses %s with 400 BAD_REQUEST', async (_label, body, message) => {
    const answer = await t.postHook(body);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('BAD_REQUEST');
    expect(answer.json.error.message).toMatch(message);
    expect(await sessions()).toEqual([]);
  });

  it('refuses a wrong token with 401 and records nothing', async () => {
    const answer = await t.postHook(p.userPromptSubmit(c, 'hello'), 'not-the-token');
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe('UNAUTHORIZED');
    expect(await sessions()).toEqual([]);
  });

  it('maps an engine refusal as every route does', async () => {
    await forwarded(p.userPromptSubmit(c, 'Sneaky'));
    await mkdir(join(t.workspace, 'bad'));
    // A file name the engine refuses as a URI (a backslash is never canonical).
    const answer = await t.postHook(p.write(c, join(t.workspace, 'bad', 'a\\b.ts'), 'x'));
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('BAD_URI');
  });
});
