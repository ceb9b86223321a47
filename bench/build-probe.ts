// What the workspace index's first build costs on N files (100,000 by default, 2 KB each, as
// item 9's S100k): a turn's start and its first command on a fresh store, with the service's
// watcher, timed (item 9's "index build": the turn-start scan, not the background build); with
// `background`, the background build first (`buildIndex()`, item 13's), then that turn and
// command after it. PROFILE=file CPU-profiles what is timed.
// Run: npx tsx bench/build-probe.ts [files] [background]
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fsTreeWatcher, openEngine } from '../server/engine/index.js';
import { cpuProfilerFromEnv } from './cpu-profile.js';
import { flushFilesystem, removeTree } from './fs-tools.js';
import { generateWorkload } from './workloads.js';
const files = Number(process.argv[2] ?? 100_000);
const background = process.argv[3] === 'background';
const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-build-probe-'));
try {
  const w = await generateWorkload({ name: 'S100k', files, bytes: files * 2000 }, path.join(root, 'ws'), 7);
  const engine = await openEngine({
    workspace: w.dir,
    dataDir: path.join(root, 'data'),
    keepSessions: 0,
    watcher: fsTreeWatcher,
  } as Parameters<typeof openEngine>[0]);
  await flushFilesystem(w.dir);
  const profiler = await cpuProfilerFromEnv(500);
  await profiler?.start();
  if (background) {
    const built = performance.now();
    const status = await engine.buildIndex();
    console.log(`background build ${(performance.now() - built).toFixed(0)} ms (${status.state})`);
  }
  const s = { sessionId: 'b' };
  const started = performance.now();
  await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'first' });
  const first = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
  console.log(
    `${background ? 'turn start and first command after it' : 'build (turn start and first command)'} ${(performance.now() - started).toFixed(0)} ms`,
  );
  await profiler?.stop();
  await engine.execEnd({ ...s, execId: first.execId! });
  await engine.turnEnd(s);
  await engine.close();
} finally {
  await removeTree(root);
}
