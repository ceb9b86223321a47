// The verification by stat tells what a walk of the whole tree tells: after any changes to a real
// tree, a scan of the paths it names finds the same changes and leaves the same entries as a
// full walk against the same baseline.
import { chmod, mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../context.js';
import { makeSandbox } from '../../../testkit/engine-harness.js';
import { type ScanResult, scanTree } from '../scan.js';
import { dirtyRoots } from '../watch/dirty-tree.js';
import { IndexTree } from '../watch/index-tree.js';
import type { IndexEntry } from '../workspace-index.js';
import { StatVerifier } from './stat-verify.js';

const NAMES = ['a', 'b', 'c.txt', 'd'];
const FOLDERS = ['', 'x', 'x/y', 'z'];

type Change =
  | { op: 'write'; folder: string; name: string; text: string }
  | { op: 'remove'; folder: string; name: string }
  | { op: 'mkdir'; folder: string; name: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'chmod'; folder: string; name: string }
  | { op: 'link'; folder: string; name: string }
  | { op: 'touch'; folder: string; name: string }
  | { op: 'ignore'; folder: string };

const at = fc.record({ folder: fc.constantFrom(...FOLDERS), name: fc.constantFrom(...NAMES) });
const change: fc.Arbitrary<Change> = fc.oneof(
  at.chain((p) => fc.string({ maxLength: 6 }).map((text) => ({ op: 'write' as const, ...p, text }))),
  at.map((p) => ({ op: 'remove' as const, ...p })),
  at.map((p) => ({ op: 'mkdir' as const, ...p })),
  fc
    .tuple(fc.constantFrom(...FOLDERS.slice(1)), fc.constantFrom(...FOLDERS.slice(1), 'w'))
    .map(([from, to]) => ({ op: 'rename' as const, from, to })),
  at.map((p) => ({ op: 'chmod' as const, ...p })),
  at.map((p) => ({ op: 'link' as const, ...p })),
  at.map((p) => ({ op: 'touch' as const, ...p })),
  fc.constantFrom(...FOLDERS).map((folder) => ({ op: 'ignore' as const, folder })),
);

async function apply(workspace: string, c: Change): Promise<void> {
  const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
  if (c.op === 'rename') return void (await quiet(rename(join(workspace, c.from), join(workspace, c.to))));
  if (c.op === 'ignore') return void (await quiet(writeFile(join(workspace, c.folder, '.gitignore'), 'b\n')));
  const p = join(workspace, c.folder, c.name);
  if (c.op === 'write') await quiet(writeFile(p, c.text));
  else if (c.op === 'remove') await quiet(rm(p, { recursive: true, force: true }));
  else if (c.op === 'mkdir') await quiet(mkdir(p));
  else if (c.op === 'chmod') await quiet(chmod(p, 0o700));
  else if (c.op === 'link') await quiet(symlink('../elsewhere', p));
  else await quiet(utimes(p, new Date(2_000_000_000), new Date(2_000_000_000)));
}

/** What a scan leaves, without the time it was seen (two scans read a path at two moments). */
const shape = (scan: ScanResult) => ({
  changed: [...scan.changed].sort(),
  current: [...scan.current]
    .map(([uri, e]) => [uri, { ...e, seenMs: 0 }] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
  unreadable: [...scan.unreadable].sort(),
});

describe('verification by stat', () => {
  it('names every path a full walk finds changed, whatever changed', async () => {
    const sb = await makeSandbox();
    const engine = await sb.open({ ignoredBudget: { files: 2, bytes: 1 << 20 } });
    const ctx = (engine as unknown as { ctx: EngineContext }).ctx;
    const old = new Date(Date.now() - 3_600_000);
    // One verifier throughout: a run whose tree holds the paths of the one before reuses its layout.
    const verifier = new StatVerifier();
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 8 }),
        fc.array(change, { minLength: 1, maxLength: 8 }),
        async (setup, changes) => {
          await rm(sb.workspace, { recursive: true, force: true });
          await mkdir(join(sb.workspace, 'x', 'y'), { recursive: true });
          await mkdir(join(sb.workspace, 'z'));
          for (const folder of FOLDERS) await writeFile(join(sb.workspace, folder, 'a'), `a in ${folder}`);
          for (const c of setup) await apply(sb.workspace, c);
          for (const folder of FOLDERS) await utimes(join(sb.workspace, folder, 'a'), old, old).catch(() => undefined);

          const first = ctx.contents.batch();
          const walked = await scanTree(ctx, { baseline: new Map(), batch: first });
          first.discard();
          // Seen long after its times: every entry is trusted by its stat alone (none is racy).
          const baseline = new Map<string, IndexEntry>(
            [...walked.current].map(([uri, e]) => [uri, { ...e, seenMs: Date.now() + 600_000 }]),
          );
          const tree = new IndexTree(baseline.keys());
          for (const c of changes) await apply(sb.workspace, c);

          const batch = ctx.contents.batch();
          try {
            const full = await scanTree(ctx, { baseline, batch });
            const named = await verifier.dirty(ctx, { map: () => baseline, childrenOf: (uri) => tree.childrenOf(uri) });
            expect(named).not.toBeNull();
            const roots = dirtyRoots(ctx.roots.list(), named!);
            // An ignore file among them asks for a walk of the whole tree (dirty-tree.ts): nothing to compare.
            if (roots === null) return;
            const unreadable = new Set([...baseline].filter(([, e]) => e.skipped === 'unreadable').map(([uri]) => uri));
            const verified = await scanTree(ctx, {
              baseline,
              batch,
              dirty: { roots, below: (uri) => tree.below(uri), unreadable, overBudget: walked.overBudget },
            });
            expect(shape(verified)).toEqual(shape(full));
            expect(verified.overBudget.map((o) => o.uri).sort()).toEqual(full.overBudget.map((o) => o.uri).sort());
          } finally {
            batch.discard();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('names nothing in a tree that has not changed', async () => {
    const sb = await makeSandbox();
    for (const name of ['a', 'b']) await writeFile(join(sb.workspace, name), name);
    await mkdir(join(sb.workspace, 'x'));
    await writeFile(join(sb.workspace, 'x', 'c'), 'c');
    const old = new Date(Date.now() - 3_600_000);
    for (const p of ['a', 'b', 'x/c']) await utimes(join(sb.workspace, p), old, old);
    const engine = await sb.open();
    const ctx = (engine as unknown as { ctx: EngineContext }).ctx;
    const batch = ctx.contents.batch();
    const walked = await scanTree(ctx, { baseline: new Map(), batch });
    batch.discard();
    const baseline = new Map([...walked.current].map(([uri, e]) => [uri, { ...e, seenMs: Date.now() + 600_000 }]));
    const tree = new IndexTree(baseline.keys());
    expect(
      await new StatVerifier().dirty(ctx, { map: () => baseline, childrenOf: (uri) => tree.childrenOf(uri) }),
    ).toEqual([]);
  });

  it('lists again only the folders whose stat moved since a clean listing, and still finds every change', async () => {
    const sb = await makeSandbox();
    for (const folder of FOLDERS) {
      await mkdir(join(sb.workspace, folder), { recursive: true });
      for (const name of NAMES) await writeFile(join(sb.workspace, folder, name), `${name} in ${folder}`);
    }
    const engine = await sb.open();
    const ctx = (engine as unknown as { ctx: EngineContext }).ctx;
    // Older than the tick a listing could miss a change in: the folders' listings are kept.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const first = ctx.contents.batch();
    const walked = await scanTree(ctx, { baseline: new Map(), batch: first });
    first.discard();
    const baseline = new Map([...walked.current].map(([uri, e]) => [uri, { ...e, seenMs: Date.now() + 600_000 }]));
    const tree = new IndexTree(baseline.keys());
    const index = { map: () => baseline, childrenOf: (uri: string) => tree.childrenOf(uri) };
    const verifier = new StatVerifier();
    expect(await verifier.dirty(ctx, index)).toEqual([]);
    const seen = (verifier as unknown as { layout: { seen: Float64Array } }).layout.seen;
    // Every folder (the root and the three below it) was listed clean and is kept.
    expect(seen.filter((v) => !Number.isNaN(v)).length).toBe(3 * FOLDERS.length);

    await writeFile(join(sb.workspace, 'x/y/new.txt'), 'new');
    await rename(join(sb.workspace, 'z/b'), join(sb.workspace, 'z/moved'));
    await rm(join(sb.workspace, 'x/a'));
    await writeFile(join(sb.workspace, 'd'), 'rewritten in place');
    const named = await verifier.dirty(ctx, index);
    expect(named!.map((p) => p.abs.slice(sb.workspace.length + 1)).sort()).toEqual(
      ['d', 'x/a', 'x/y/new.txt', 'z/b', 'z/moved'].sort(),
    );
    // And again: what moved is found again (the index has not taken it in), nothing more.
    const again = await verifier.dirty(ctx, index);
    expect(again!.map((p) => p.abs).sort()).toEqual(named!.map((p) => p.abs).sort());
  });
});
