// The recorded Codex 0.169.0 events replayed through the core's receiver on a real engine, each
// tool's effect on disk made between its PreToolUse and PostToolUse as Codex made it: what the
// adapter maps them to must record every change and roll it back exactly.
import { mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { treeAsText } from '../../testkit/tree.js';
import { HostReceiver } from '../core/receiver.js';
import { codexHost } from './host.js';
import { recordedEvents, recordedRollout, type RawEvent } from './test/fixtures.js';

let root: string;
let home: string;
let workspace: string;
let engine: Engine;
let receiver: HostReceiver;
let events: RawEvent[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-codex-receive-'));
  home = join(root, 'home');
  workspace = join(root, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'a.txt'), 'alpha\nbeta\n');
  await writeFile(join(workspace, 'old.md'), 'old\n');
  await writeFile(join(workspace, 'scratch.txt'), 'tmp\n');
  events = recordedEvents(home, workspace);
  const rollout = events[0].transcript_path as string;
  await mkdir(dirname(rollout), { recursive: true });
  await writeFile(rollout, recordedRollout(home, workspace));
  engine = await openEngine({ workspace, dataDir: join(root, 'data'), scopes: ['codex:*'] });
  receiver = new HostReceiver(codexHost, { transcripts: { home, env: {} } });
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

/** What each tool call of the first turn did on disk, by its tool_use_id's place in the turn. */
const EFFECTS: (() => Promise<void>)[] = [
  async () => {
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src', 'new.ts'), 'export const x = 1;\n');
    await writeFile(join(workspace, 'a.txt'), 'alpha\ngamma\n');
  },
  async () => {
    await writeFile(join(workspace, 'a.txt'), 'ALPHA\ngamma\n');
    await unlink(join(workspace, 'scratch.txt'));
    await rename(join(workspace, 'old.md'), join(workspace, 'new.md'));
  },
  async () => {},
];

async function replayFirstTurn(): Promise<void> {
  const turn = events.slice(1, events.findIndex((e) => e.hook_event_name === 'SessionEnd') + 1);
  let call = 0;
  for (const event of turn) {
    const result = await receiver.receive(event, engine);
    expect(result.ok, `${event.hook_event_name} ${event.tool_name ?? ''}`).toBe(true);
    if (event.hook_event_name === 'PreToolUse') await EFFECTS[call++]();
  }
}

describe('Codex events through the core receiver', () => {
  it('records a turn of apply_patch and shell edits, with its chat, and rolls it back exactly', async () => {
    const start = await treeAsText(workspace);
    await replayFirstTurn();
    const [session] = engine.listSessions();
    expect(session).toMatchObject({ platform: 'codex', sessionType: 'cli' });
    const [turn] = engine.listTurns(session.sessionId);
    expect(turn).toMatchObject({ title: 'Turn 1: do it', status: 'committed', execUsed: true, execCaptured: true });
    expect(turn.execCommands.map((c) => [c.tool, c.endedAt !== null])).toEqual([
      ['Bash', true],
      ['Bash', true],
    ]);
    expect(engine.messages(session.sessionId).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Turn 1: do it'],
      ['tool', 'apply_patch(src/new.ts, a.txt)'],
      ['tool', "Bash(sed -i 's/alpha/ALPHA/' a.txt && rm scratch.txt && mv old.md new.md)"],
      ['tool', 'Bash(cat nope.txt)'],
      ['assistant', 'Turn 1 done.'],
    ]);
    expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(workspace)).toEqual(start);
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it('keeps a sub-agent in its parent turn: its prompt begins no turn', async () => {
    await replayFirstTurn();
    const second = events.slice(
      events.findIndex((e) => e.prompt === 'Turn 2: sub'),
      events.findIndex((e) => e.prompt === 'Turn 3: mcp'),
    );
    for (const event of second) {
      expect((await receiver.receive(event, engine)).ok).toBe(true);
      if (event.agent_id && event.hook_event_name === 'PreToolUse')
        await writeFile(join(workspace, 'sub.txt'), 'sub\n');
    }
    const [session] = engine.listSessions();
    const turns = engine.listTurns(session.sessionId);
    expect(turns.map((t) => [t.title, t.status])).toEqual([
      ['Turn 1: do it', 'committed'],
      ['Turn 2: sub', 'committed'],
    ]);
    expect(turns[1].execCommands.map((c) => c.command)).toEqual(['echo sub > sub.txt']);
    expect(turns[1].fileCount).toBe(1);
  });
});
