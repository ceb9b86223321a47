// Item 9: the scans around a shell command, with the service's filesystem watcher on, on W2 and
// on a larger tree, against the shadow git that snapshots the whole tree: building the
// workspace index the first time vs git's first `add -A && commit`; a command changing 10
// files (before scan + after scan, which look at what the watcher named) vs `git add -A &&
// git commit` of the same change; a command with nothing changed; the full verification scan a
// turn starts with (every path's lstat, in the background while the agent thinks) vs `git
// status --untracked-files=all`; peak RSS of the first scan.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fsTreeWatcher } from '../../server/engine/index.js';
import type { BenchContext } from '../context.js';
import { shadowGitContender } from '../contenders/shadow-git.js';
import { copyTree, flushFilesystem, removeTree } from '../fs-tools.js';
import { rssSupported, startRssWindow } from '../rss.js';
import { summarize } from '../stats.js';
import { editsFor, PathPicker, type WorkloadSpec } from '../workloads.js';

export const SCAN_SECTION = '9';

export async function scanScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  await scanOn(ctx, ctx.config.w2, '', { command: 0.1 });
  await scanOn(ctx, ctx.config.scanLarge, '.large', { command: 0.05 });
}

async function scanOn(ctx: BenchContext, spec: WorkloadSpec, key: string, targets: { command: number }): Promise<void> {
  const { config, results } = ctx;
  const workload = await ctx.workload(spec);
  const name = workload.spec.name;
  const base = ctx.path(`scan${key}`);
  const tbDir = path.join(base, 'turnback-workspace');
  const gitDir = path.join(base, 'git-workspace');
  await copyTree(workload.dir, tbDir);
  await copyTree(workload.dir, gitDir);
  const git = await shadowGitContender(gitDir, path.join(base, 'shadow.git'));
  const engine = await ctx.openEngine!({
    workspace: tbDir,
    dataDir: path.join(base, 'data'),
    keepSessions: 0,
    watcher: fsTreeWatcher,
  } as Parameters<NonNullable<BenchContext['openEngine']>>[0]);
  const sessionId = 'bench-scan';
  const s = { sessionId };
  const figure = (
    id: string,
    label: string,
    who: string,
    unit: 'ms' | 'bytes',
    value: Parameters<typeof results.figure>[5],
  ) => results.figure(SCAN_SECTION, `scan${key}.${id}`, `${name}: ${label}`, who, unit, value);
  try {
    await flushFilesystem(gitDir);
    let started = performance.now();
    await git.snapshot('first');
    figure('git-first', 'shadow git first git add -A && git commit', 'shadow-git', 'ms', performance.now() - started);

    await flushFilesystem(tbDir);
    const rss = rssSupported() ? startRssWindow() : null;
    started = performance.now();
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'first command' });
    const first = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
    const buildMs = performance.now() - started;
    const peak = rss?.finish();
    await engine.execEnd({ ...s, execId: first.execId! });
    await engine.turnEnd(s);
    await engine.settled();
    figure(
      'build',
      'building the workspace index (first turn-start scan, every content stored)',
      'turnback',
      'ms',
      buildMs,
    );
    results.ratio(
      SCAN_SECTION,
      `${name}: index build / git first snapshot`,
      `scan${key}.build`,
      `scan${key}.git-first`,
      0.5,
    );
    if (peak) {
      figure('rss', "first scan's peak RSS above the process", 'turnback', 'bytes', peak.growthBytes);
      results.note(
        SCAN_SECTION,
        `${name}: first scan: peak RSS ${(peak.growthBytes / 2 ** 20).toFixed(1)} MiB above the process (target ≤ 64 MiB)`,
      );
    }

    const picker = new PathPicker(workload.paths, 0x5ca9);
    const gitSamples: number[] = [];
    const statusSamples: number[] = [];
    const fullSamples: number[] = [];
    const scanSamples: number[] = [];
    const idleSamples: number[] = [];
    for (let run = 0; run <= config.runs; run++) {
      const edits = await editsFor(workload, picker.take(config.turnFiles), 90_000 + run * 100);
      await flushFilesystem(gitDir);
      started = performance.now();
      await git.git('status', '--porcelain', '--untracked-files=all');
      const statusMs = performance.now() - started;
      for (const edit of edits) await writeFile(path.join(gitDir, edit.path), edit.content);
      await flushFilesystem(gitDir);
      started = performance.now();
      await git.snapshot(`run ${run}`);
      const gitMs = performance.now() - started;

      await flushFilesystem(tbDir);
      // The turn's start: a full verification scan, in the background while the model thinks.
      started = performance.now();
      await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: `run ${run}` });
      await engine.settled();
      const fullMs = performance.now() - started;
      started = performance.now();
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit 10 files' });
      const beforeMs = performance.now() - started;
      // The command itself, untimed: its writes are the agent's, not the scans'.
      for (const edit of edits) await writeFile(path.join(tbDir, edit.path), edit.content);
      await flushFilesystem(tbDir);
      started = performance.now();
      const end = await engine.execEnd({ ...s, execId: execId! });
      const afterMs = performance.now() - started;
      if (end.changed.length !== edits.length)
        throw new Error(`the after scan saw ${end.changed.length} changes, not ${edits.length}`);
      started = performance.now();
      const idle = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
      await engine.execEnd({ ...s, execId: idle.execId! });
      const idleMs = performance.now() - started;
      await engine.turnEnd(s);
      await engine.settled();
      if (run === 0) continue; // warms up
      gitSamples.push(gitMs);
      statusSamples.push(statusMs);
      fullSamples.push(fullMs);
      scanSamples.push(beforeMs + afterMs);
      idleSamples.push(idleMs);
    }
    const n = config.turnFiles;
    figure('git-commit', `git add -A && git commit of a ${n}-file change`, 'shadow-git', 'ms', summarize(gitSamples));
    figure(
      'git-status',
      'git status --untracked-files=all (no fsmonitor)',
      'shadow-git',
      'ms',
      summarize(statusSamples),
    );
    figure(
      'command',
      `before + after scan of a command changing ${n} files (watcher)`,
      'turnback',
      'ms',
      summarize(scanSamples),
    );
    figure(
      'idle',
      'before + after scan of a command with nothing changed (watcher)',
      'turnback',
      'ms',
      summarize(idleSamples),
    );
    figure('full', "a turn start's full verification scan (nothing changed)", 'turnback', 'ms', summarize(fullSamples));
    results.ratio(
      SCAN_SECTION,
      `${name}: before + after scan / git commit`,
      `scan${key}.command`,
      `scan${key}.git-commit`,
      targets.command,
    );
    results.ratio(
      SCAN_SECTION,
      `${name}: full verification scan / git status`,
      `scan${key}.full`,
      `scan${key}.git-status`,
      1,
    );
    const idleMedian = summarize(idleSamples).median;
    results.note(
      SCAN_SECTION,
      `${name}: a command with nothing changed: median ${idleMedian.toFixed(2)} ms for its two scans (target ≤ 5 ms)`,
    );
  } finally {
    await engine.close();
    await removeTree(base);
  }
}
