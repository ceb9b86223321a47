// `npx tsx bench/capture-slowdown-probe.ts [files] [turns]`: what the background packing a turn
// leaves costs the next turn (item 1's 10-file turn on a W2-like tree). Turns alternate between
// starting once the last one's packing is done (settled) and starting right after its turn end,
// with the packing it left still to run; the CPU that packing took is measured on the settled
// turns (process.cpuUsage, every thread of the process) against the capture's own.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEngine } from '../server/engine/index.js';
import { engineTurn } from './contenders/turnback.js';
import { summarize } from './stats.js';
import { PathPicker, editsFor, generateWorkload } from './workloads.js';

const files = Number(process.argv[2]) || 10_000;
const turns = Number(process.argv[3]) || 40;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function main(): Promise<void> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'turnback-slowdown-probe-'));
  try {
    const workspace = path.join(base, 'workspace');
    const workload = await generateWorkload({ name: 'W2', files, bytes: files * 10_000 }, workspace, 0x5eed);
    const engine = await openEngine({ workspace, dataDir: path.join(base, 'data'), keepSessions: 0 });
    const picker = new PathPicker(workload.paths, 0xca97);
    const settledMs: number[] = [];
    const busyMs: number[] = [];
    const captureCpu: number[] = [];
    const packCpu: number[] = [];
    try {
      for (let run = 0; run <= turns; run++) {
        const afterSettle = run % 2 === 0;
        const edits = await editsFor(workload, picker.take(10), 10_000 + run * 10);
        const cpu = process.cpuUsage();
        const start = performance.now();
        await engineTurn(engine, 'probe', edits, `turn ${run}`);
        const ms = performance.now() - start;
        if (run > 1) (afterSettle ? settledMs : busyMs).push(ms);
        if (afterSettle) {
          captureCpu.push(cpuMs(process.cpuUsage(cpu)));
          const at = process.cpuUsage();
          await engine.settled();
          packCpu.push(cpuMs(process.cpuUsage(at)));
        }
      }
      await engine.settled();
    } finally {
      await engine.close();
    }
    const show = (label: string, xs: number[]) => {
      const s = summarize(xs);
      console.log(
        `${label}: median ${s.median.toFixed(1)} ms (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}, ${xs.length} turns)`,
      );
      return s.median;
    };
    const settled = show('turn after the packing is done', settledMs);
    const busy = show('turn right after a turn end (its packing pending)', busyMs);
    console.log(`slowdown: ${((busy / settled - 1) * 100).toFixed(0)}%`);
    show('capture CPU per turn', captureCpu);
    show('packing CPU per turn', packCpu);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
