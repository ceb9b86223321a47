// Where turnback's time goes in a turn of N writes and in its rollback: filesystem operations
// by kind (counted through the engine's fs hook), time spent in fsync, and the rest.
// Run: npx tsx bench/profile.ts [files=10] [workloadFiles=2000] [runs=3]
// With PROFILE=file, each rollback alone is CPU-profiled into file.<run> (or strace -f -c for syscalls).
import { mkdtemp, open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EngineFs, openEngine, type FsOpName } from '../server/engine/index.js';
import { engineRollback, engineTurn } from './contenders/turnback.js';
import { cpuProfilerFromEnv } from './cpu-profile.js';
import { removeTree } from './fs-tools.js';
import { editsFor, generateWorkload, PathPicker } from './workloads.js';

const files = Number(process.argv[2] ?? 10);
const workloadFiles = Number(process.argv[3] ?? 2000);
const runs = Number(process.argv[4] ?? 3);

const counts = new Map<FsOpName, number>();
let syncMs = 0;
let syncCalls = 0;

// Every fsync of the engine (files and directories) goes through FileHandle#sync.
const probe = await open(os.tmpdir(), 'r');
const FileHandle = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
await probe.close();
const originalSync = FileHandle.sync;
FileHandle.sync = async function timedSync(this: unknown) {
  const start = performance.now();
  try {
    return await originalSync.call(this);
  } finally {
    syncMs += performance.now() - start;
    syncCalls++;
  }
};

function phase(): () => string {
  counts.clear();
  syncMs = 0;
  syncCalls = 0;
  const start = performance.now();
  return () => {
    const total = performance.now() - start;
    const ops = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([op, n]) => `${op} ${n}`)
      .join(', ');
    return `${total.toFixed(1)} ms total; node fsync ${syncCalls}× ${syncMs.toFixed(1)} ms; rest ${(total - syncMs).toFixed(1)} ms\n    fs ops: ${ops}`;
  };
}

const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-profile-'));
try {
  const workload = await generateWorkload(
    { name: 'P', files: workloadFiles, bytes: workloadFiles * 10_000 },
    path.join(root, 'ws'),
    7,
  );
  const fs = new EngineFs({
    beforeOp: (op) => {
      counts.set(op, (counts.get(op) ?? 0) + 1);
    },
  });
  const engine = await openEngine({
    workspace: workload.dir,
    dataDir: path.join(root, 'data'),
    keepSessions: 0,
    fs,
  } as Parameters<typeof openEngine>[0]);
  const picker = new PathPicker(workload.paths, 1);
  const profiler = await cpuProfilerFromEnv(200);
  for (let run = 0; run < runs; run++) {
    const edits = await editsFor(workload, picker.take(files), run * files);
    let done = phase();
    const turnId = await engineTurn(engine, 'profile', edits, `profile ${run}`);
    console.log(`run ${run}: turn of ${files} writes: ${done()}`);
    await engine.settled(); // as the bench does, untimed: the turn's packing and checkpoint
    done = phase();
    await profiler?.start();
    await engineRollback(engine, turnId);
    await profiler?.stop(`.${run}`);
    console.log(`run ${run}: rollback of ${files} files: ${done()}`);
  }
  await engine.close();
} finally {
  await removeTree(root);
}
