import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from './blobs.js';
import { EngineFs } from './fs.js';
import { open, sandbox, type Sandbox } from './sandbox.testutil.js';

let box: Sandbox;
beforeEach(async () => { box = await sandbox(); });
afterEach(async () => { await box.cleanup(); });

// Records a turn writing a.txt, then exits without closing (as a crash would).
const child = fileURLToPath(new URL('./recovery-child.testutil.ts', import.meta.url));
const ORIGINAL = 'original';
const blobFile = () => { const h = sha256(Buffer.from(ORIGINAL)); return path.join(box.dataDir, 'store', 'blobs', h.slice(0, 2), h.slice(2)); };
const pendingRows = (): number => {
  const db = new Database(path.join(box.dataDir, 'store', 'turnback.db'), { readonly: true });
  try { return (db.prepare('SELECT COUNT(*) AS n FROM pending_contents').get() as { n: number }).n; } finally { db.close(); }
};

async function rollsBackExactly(): Promise<void> {
  const engine = await open(box);
  const [turn] = engine.listTurns('s1');
  expect(turn).toMatchObject({ interrupted: true, fileCount: 1 });
  expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true, restored: ['workspace:/a.txt'] });
  expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe(ORIGINAL);
  await engine.close();
  expect(pendingRows()).toBe(0);
}

describe('captured contents pending a blob file', () => {
  it('are committed with their entry: a crash before the blob file is written loses nothing', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), ORIGINAL);
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    expect(pendingRows()).toBe(1);
    await expect(stat(blobFile())).rejects.toMatchObject({ code: 'ENOENT' });
    await rollsBackExactly();
  });

  it('replace a blob file a crash left torn', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), ORIGINAL);
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    await mkdir(path.dirname(blobFile()), { recursive: true });
    await writeFile(blobFile(), 'torn');
    await rollsBackExactly();
  });

  it('become flushed blob files after the turn ends, and their rows go', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), ORIGINAL);
    const engine = await open(box);
    await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile('workspace:/a.txt', 'changed', { sessionId: 's1' });
    expect(pendingRows()).toBe(1);
    await engine.turnEnd({ sessionId: 's1' });
    await engine.settled();
    expect(pendingRows()).toBe(0);
    expect((await stat(blobFile())).isFile()).toBe(true);
    await engine.close();
  });

  it('after a crash, are flushed with one syncfs before anything relies on them; not after a clean close', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), ORIGINAL);
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    const blobsDir = path.join(box.dataDir, 'store', 'blobs');
    const synced: string[] = [];
    const fs = new EngineFs({ beforeOp: (op, target) => { if (op === 'fsync' && target === blobsDir) synced.push(target); } });
    const engine = await open(box, { fs });
    expect(synced).toEqual([blobsDir]);
    await engine.close();
    synced.length = 0;
    await (await open(box, { fs })).close();
    expect(synced).toEqual([]);
  });
});
