// A rollback of many files writes its contents back in phases and flushes them with one
// syncfs; when that cannot run, it falls back to an fsync per file. Either way, exact.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from '../paths/fs.js';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';
import { treeAsText } from '../../testkit/tree.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const S = { sessionId: 's1' };
const FILES = 300;
const name = (i: number) => `d${i % 7}/f${i}.txt`;

async function turnOverManyFiles(fs: EngineFs) {
  for (let d = 0; d < 7; d++) await mkdir(path.join(box.workspace, `d${d}`));
  for (let i = 0; i < FILES; i++)
    await writeFile(path.join(box.workspace, name(i)), `original ${i}\n`.repeat((i % 5) + 1));
  const start = await treeAsText(box.workspace);
  const engine = await openEngineOn(box, { fs });
  const { turnId } = await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'many' });
  for (let i = 0; i < FILES; i++) await engine.storage.writeFile(`workspace:/${name(i)}`, `changed ${i}\n`, S);
  await engine.turnEnd(S);
  return { engine, turnId: turnId!, start };
}

describe(`a rollback of ${FILES} files`, () => {
  it('flushes the restored contents with one syncfs, not an fsync per file, and is exact', async () => {
    const fs = new EngineFs();
    const { engine, turnId, start } = await turnOverManyFiles(fs);
    const flushed: string[] = [];
    fs.beforeOp = (op, target) => {
      if (op === 'fsync') flushed.push(target);
    };
    const result = await engine.rollback(turnId);
    fs.beforeOp = undefined;
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(result.restored).toHaveLength(FILES);
    expect(flushed.filter((target) => target.startsWith(box.workspace))).toEqual([box.workspace]);
    expect(await treeAsText(box.workspace)).toEqual(start);
    await engine.close();
  });

  it('falls back to an fsync per file when syncfs cannot run, and is exact', async () => {
    const fs = new EngineFs();
    const { engine, turnId, start } = await turnOverManyFiles(fs);
    let perFile = 0;
    fs.beforeOp = (op, target) => {
      if (op !== 'fsync') return;
      if (target === box.workspace) throw Object.assign(new Error('sync: not found'), { code: 'ENOENT' });
      if (target.startsWith(box.workspace)) perFile++;
    };
    const result = await engine.rollback(turnId);
    fs.beforeOp = undefined;
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(perFile).toBe(FILES);
    expect(await treeAsText(box.workspace)).toEqual(start);
    await engine.close();
  });
});
