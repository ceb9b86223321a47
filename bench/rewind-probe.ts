// Where a rewind's time goes: item 10's commander.js history replayed once, then its whole
// session rewound and the rewind undone, N times, each timed beside `git restore` + `git clean`.
// Run: npx tsx bench/rewind-probe.ts [runs=5]
// With PROFILE=file, each rewind alone (not the replay, not its undo) is CPU-profiled into file.<run>.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchConfig } from './config.js';
import { createContext } from './context.js';
import { engineRollback, loadOpenEngine } from './contenders/turnback.js';
import { cpuProfilerFromEnv } from './cpu-profile.js';
import { flushFilesystem, removeTree } from './fs-tools.js';
import { HISTORY_SESSION, replayHistory } from './history/replay.js';
import { loadHistory, SHARED_DATA_DIR } from './history/source.js';
import { Results } from './results.js';

const runs = Number(process.argv[2] ?? 5);
const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-rewind-probe-'));
const config = benchConfig(false);
const openEngine = await loadOpenEngine();
const ctx = createContext(config, root, new Results(), openEngine, null, (m) => console.error(m));
const span = {
  bundle: path.join(SHARED_DATA_DIR, 'commander.js.bundle'),
  base: '8b8d6e663dbebf2b8794d432f2ae94e53b7164ea',
  commits: 190,
  turns: config.historyTurns,
};
try {
  const history = await loadHistory(span, path.join(root, 'source.git'));
  if (!history) throw new Error(`${span.bundle} is not there`);
  const replayed = await replayHistory(ctx, openEngine, history, root);
  await replayed.turnbackNoFlush.engine.close();
  const { engine, turnIds } = replayed.turnback;
  const git = replayed.git;
  const profiler = await cpuProfilerFromEnv(100);
  for (let r = 0; r < runs; r++) {
    await flushFilesystem(git.workspace);
    let start = performance.now();
    await git.git('restore', `--source=${replayed.gitCommits[0]}`, '--staged', '--worktree', '--', '.');
    await git.git('clean', '-fdq');
    const gitMs = performance.now() - start;
    await flushFilesystem(replayed.turnback.workspace);
    await profiler?.start();
    start = performance.now();
    const result = await engine.rewind(HISTORY_SESSION, { toTurnId: turnIds[0] });
    const ms = performance.now() - start;
    await profiler?.stop(`.${r}`);
    if (!result.ok) throw new Error(`rewind failed: ${JSON.stringify(result.errors.slice(0, 3))}`);
    console.log(
      `restored ${result.restored.length} deleted ${result.deleted.length} moved ${result.movedBack.length} unchanged ${result.unchanged.length}`,
    );
    console.log(`rewind ${ms.toFixed(1)} ms · git ${gitMs.toFixed(1)} ms · ${(ms / gitMs).toFixed(2)}×`);
    await engine.settled();
    await git.git(
      'restore',
      `--source=${replayed.gitCommits[replayed.gitCommits.length - 1]}`,
      '--staged',
      '--worktree',
      '--',
      '.',
    );
    await engineRollback(engine, result.rollbackTurnId!);
    await engine.settled();
  }
  await engine.close();
} finally {
  await removeTree(root);
}
