import { execFileSync } from 'node:child_process';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from './blobs.js';
import { decodeBatches, encodeBatch, type JournalBatch } from './journal.js';
import { open, sandbox, type Sandbox } from './sandbox.testutil.js';

let box: Sandbox;
beforeEach(async () => { box = await sandbox(); });
afterEach(async () => { await box.cleanup(); });

const child = fileURLToPath(new URL('./recovery-child.testutil.ts', import.meta.url));

function batch(turnId: string, content: string): JournalBatch {
  const data = Buffer.from(content);
  const hash = sha256(data);
  return {
    turnId,
    rows: { turn: { turn_id: turnId, number: 1 } },
    entries: [{
      turn_id: turnId, seq: 1, op: 'write', uri: 'workspace:/a.txt', to_uri: null,
      before: JSON.stringify({ type: 'file', hash, size: data.length, mode: 0o644 }), after: null,
      to_before: null, to_after: null, skipped: null, to_skipped: null,
    }],
    blobs: [{ hash, size: data.length, data }],
    refs: [hash],
  };
}

describe('capture journal format', () => {
  it('gives back what was appended, batch by batch, with the contents', () => {
    const batches = [batch('t1', 'one'), batch('t2', 'two'), { ...batch('t3', 'three'), blobs: [{ hash: 'h', size: 4 }] }];
    const decoded = decodeBatches(Buffer.concat(batches.map(encodeBatch)));
    expect(decoded).toEqual(batches);
  });

  it('stops at a torn tail: every cut of the last batch yields only the whole ones', () => {
    const whole = encodeBatch(batch('t1', 'first'));
    const last = encodeBatch(batch('t2', 'second content'));
    for (let cut = 0; cut < last.length; cut++) {
      const decoded = decodeBatches(Buffer.concat([whole, last.subarray(0, cut)]));
      expect(decoded.map((b) => b.turnId)).toEqual(['t1']);
    }
  });

  it('stops at content that does not match its hash, and at zeroes a crash left at the end', () => {
    const good = encodeBatch(batch('t1', 'first'));
    const bad = encodeBatch(batch('t2', 'second'));
    bad[bad.length - 1] ^= 0xff;
    expect(decodeBatches(Buffer.concat([good, bad])).map((b) => b.turnId)).toEqual(['t1']);
    expect(decodeBatches(Buffer.concat([good, Buffer.alloc(64)])).map((b) => b.turnId)).toEqual(['t1']);
  });
});

describe('replay after a crash', () => {
  const journalFile = () => path.join(box.dataDir, 'store', 'capture.journal');

  it('brings back entry rows and the turn a power cut lost, and the rollback is exact', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    expect((await stat(journalFile())).size).toBeGreaterThan(0);
    // What a power cut can do to relaxed commits: the turn and its entries never reached the disk.
    const db = new Database(path.join(box.dataDir, 'store', 'turnback.db'));
    db.exec('DELETE FROM entries; DELETE FROM turns; DELETE FROM blob_refs; DELETE FROM blobs');
    db.close();
    const engine = await open(box);
    expect(engine.recovery?.interruptedTurns).toHaveLength(1);
    const [turn] = engine.listTurns('s1');
    expect(turn).toMatchObject({ status: 'committed', interrupted: true, fileCount: 1 });
    expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true, restored: ['workspace:/a.txt'] });
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('original');
    await engine.settled();
    expect((await stat(journalFile())).size).toBe(0);
    await engine.close();
  });

  it('ignores a torn tail left by a crash in the middle of an append', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    execFileSync(process.execPath, ['--import', 'tsx', child, box.workspace, box.dataDir], { stdio: 'pipe' });
    await appendFile(journalFile(), encodeBatch(batch('ghost', 'never acknowledged')).subarray(0, 40));
    const engine = await open(box);
    expect(engine.listSessions().map((s) => s.sessionId)).toEqual(['s1']);
    expect(engine.listTurns('s1')).toHaveLength(1);
    const [turn] = engine.listTurns('s1');
    expect(await engine.rollback(turn.turnId)).toMatchObject({ ok: true });
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('original');
    await engine.close();
  });

  it('leaves a committed turn alone: a stale batch does not bring back what its commit dropped', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    let engine = await open(box);
    await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile('workspace:/a.txt', 'changed', { sessionId: 's1' });
    await engine.turnEnd({ sessionId: 's1' });
    const [turn] = engine.listTurns('s1');
    await engine.close();
    // A batch the checkpoint's truncation did not keep away (a power cut can undo a truncation).
    const stale = batch(turn.turnId, 'stale');
    stale.entries[0] = { ...stale.entries[0], seq: 99, uri: 'workspace:/other.txt' };
    await writeFile(journalFile(), encodeBatch(stale));
    engine = await open(box);
    expect(engine.getManifest(turn.turnId).files.map((f) => f.uri)).toEqual(['workspace:/a.txt']);
    expect(engine.getManifest(turn.turnId).entries).toHaveLength(1);
    await engine.close();
  });

  it('empties the journal at each turn end once what it guards is flushed', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    const engine = await open(box);
    await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile('workspace:/a.txt', 'changed', { sessionId: 's1' });
    expect((await stat(journalFile())).size).toBeGreaterThan(0);
    await engine.turnEnd({ sessionId: 's1' });
    await engine.settled();
    expect((await stat(journalFile())).size).toBe(0);
    await engine.close();
  });
});
