// `turnback demo` on temp dirs: what it seeds, checked through the API, and that a rerun
// does not seed again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChange, Message, Session, Turn } from '../protocol.js';
import { parseFirstLine, runCli, type CliRun } from '../cli/test/spawn-cli.js';
import { send } from '../http/test/client.js';

let root: string;
const running: CliRun[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-demo-'));
});
afterAll(async () => {
  await Promise.all(running.splice(0).map((run) => run.stop('SIGKILL')));
  await rm(root, { recursive: true, force: true });
});

function demo(workspace = path.join(root, 'ws')): CliRun {
  const run = runCli(
    ['demo', '--workspace', workspace, '--data', path.join(root, 'data'), '--port', '0', '--token', 'tok'],
    {
      XDG_STATE_HOME: path.join(root, 'state'),
    },
  );
  running.push(run);
  return run;
}

async function get<T>(port: number, p: string): Promise<T> {
  const answer = await send(port, { path: p, token: 'tok' });
  expect(answer.status, p).toBe(200);
  return answer.json as T;
}

interface Seeded {
  sessions: Session[];
  turns: Turn[];
  files: FileChange[];
  messages: Message[];
}

async function readAll(port: number): Promise<Seeded> {
  const { sessions } = await get<{ sessions: Session[] }>(port, '/api/sessions');
  const seeded: Seeded = { sessions, turns: [], files: [], messages: [] };
  for (const session of sessions) {
    seeded.turns.push(...(await get<{ turns: Turn[] }>(port, `/api/sessions/${session.sessionId}/turns`)).turns);
    seeded.messages.push(
      ...(await get<{ messages: Message[] }>(port, `/api/sessions/${session.sessionId}/messages`)).messages,
    );
  }
  for (const turn of seeded.turns) {
    seeded.files.push(...(await get<{ files: FileChange[] }>(port, `/api/turns/${turn.turnId}`)).files);
  }
  return seeded;
}

describe('turnback demo', () => {
  let first: Seeded;
  let port: number;

  it('seeds two sessions of recorded turns and serves them', async () => {
    const run = demo();
    ({ port } = parseFirstLine(await run.firstLine));
    first = await readAll(port);

    expect(first.sessions.map((s) => `${s.platform}:${s.sessionType}`).sort()).toEqual([
      'claude-code:cli',
      'webui:chat',
    ]);
    expect(first.turns.filter((t) => t.kind === 'agent').length).toBeGreaterThanOrEqual(8);
    expect(new Set(first.messages.map((m) => m.role))).toEqual(new Set(['user', 'assistant', 'tool']));

    const changes = new Set(first.files.map((f) => f.change));
    for (const change of ['created', 'modified', 'renamed', 'moved', 'deleted', 'dir-created', 'dir-deleted']) {
      expect(changes, change).toContain(change);
    }
    expect(first.files.some((f) => f.skipped === 'too-large')).toBe(true);
    expect(first.turns.some((t) => t.execUsed && t.execCommands.length > 0)).toBe(true);
    expect(first.turns.some((t) => t.kind === 'rollback')).toBe(true);
    // A scripted command changes only what it would: a grep or a test run, nothing; the turn's
    // other steps are not credited to it.
    const commands = first.turns.flatMap((t) => t.execCommands);
    expect(commands.map((c) => [c.command, c.changed])).toEqual(commands.map((c) => [c.command, []]));
    expect(first.turns.some((t) => t.status === 'rolled-back')).toBe(true);

    const logoTurn = first.turns.find((t) => t.preview.includes('workspace:/assets/logo.png'));
    expect(logoTurn).toBeDefined();
    const diff = await get<{ after: { binary: boolean; exists: boolean } }>(
      port,
      `/api/turns/${logoTurn!.turnId}/diff?uri=${encodeURIComponent('workspace:/assets/logo.png')}`,
    );
    expect(diff.after).toMatchObject({ exists: true, binary: true });

    expect(await run.stop()).toEqual({ code: 0, signal: null });
  });

  it('does not seed again when rerun on the same data dir', async () => {
    const run = demo();
    const again = await readAll(parseFirstLine(await run.firstLine).port);
    expect(again.sessions.map((s) => s.sessionId).sort()).toEqual(first.sessions.map((s) => s.sessionId).sort());
    expect(again.turns.map((t) => t.turnId).sort()).toEqual(first.turns.map((t) => t.turnId).sort());
    expect(again.messages).toHaveLength(first.messages.length);
    expect(await run.stop()).toEqual({ code: 0, signal: null });
  });

  it('refuses to write the demo project into a workspace that holds other files', async () => {
    const foreign = path.join(root, 'foreign');
    await mkdir(foreign);
    await writeFile(path.join(foreign, 'mine.txt'), 'keep me');
    const run = runCli(['demo', '--workspace', foreign, '--data', path.join(root, 'data-foreign'), '--port', '0'], {
      XDG_STATE_HOME: path.join(root, 'state'),
    });
    running.push(run);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toMatch(/^turnback: .*not empty/);
  });
});
