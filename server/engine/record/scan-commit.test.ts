// A scan's commit waits for the disk only when it stored contents: a file changed less than the
// racy margin ago is read again by the next scan, and when it holds what the index says, only
// its stat is refreshed, which needs no flush (a lost refresh is redone by the next scan). A
// scan storing much checkpoints the WAL from a thread, and hands it back when it ends.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../db/store.js';
import { makeSandbox, plant, who, ws } from '../../testkit/engine-harness.js';

const s = who();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a scan's commit", () => {
  it('is synced when the scan stored a content, and not when it only read a racy file to the same bytes', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const engine = await sb.open();
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'first' });
    const first = await engine.exec({ ...s, tool: 'Bash', command: 'edit a' });
    await writeFile(join(sb.workspace, 'a.txt'), 'A\n');
    await engine.execEnd({ ...s, execId: first.execId! });

    const synced = vi.spyOn(Store.prototype, 'transaction');
    // a.txt changed just now: this before scan reads it again, to the bytes it holds.
    const again = await engine.exec({ ...s, tool: 'Bash', command: 'nothing' });
    expect(synced).not.toHaveBeenCalled();
    await engine.execEnd({ ...s, execId: again.execId! });

    // A content the index has not seen: its scan waits for the disk before the command runs.
    synced.mockClear();
    await writeFile(join(sb.workspace, 'b.txt'), 'B, written outside any command\n');
    const third = await engine.exec({ ...s, tool: 'Bash', command: 'after an outside write' });
    expect(synced).toHaveBeenCalled();
    await engine.execEnd({ ...s, execId: third.execId! });
    await engine.turnEnd(s);
  });

  it('checkpoints from a thread while a first scan stores tens of MiB, and ends it with the scan', async () => {
    const sb = await makeSandbox();
    await mkdir(join(sb.workspace, 'assets'));
    // 40 files of 1 MiB, each its own bytes: the first scan stores past the thread's threshold.
    for (let i = 0; i < 40; i++)
      await writeFile(join(sb.workspace, 'assets', `a${i}.bin`), Buffer.alloc(1 << 20, `file ${i} `));
    const engine = await sb.open();
    const before = await sb.tree();
    const ends: string[] = [];
    const original = Store.prototype.offloadCheckpoints;
    vi.spyOn(Store.prototype, 'offloadCheckpoints').mockImplementation(function (this: Store) {
      const end = original.call(this);
      ends.push('started');
      return async () => {
        await end();
        ends.push('ended');
      };
    });
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'big' });
    const first = await engine.exec({ ...s, tool: 'Bash', command: 'rewrite an asset' });
    expect(ends).toEqual(['started', 'ended']);
    await writeFile(join(sb.workspace, 'assets', 'a7.bin'), 'small now\n');
    const end = await engine.execEnd({ ...s, execId: first.execId! });
    expect(end.changed).toEqual([ws('assets/a7.bin')]);
    await engine.turnEnd(s);
    await engine.rollback(turnId!);
    expect(await sb.tree()).toEqual(before);
  }, 60_000);
});
