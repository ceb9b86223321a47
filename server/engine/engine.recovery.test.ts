import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open, sandbox, type Sandbox } from './sandbox.testutil.js';

let box: Sandbox;
beforeEach(async () => { box = await sandbox(); });
afterEach(async () => { await box.cleanup(); });

const child = fileURLToPath(new URL('./recovery-child.testutil.ts', import.meta.url));

describe('recovery on open', () => {
  it('commits a turn a crash left active as interrupted, removes temp files, and rolls it back', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    expect(await readdir(box.workspace)).toContain('.turnback-tmp-999-deadbeef');
    // A blob written just before a crash, whose entry row never committed.
    const orphan = path.join(box.dataDir, 'store', 'blobs', 'ab', 'c'.repeat(62));
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'orphan');
    const engine = await open(box);
    await expect(readFile(orphan)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(engine.recovery?.interruptedTurns).toHaveLength(1);
    expect(engine.recovery?.removedTempFiles).toBe(1);
    expect(await readdir(box.workspace)).toEqual(['a.txt']);
    const [turn] = engine.listTurns('s1');
    expect(turn).toMatchObject({ status: 'committed', interrupted: true, fileCount: 1 });
    expect(engine.listSessions()[0].activeTurnId).toBeNull();
    expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true, restored: ['workspace:/a.txt'] });
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('original');
    await engine.close();
  });
});
