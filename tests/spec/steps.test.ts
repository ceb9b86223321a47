// One step of a turn undone on its own: a tool call's or a shell command's paths go back to
// their state before that step, everything else stays as the turn left it, a path a later step
// changed again is a conflict named by that step, and the step's undo is itself undoable.
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();
const read = (rel: string) => readFile(join(sandbox.workspace, rel), 'utf8');

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, {
    'a.txt': 'a start\n',
    'b.txt': 'x marks\n',
    'c.txt': 'c start\n',
    'build/out.js': 'built\n',
    'build/deep/map.js': 'map\n',
  });
  engine = await sandbox.open();
});

async function command(line: string): Promise<void> {
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: line });
  execFileSync('/bin/bash', ['-c', line], { cwd: sandbox.workspace, stdio: 'pipe' });
  await engine.execEnd({ ...s, execId: execId! });
}

/** Four steps: an Edit, `rm -rf build`, `sed -i` on b.txt, a Write of c.txt. */
async function fourSteps(): Promise<string> {
  return runTurn(engine, async () => {
    await engine.storage.writeFile(ws('a.txt'), 'a agent\n', { ...s, step: { id: 'toolu_1', title: 'Edit(a.txt)' } });
    await command('rm -rf build');
    await command("sed -i 's/x/y/' b.txt");
    await engine.storage.writeFile(ws('c.txt'), 'c agent\n', { ...s, step: { id: 'toolu_2', title: 'Write(c.txt)' } });
  });
}

describe('steps', () => {
  it('lists a turn’s tool calls and commands in order, with what each changed', async () => {
    const turnId = await fourSteps();
    const steps = engine.steps(turnId);
    expect(steps.map(({ index, kind, title }) => ({ index, kind, title }))).toEqual([
      { index: 1, kind: 'tool', title: 'Edit(a.txt)' },
      { index: 2, kind: 'command', title: 'Bash(rm -rf build)' },
      { index: 3, kind: 'command', title: "Bash(sed -i 's/x/y/' b.txt)" },
      { index: 4, kind: 'tool', title: 'Write(c.txt)' },
    ]);
    expect(steps[0].stepId).toBe('toolu_1');
    expect(steps[1].paths.sort()).toEqual([ws('build'), ws('build/deep'), ws('build/deep/map.js'), ws('build/out.js')]);
    expect(engine.getManifest(turnId).entries.find((e) => e.uri === ws('a.txt'))?.stepId).toBe('toolu_1');
  });

  it('undoes one step: its paths back to before it, the rest exactly as the turn left it; its undo returns the turn’s end', async () => {
    const start = await sandbox.tree();
    const turnId = await fourSteps();
    const end = await sandbox.tree();
    const plan = await engine.preview(turnId, { steps: [2] });
    expect(plan.conflicts).toEqual([]);
    const result = await engine.rollback(turnId, { steps: [2] });
    expect(result.ok).toBe(true);
    const now = await sandbox.tree();
    // build/ is back as it was at the turn's start; every other path is as the turn left it.
    for (const [rel, node] of now) expect(node, rel).toEqual(rel.startsWith('build') ? start.get(rel) : end.get(rel));
    for (const rel of start.keys()) if (rel.startsWith('build')) expect(now.has(rel), rel).toBe(true);
    expect(engine.getManifest(turnId).turn.status).toBe('partially-rolled-back');
    const rollbackTurn = engine.getManifest(result.rollbackTurnId!).turn;
    expect(rollbackTurn).toMatchObject({ kind: 'rollback', title: 'Undo of step 2 of #1', rollbackOf: [turnId] });

    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    assertSameTree(end, await sandbox.tree());
    expect(engine.getManifest(turnId).turn.status).toBe('committed');
  });

  it('a later step of the same turn that changed the path again is a conflict, named; force takes it back', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a.txt'), 'one\n', { ...s, step: { id: 'toolu_1', title: 'Write(a.txt)' } });
      await engine.storage.writeFile(ws('a.txt'), 'two\n', { ...s, step: { id: 'toolu_2', title: 'Edit(a.txt)' } });
    });
    const plan = await engine.preview(turnId, { steps: [1] });
    expect(plan.conflicts).toEqual([ws('a.txt')]);
    expect(plan.actions).toEqual([
      expect.objectContaining({ uri: ws('a.txt'), conflict: true, conflictStep: { index: 2, title: 'Edit(a.txt)' } }),
    ]);
    await expectCode(engine.rollback(turnId, { steps: [1] }), 'CONFLICT');
    expect(await read('a.txt')).toBe('two\n');
    expect((await engine.rollback(turnId, { steps: [1], force: true })).ok).toBe(true);
    expect(await read('a.txt')).toBe('a start\n');
  });

  it('the later step alone goes back to the state the earlier step left (a state in the middle of the turn)', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a.txt'), 'one\n', { ...s, step: { id: 'toolu_1' } });
      await engine.storage.writeFile(ws('a.txt'), 'two\n', { ...s, step: { id: 'toolu_2' } });
    });
    const result = await engine.rollback(turnId, { steps: [2] });
    expect(result).toMatchObject({ ok: true, restored: [ws('a.txt')] });
    expect(await read('a.txt')).toBe('one\n');
  });

  it('refuses a step the turn does not have, or steps with paths, with BAD_REQUEST; a bad step id too', async () => {
    const turnId = await fourSteps();
    await expectCode(engine.rollback(turnId, { steps: [5] }), 'BAD_REQUEST');
    await expectCode(engine.preview(turnId, { steps: [1], uris: [ws('a.txt')] }), 'BAD_REQUEST');
    const { turnId: next } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'more' });
    expect(next).toBeTypeOf('string');
    await expectCode(engine.storage.writeFile(ws('a.txt'), 'z', { ...s, step: { id: 'has space' } }), 'BAD_REQUEST');
  });

  it('a step that touched a path but left it as it was takes nothing back: a later step keeps its change', async () => {
    const turnId = await runTurn(engine, async () => {
      // A host announces a change it then does not make (a chmod to the mode the file has).
      await engine.beforeMutate({
        ...s,
        op: 'write',
        uri: ws('a.txt'),
        step: { id: 'toolu_1', title: 'Bash(chmod 644 a.txt)' },
      });
      await command("printf 'changed' > a.txt");
    });
    const result = await engine.rollback(turnId, { steps: [1] });
    expect(result).toMatchObject({ ok: true, rollbackTurnId: null });
    expect(await read('a.txt')).toBe('changed');
  });

  it('undoing the rename of an empty folder a later step filled leaves that step’s file where it put it', async () => {
    await mkdir(join(sandbox.workspace, 'empty'));
    const turnId = await runTurn(engine, async () => {
      await command('mv empty moved');
      await engine.storage.writeFile(ws('moved/later.txt'), 'later\n', { ...s, step: { id: 'toolu_2' } });
    });
    const result = await engine.rollback(turnId, { steps: [1], force: true });
    // The folder comes back; the filled one stays (it is not the step's to take away), and
    // the later file is not carried along under the old name.
    expect(result.errors.map((e) => [e.uri, e.code])).toEqual([[ws('moved'), 'NOT_EMPTY']]);
    expect(await read('moved/later.txt')).toBe('later\n');
    await expect(read('empty/later.txt')).rejects.toThrow(/ENOENT/);
    expect((await lstat(join(sandbox.workspace, 'empty'))).isDirectory()).toBe(true);
  });
});
