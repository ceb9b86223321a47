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

/**
 * The session's prompt in a, then its turn in b begun with `promptInB` as the receiver begins it:
 * where the crash came, the link not yet made.
 */
async function cutBeforeTheLink(promptInB: string) {
  const a = await engineOn('a');
  const b = await engineOn('b');
  const before = new HostReceiver(claudeCodeHost);
  await before.receive(claude.userPromptSubmit({ cwd: a.workspace }, PROMPT), a);
  const [{ sessionId, platform, sessionType }] = a.listSessions();
  await b.input({ sessionId, platform, sessionType, content: promptInB });
  return { a, b, sessionId };
}

/** The session's stop in a, reaching a receiver started again (it knows no turn of the session). */
async function stopAfterRestart(a: Engine, b: Engine): Promise<void> {
  const restarted = new HostReceiver(claudeCodeHost);
  await restarted.receive(claude.stop({ cwd: a.workspace }), a, async () => [b]);
}

it('links the same prompt’s turns in two workspaces that a crash left unlinked, and ends both with the next stop', async () => {
  const { a, b, sessionId } = await cutBeforeTheLink(PROMPT);
  const turnA = a.listTurns(sessionId)[0].turnId;
  const turnB = b.listTurns(sessionId)[0].turnId;
  expect(a.listTurns(sessionId)[0].linked ?? []).toEqual([]);

  await stopAfterRestart(a, b);

  expect(a.listTurns(sessionId)[0]).toMatchObject({ linked: [{ root: b.workspace, turnId: turnB }] });
  expect(b.listTurns(sessionId)[0]).toMatchObject({ linked: [{ root: a.workspace, turnId: turnA }] });
  expect(a.listSessions()[0].activeTurnId).toBeNull();
  expect(b.listSessions()[0].activeTurnId).toBeNull();
});

it('leaves unlinked a turn of another prompt that a crash left going on in the other workspace', async () => {
  const { a, b, sessionId } = await cutBeforeTheLink('an older prompt');

  await stopAfterRestart(a, b);

  expect(a.listTurns(sessionId)[0].linked ?? []).toEqual([]);
  expect(b.listTurns(sessionId)[0].linked ?? []).toEqual([]);
});
