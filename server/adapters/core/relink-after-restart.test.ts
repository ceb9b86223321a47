// A session's turn that reached a second workspace, cut by a crash after its turn there began
// and before the two were linked: the restarted receiver follows both as one, and links them,
// so one undo takes back both (issue 37, found by the soak: "moved, not linked").
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { claudeCodeHost } from '../claude-code/host.js';
import * as claude from '../claude-code/test/payloads.js';
import { HostReceiver } from './receiver.js';

let root: string;
const engines: Engine[] = [];

async function engineOn(name: string): Promise<Engine> {
  const workspace = join(root, name);
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, 'app.txt'), `${name}\n`);
  const engine = await openEngine({ workspace, dataDir: join(root, `${name}-data`), scopes: ['claude-code:*'] });
  engines.push(engine);
  return engine;
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'turnback-relink-')));
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await rm(root, { recursive: true, force: true });
});

const PROMPT = 'tidy both projects';

it('links the same prompt’s turns in two workspaces that a crash left unlinked, and ends both with the next stop', async () => {
  const a = await engineOn('a');
  const b = await engineOn('b');
  const before = new HostReceiver(claudeCodeHost);
  await before.receive(claude.userPromptSubmit({ cwd: a.workspace }, PROMPT), a);
  const [session] = a.listSessions();
  // Where the crash came: the turn in b begun (as the receiver begins it), the link not yet made.
  await b.input({
    sessionId: session.sessionId,
    platform: session.platform,
    sessionType: session.sessionType,
    content: PROMPT,
  });
  const turnA = a.listTurns(session.sessionId)[0].turnId;
  const turnB = b.listTurns(session.sessionId)[0].turnId;
  expect(a.listTurns(session.sessionId)[0].linked ?? []).toEqual([]);

  const restarted = new HostReceiver(claudeCodeHost);
  await restarted.receive(claude.stop({ cwd: a.workspace }), a, async () => [b]);

  expect(a.listTurns(session.sessionId)[0]).toMatchObject({ linked: [{ root: b.workspace, turnId: turnB }] });
  expect(b.listTurns(session.sessionId)[0]).toMatchObject({ linked: [{ root: a.workspace, turnId: turnA }] });
  expect(a.listSessions()[0].activeTurnId).toBeNull();
  expect(b.listSessions()[0].activeTurnId).toBeNull();
});

it('leaves unlinked a turn of another prompt that a crash left going on in the other workspace', async () => {
  const a = await engineOn('a');
  const b = await engineOn('b');
  const before = new HostReceiver(claudeCodeHost);
  await before.receive(claude.userPromptSubmit({ cwd: a.workspace }, PROMPT), a);
  const [session] = a.listSessions();
  await b.input({
    sessionId: session.sessionId,
    platform: session.platform,
    sessionType: session.sessionType,
    content: 'an older prompt',
  });

  const restarted = new HostReceiver(claudeCodeHost);
  await restarted.receive(claude.stop({ cwd: a.workspace }), a, async () => [b]);

  expect(a.listTurns(session.sessionId)[0].linked ?? []).toEqual([]);
  expect(b.listTurns(session.sessionId)[0].linked ?? []).toEqual([]);
});
