import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineContext } from '../context.js';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const child = fileURLToPath(new URL('./recovery-child.testutil.ts', import.meta.url));

describe('recovery on open', () => {
  it('resumes a turn a crash left active, removes temp files, and rolls it back once it ends', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    expect(await readdir(box.workspace)).toContain('.turnback-tmp-999-deadbeef');
    // A blob written just before a crash, whose entry row never committed.
    const orphan = path.join(box.dataDir, 'store', 'blobs', 'ab', 'c'.repeat(62));
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'orphan');
    const engine = await openEngineOn(box);
    await expect(readFile(orphan)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(engine.recovery?.resumedTurns).toHaveLength(1);
    expect(engine.recovery?.interruptedTurns).toEqual([]);
    expect(engine.recovery?.removedTempFiles).toBe(1);
    expect(await readdir(box.workspace)).toEqual(['a.txt']);
    // It goes on: its session's next events are its; its end (the host's Stop) commits it.
    expect(engine.listTurns('s1')[0]).toMatchObject({ status: 'active' });
    await engine.turnEnd({ sessionId: 's1' });
    const [turn] = engine.listTurns('s1');
    expect(turn).toMatchObject({ status: 'committed', interrupted: true, fileCount: 1 });
    expect(engine.listSessions()[0].activeTurnId).toBeNull();
    expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true, restored: ['workspace:/a.txt'] });
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('original');
    await engine.close();
  });
});

describe('a resumed turn its session leaves quiet', () => {
  it('is committed interrupted once the wait has passed with nothing recorded', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    const engine = await openEngineOn(box, { resumedTurnWaitMs: 50 });
    expect(engine.recovery?.resumedTurns).toHaveLength(1);
    await expect.poll(() => engine.listTurns('s1')[0].status, { timeout: 30_000 }).toBe('committed');
    expect(engine.listTurns('s1')[0]).toMatchObject({ interrupted: true, fileCount: 1 });
    await engine.close();
  });
});

describe('a rollback cut short after its last write', () => {
  it('sets the statuses it never got to when run again, in the name of the interrupted rollback', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'a0');
    const engine = await openEngineOn(box);
    await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile('workspace:/a.txt', 'a1', { sessionId: 's1' });
    const { turnId } = await engine.turnEnd({ sessionId: 's1' });
    const first = await engine.rollback(turnId!);
    // What recovery leaves when the kill landed after the files were back but before the
    // statuses were written: the rollback turn committed as interrupted, the turn untouched.
    const { store } = (engine as unknown as { ctx: EngineContext }).ctx;
    store.turns.setStatus(turnId!, 'committed', null);
    store.db.prepare('UPDATE turns SET interrupted = 1 WHERE turn_id = ?').run(first.rollbackTurnId);

    const again = await engine.rollback(turnId!);
    expect(again).toMatchObject({ ok: true, rollbackTurnId: first.rollbackTurnId, restored: [], errors: [] });
    expect(engine.listTurns('s1').find((t) => t.turnId === turnId)).toMatchObject({
      status: 'rolled-back',
      rolledBackBy: first.rollbackTurnId,
    });
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('a0');
    // A third run has nothing left to complete.
    expect((await engine.rollback(turnId!)).rollbackTurnId).toBeNull();
    await engine.close();
  });
});
