// The scan's partial stores: what it keeps counts toward the memory bound, whichever way it was read.
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../context.js';
import { makeSandbox } from '../../testkit/engine-harness.js';
import type { IndexEntry } from './workspace-index.js';
import { scanTree } from './scan.js';

describe('scanTree partial stores', () => {
  it('counts a content kept after its hash no longer matched toward the partial bound', async () => {
    const sb = await makeSandbox();
    await writeFile(join(sb.workspace, 'a.txt'), 'aaaa');
    await writeFile(join(sb.workspace, 'b.txt'), 'bbbb');
    const engine = await sb.open();
    const ctx = (engine as unknown as { ctx: EngineContext }).ctx;
    const first = ctx.contents.batch();
    const baseline = (await scanTree(ctx, { baseline: new Map(), batch: first })).current;
    first.discard();
    expect(baseline.get('workspace:/a.txt')?.hash).toBeTruthy();

    // Same sizes, new contents and times: each is hashed against its known hash, then kept from those bytes.
    const later = new Date(Date.now() + 60_000);
    for (const [name, text] of [
      ['a.txt', 'AAAA'],
      ['b.txt', 'BBBB'],
    ]) {
      await writeFile(join(sb.workspace, name), text);
      await utimes(join(sb.workspace, name), later, later);
    }
    const stores: string[][] = [];
    const batch = ctx.contents.batch();
    const scan = await scanTree(ctx, {
      baseline,
      batch,
      partial: {
        bytes: 1,
        store: (fresh: Map<string, IndexEntry>) => {
          stores.push([...fresh.keys()]);
        },
      },
    });
    batch.discard();
    expect(scan.changed).toEqual(['workspace:/a.txt', 'workspace:/b.txt']);
    // One store per kept content, as each passes the one-byte bound (not a single one at the end).
    expect(stores).toEqual([['workspace:/a.txt'], ['workspace:/b.txt']]);
  });
});
