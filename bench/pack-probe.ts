// `npx tsx bench/pack-probe.ts [turns] [--keep dir]`: the commander.js history (item 10) replayed
// through one engine, with the CPU each turn's capture took against the CPU its packing took
// afterwards (process.cpuUsage around each), and the store's bytes once closed.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openEngine } from '../server/engine/index.js';
import { copyTree, treeSize } from './fs-tools.js';
import { applyThroughEngine } from './history/apply.js';
import { SHARED_DATA_DIR, checkoutTree, loadHistory } from './history/source.js';
import { storeComposition } from './store-composition.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'string' } } });
const turns = Number(positionals[0]) || 190;
const SPAN = {
  bundle: path.join(SHARED_DATA_DIR, 'commander.js.bundle'),
  base: '8b8d6e663dbebf2b8794d432f2ae94e53b7164ea',
  commits: 190,
  turns,
};

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function main(): Promise<void> {
  const base = values.keep ?? (await mkdtemp(path.join(os.tmpdir(), 'turnback-pack-probe-')));
  try {
    const history = await loadHistory(SPAN, path.join(base, 'source.git'));
    if (!history) throw new Error(`${SPAN.bundle} is not there`);
    const pristine = path.join(base, 'pristine');
    await checkoutTree(history.gitDir, history.base, pristine);
    const workspace = path.join(base, 'workspace');
    const dataDir = path.join(base, 'data');
    await copyTree(pristine, workspace);
    const engine = await openEngine({ workspace, dataDir, keepSessions: 0 });
    const capture: number[] = [];
    const packing: number[] = [];
    for (const turn of history.turns) {
      let at = process.cpuUsage();
      await applyThroughEngine(engine, workspace, 'history', turn);
      capture.push(cpuMs(process.cpuUsage(at)));
      at = process.cpuUsage();
      await engine.settled();
      packing.push(cpuMs(process.cpuUsage(at)));
    }
    await engine.close();
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const store = await treeSize(dataDir);
    const parts = storeComposition(dataDir);
    console.log(`${history.turns.length} turns`);
    console.log(`capture CPU: total ${sum(capture).toFixed(0)} ms, median ${median(capture).toFixed(2)} ms a turn`);
    console.log(`packing CPU: total ${sum(packing).toFixed(0)} ms, median ${median(packing).toFixed(2)} ms a turn`);
    console.log(`packing / capture: ${(sum(packing) / sum(capture)).toFixed(2)}×`);
    console.log(
      `store ${(store.bytes / 1024).toFixed(0)} KiB; contents ${(parts.contents / 1024).toFixed(0)} KiB, metadata ${(parts.metadata / 1024).toFixed(0)} KiB, free ${(parts.free / 1024).toFixed(0)} KiB`,
    );
    console.log(`largest: ${parts.largest.map((t) => `${t.name} ${(t.bytes / 1024).toFixed(0)} KiB`).join(', ')}`);
  } finally {
    if (!values.keep) await rm(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
