// Which sessions get turns (scopes), what marks a turn as partially unprotected (exec), and
// how hosts that write files themselves get their changes recorded (beforeMutate).
import { readFile, rename as fsRename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  makeSandbox,
  plant,
  runTurn,
  SESSION,
  statusOf,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { roundTrip } from './roundtrip.testutil.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n', b: 'b0\n' });
});

const SCOPE_TABLE: [string[] | undefined, string, boolean][] = [
  [undefined, 'webui:chat', true],
  [undefined, 'onebot:group', false],
  [['webui:*'], 'webui:chat', true],
  [['webui:*'], 'webui:group', true],
  [['webui:*'], 'onebot:group', false],
  [['onebot:group'], 'onebot:group', true],
  [['onebot:group'], 'onebot:private', false],
  [['onebot:group'], 'webui:group', false],
  [['onebot:*'], 'onebot:private', true],
  [['*:group'], 'onebot:group', true],
  [['*:group'], 'onebot:private', false],
  [['webui:*', 'onebot:group'], 'onebot:group', true],
  [['*'], 'anything:at-all', true],
  [['*'], 'webui:chat', true],
  [[], 'webui:chat', false],
  [[], 'onebot:group', false],
];

describe('scopes', () => {
  it.each(SCOPE_TABLE)('scopes %j, session %s → recorded: %s', async (scopes, kind, recorded) => {
    const engine = await sandbox.open(scopes === undefined ? {} : { scopes });
    const [platform, sessionType] = kind.split(':');
    const { turnId } = await engine.input({ ...s, platform, sessionType, content: 'go' });
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    await engine.turnEnd(s);
    // Outside the scopes the write still happens; it is just not recorded.
    expect(await readFile(join(sandbox.workspace, 'a'), 'utf8')).toBe('a1\n');
    if (recorded) {
      expect(turnId).toBeTypeOf('string');
      expect(engine.getManifest(turnId as string).turn.fileCount).toBe(1);
    } else {
      expect(turnId).toBeNull();
      expect(engine.listTurns(SESSION)).toEqual([]);
    }
  });

  it('turns recorded before capture was disabled stay rollbackable', async () => {
    let engine = await sandbox.open();
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await engine.close();
    engine = await sandbox.open({ scopes: [] });
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });
});

describe('exec', () => {
  it.each(['exec', 'exec_background', 'run_shell', 'run_python', 'Bash', 'bash', 'shell', 'mcp__db__query'])(
    '%s during an active turn sets execUsed and logs the command',
    async (tool) => {
      const engine = await sandbox.open();
      const turnId = await runTurn(engine, async () => {
        expect(await engine.exec({ ...s, tool, command: 'make all' })).toMatchObject({ turnId: expect.any(String) });
      });
      const turn = engine.getManifest(turnId).turn;
      expect(turn.execUsed).toBe(true);
      expect(turn.execCommands).toEqual([expect.objectContaining({ tool, command: 'make all' })]);
    },
  );

  it('an exec outside an active turn records nothing', async () => {
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, async () => undefined);
    expect(await engine.exec({ ...s, tool: 'exec', command: 'rm -rf /' })).toEqual({ turnId: null, execId: null });
    const turn = engine.getManifest(turnId).turn;
    expect(turn.execUsed).toBe(false);
    expect(turn.execCommands).toEqual([]);
  });
});

describe('beforeMutate', () => {
  it('records the current state once per turn (the earliest wins) and touches nothing', async () => {
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    expect(await engine.beforeMutate({ ...s, op: 'write', uri: ws('a') })).toEqual({ recorded: false });
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'go' });
    expect(await engine.beforeMutate({ ...s, op: 'write', uri: ws('a') })).toEqual({ recorded: true });
    assertSameTree(start, await sandbox.tree());
    await writeFile(join(sandbox.workspace, 'a'), 'host edit one\n');
    await engine.beforeMutate({ ...s, op: 'write', uri: ws('a') });
    await writeFile(join(sandbox.workspace, 'a'), 'host edit two\n');
    await engine.turnEnd(s);
    expect(engine.getManifest(turnId as string).files).toEqual([
      expect.objectContaining({ uri: ws('a'), change: 'modified', before: expect.objectContaining({ size: 3 }) }),
    ]);
    const result = await engine.rollback(turnId as string);
    expect(result.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('a host rename announced with `to` rolls back both ends', async () => {
    const engine = await sandbox.open();
    await roundTrip(sandbox, engine, async () => {
      await engine.beforeMutate({ ...s, op: 'rename', uri: ws('a'), to: ws('b') });
      await fsRename(join(sandbox.workspace, 'a'), join(sandbox.workspace, 'b'));
    });
  });

  it('a host write to a new file rolls back to absent', async () => {
    const engine = await sandbox.open();
    const trip = await roundTrip(sandbox, engine, async () => {
      await engine.beforeMutate({ ...s, op: 'write', uri: ws('new.txt') });
      await writeFile(join(sandbox.workspace, 'new.txt'), 'by the host\n');
    });
    expect(statusOf(engine, trip.turnId)).toBe('committed');
    expect(engine.getManifest(trip.turnId).files.map((f) => [f.uri, f.change])).toEqual([[ws('new.txt'), 'created']]);
  });
});
