// Item 5: bytes kept after N turns of small edits, turnback's store vs the shadow git dir.
import type { BenchContext } from '../context.js';
import { treeSize, type TreeSize } from '../fs-tools.js';
import { storeComposition } from '../store-composition.js';
import { editsFor, PathPicker } from '../workloads.js';
import type { Arena } from './arena.js';

export const STORAGE_SECTION = '5';

export async function storageScenario(ctx: BenchContext, arena: Arena): Promise<void> {
  const { results, config } = ctx;
  const name = arena.workload.spec.name;
  const picker = new PathPicker(arena.workload.paths, 0x5707 + arena.workload.paths.length);
  for (let turn = 0; turn < config.storageTurns; turn++) {
    const edits = await editsFor(arena.workload, picker.take(config.storageEditsPerTurn), 50_000 + turn * 100);
    await arena.git.turn(edits, `turn ${turn + 1}`);
    await arena.turnback?.turn(edits, `turn ${turn + 1}`);
  }
  const label = `${name}, ${config.storageTurns} turns × ${config.storageEditsPerTurn} edits`;
  const gitLoose = await treeSize(arena.git.gitDir);
  results.figure(
    STORAGE_SECTION,
    `storage.${name}.git`,
    `${label}: shadow git dir`,
    'shadow-git',
    'bytes',
    gitLoose.bytes,
  );

  let store: TreeSize | null = null;
  if (arena.turnback) {
    // At rest, as git's dir is: the background packing of the last turns done, then measured
    // closed (nothing left in SQLite's WAL).
    await arena.turnback.settle?.();
    await arena.reopenTurnback(async () => {
      store = await treeSize(arena.turnback!.engine.dataDir);
    });
  }
  if (store) {
    const s = store as TreeSize;
    results.figure(
      STORAGE_SECTION,
      `storage.${name}.turnback`,
      `${label}: turnback store`,
      'turnback',
      'bytes',
      s.bytes,
    );
    results.note(
      STORAGE_SECTION,
      `${name} on disk (du): turnback ${mib(s.diskBytes)} in ${s.files} files, ` +
        `shadow git ${mib(gitLoose.diskBytes)} in ${gitLoose.files} files`,
    );
    const parts = storeComposition(arena.turnback!.engine.dataDir);
    results.note(
      STORAGE_SECTION,
      `${name} turnback store: contents ${mib(parts.contents)}, metadata ${mib(parts.metadata)} ` +
        `(${parts.largest.map((t) => `${t.name} ${mib(t.bytes)}`).join(', ')}), free ${mib(parts.free)}`,
    );
  }
  results.ratio(
    STORAGE_SECTION,
    `${name} turnback store / shadow git dir`,
    `storage.${name}.turnback`,
    `storage.${name}.git`,
    0.5,
  );

  // Packed (what git's auto gc eventually does): the strongest form of the competitor. Over
  // a minute for W2 on a small machine, so only where it is cheap.
  if (arena.workload.totalBytes > 20e6) {
    results.note(
      STORAGE_SECTION,
      `${name} packed git size not measured: git gc of ${arena.workload.totalBytes / 1e6} MB takes over a minute here`,
    );
    return;
  }
  const started = performance.now();
  await arena.git.git('gc', '-q');
  ctx.log(`${name}: git gc ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const packed = await treeSize(arena.git.gitDir);
  results.figure(
    STORAGE_SECTION,
    `storage.${name}.git-packed`,
    `${label}: shadow git dir after git gc`,
    'shadow-git',
    'bytes',
    packed.bytes,
  );
  results.ratio(
    STORAGE_SECTION,
    `${name} turnback store / packed shadow git dir`,
    `storage.${name}.turnback`,
    `storage.${name}.git-packed`,
  );
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
