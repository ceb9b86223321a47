// POST /api/agent/hook/claude-code: the server maps a raw Claude Code hook event to the agent
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
  t = await startHookTestServer();
  c = { cwd: t.workspace, transcriptPath: join(t.root, 'transcript.jsonl') };
  await mkdir(join(t.workspace, 'src'));
  await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => { await t.close(); });

const sessions = async () => (await t.api<{ sessions: unknown[] }>('GET', '/api/sessions')).json.sessions;
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const entries = async (turnId: string) => (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json.entries;
const messages = async () => (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json.messages;

async function forwarded(event: unknown): Promise<void> {
  expect(await t.postHook(event)).toEqual({ status: 200, json: { ok: true, outcome: 'forwarded' } });
}

describe('POST /api/agent/hook/claude-code', () => {
  it('begins a claude-code cli turn on a prompt', async () => {
    await forwarded(p.userPromptSubmit(c, 'Bump the answer'));
    const [turn] = await turns();
    expect(turn).toMatchObject({ number: 1, status: 'active', title: 'Bump the answer' });
    expect(await messages()).toMatchObject([{ role: 'user', content: 'Bump the answer', turnId: turn.turnId }]);
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
    expect((await t.api<Manifest>('GET', `/api/turns/${turn.turnId}`)).json.files.map((f) => f.uri)).toEqual([`workspace:/${nfd}`]);
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({ ok: true, restored: [`workspace:/${nfd}`] });
    expect(await readFile(join(t.workspace, nfd), 'utf8')).toBe('decomposed\n');
    expect(await readFile(join(t.workspace, nfc), 'utf8')).toBe('composed\n');
  });

  it('marks the turn as having run a shell command', async () => {
    await forwarded(p.userPromptSubmit(c, 'Test'));
    await forwarded(p.bash(c, 'npm test'));
    expect((await turns())[0]).toMatchObject({ execUsed: true, execCommands: [{ tool: 'exec', command: 'npm test' }] });
  });

  it('on stop, records the reply from the transcript, read by the server, and commits the turn', async () => {
    await forwarded(p.userPromptSubmit(c, 'Explain'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Explain', reply: ['Here is why.'] }]));
    await forwarded(p.stop(c));
    const [turn] = await turns();
    expect(turn.status).toBe('committed');
    expect((await messages()).map((m) => [m.role, m.content])).toEqual([['user', 'Explain'], ['assistant', 'Here is why.']]);
  });

  it('on stop, prefers the reply the event carries, and reads no transcript given by a relative path', async () => {
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'One', reply: ['From the transcript.'] }]));
    await forwarded(p.userPromptSubmit(c, 'One'));
    await forwarded({ ...p.stop(c), last_assistant_message: 'From the event.' });
    await forwarded(p.userPromptSubmit(c, 'Two'));
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Two', reply: ['Two, from the transcript.'] }]));
    // Relative to the server's cwd it names the very file; only an absolute path is read.
    await forwarded(p.stop({ ...c, transcriptPath: relative(process.cwd(), c.transcriptPath) }));
    expect((await messages()).map((m) => [m.role, m.content])).toEqual([
      ['user', 'One'], ['assistant', 'From the event.'], ['user', 'Two'],
    ]);
    expect((await turns()).map((turn) => turn.status)).toEqual(['committed', 'committed']);
  });

  it('answers ignored for an event or a tool turnback does not use, recording nothing', async () => {
    const sessionStart = { ...p.stop(c), hook_event_name: 'SessionStart', source: 'startup' };
    const read = p.preToolUse(c, 'Read', { file_path: join(t.workspace, 'src', 'app.ts') });
    for (const event of [sessionStart, read]) {
      expect(await t.postHook(event)).toEqual({ status: 200, json: { ok: true, outcome: 'ignored' } });
    }
    expect(await sessions()).toEqual([]);
  });

  it('answers outside-workspace for a file or a cwd outside its workspace, recording nothing', async () => {
    await forwarded(p.userPromptSubmit(c, 'Elsewhere'));
    const outside = { status: 200, json: { ok: true, outcome: 'outside-workspace' } };
    expect(await t.postHook(p.write(c, join(t.root, 'outside.ts'), 'x'))).toEqual(outside);
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
