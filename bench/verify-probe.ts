// What a turn start's full verification scan costs on W2 (10,000 files) beside `git status
// --untracked-files=all`: the index built once, then N turn starts with nothing changed, each
// `input` + `settled()` as item 9 times it, and git status on a copy of the same tree.
// Run: npx tsx bench/verify-probe.ts [runs=15] [files=10000] [commands]; with `commands`, each
// turn also runs a command changing 10 files, as item 9's turns do. PROFILE=file CPU-profiles
// each turn start into file.<run>.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fsTreeWatcher, openEngine } from '../server/engine/index.js';
import { shadowGitContender } from './contenders/shadow-git.js';
import { cpuProfilerFromEnv } from './cpu-profile.js';
import { copyTree, flushFilesystem, removeTree } from './fs-tools.js';
import { summarize } from './stats.js';
import { editsFor, generateWorkload, PathPicker } from './workloads.js';

const runs = Number(process.argv[2] ?? 15);
const files = Number(process.argv[3] ?? 10_000);
const commands = process.argv[4] === 'commands';
const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-verify-probe-'));
try {
  const workload = await generateWorkload({ name: 'W2', files, bytes: files * 10_000 }, path.join(root, 'ws'), 202);
  const gitDir = path.join(root, 'git-ws');
  await copyTree(workload.dir, gitDir);
  const git = await shadowGitContender(gitDir, path.join(root, 'shadow.git'));
  await git.snapshot('first');
  const engine = await openEngine({
    workspace: workload.dir,
    dataDir: path.join(root, 'data'),
    keepSessions: 0,
    watcher: fsTreeWatcher,
  } as Parameters<typeof openEngine>[0]);
  const s = { sessionId: 'verify-probe' };
  await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'build' });
  await engine.turnEnd(s);
  await engine.settled();
  const profiler = await cpuProfilerFromEnv(100);
  const picker = new PathPicker(workload.paths, 0x5ca9);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < runs; run++) {
    await flushFilesystem(gitDir);
    let started = performance.now();
    await git.git('status', '--porcelain', '--untracked-files=all');
    theirs.push(performance.now() - started);
    await flushFilesystem(workload.dir);
    await profiler?.start();
    started = performance.now();
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: `run ${run}` });
    await engine.settled();
    ours.push(performance.now() - started);
    await profiler?.stop(`.${run}`);
    if (commands) {
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit 10 files' });
      for (const edit of await editsFor(workload, picker.take(10), 90_000 + run * 100))
        await writeFile(path.join(workload.dir, edit.path), edit.content);
      await engine.execEnd({ ...s, execId: execId! });
    }
    await engine.turnEnd(s);
    await engine.settled();
  }
  const a = summarize(ours.slice(1));
  const b = summarize(theirs.slice(1));
  console.log(
    `turn start ${a.median.toFixed(1)} ms · git status ${b.median.toFixed(1)} ms · ${(a.median / b.median).toFixed(2)}×`,
  );
  await engine.close();
} finally {
  await removeTree(root);
}
