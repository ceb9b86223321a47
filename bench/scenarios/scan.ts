// Item 9: the scans around a shell command on W2, against the shadow git that snapshots the
// whole tree: building the workspace index the first time vs git's first `add -A && commit`;
// a command changing 10 files (before scan + after scan) vs `git add -A && git commit` of the
// same change; a scan with nothing changed; peak RSS of the first scan.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from '../context.js';
import { shadowGitContender } from '../contenders/shadow-git.js';
import { copyTree, flushFilesystem, removeTree } from '../fs-tools.js';
import { rssSupported, startRssWindow } from '../rss.js';
import { summarize } from '../stats.js';
import { editsFor, PathPicker } from '../workloads.js';

export const SCAN_SECTION = '9';

export async function scanScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const { config, results } = ctx;
  const workload = await ctx.workload(config.w2);
  const name = workload.spec.name;
  const base = ctx.path('scan');
  const tbDir = path.join(base, 'turnback-workspace');
  const gitDir = path.join(base, 'git-workspace');
  await copyTree(workload.dir, tbDir);
  await copyTree(workload.dir, gitDir);
  const git = await shadowGitContender(gitDir, path.join(base, 'shadow.git'));
  const engine = await ctx.openEngine({ workspace: tbDir, dataDir: path.join(base, 'data'), keepSessions: 0 });
  const sessionId = 'bench-scan';
  const s = { sessionId };
  try {
    await flushFilesystem(gitDir);
    let started = performance.now();
    await git.snapshot('first');
    results.figure(
      SCAN_SECTION,
      'scan.git-first',
      `${name}: shadow git first git add -A && git commit`,
      'shadow-git',
      'ms',
      performance.now() - started,
    );

    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'first command' });
    await flushFilesystem(tbDir);
    const rss = rssSupported() ? startRssWindow() : null;
    started = performance.now();
    const first = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
    const buildMs = performance.now() - started;
    const peak = rss?.finish();
    await engine.execEnd({ ...s, execId: first.execId! });
    await engine.turnEnd(s);
    await engine.settled();
    results.figure(
      SCAN_SECTION,
      'scan.build',
      `${name}: building the workspace index (first before scan, every content stored)`,
      'turnback',
      'ms',
      buildMs,
    );
    results.ratio(SCAN_SECTION, 'index build / git first snapshot', 'scan.build', 'scan.git-first', 0.5);
    if (peak) {
      results.figure(
        SCAN_SECTION,
        'scan.rss',
        `${name}: first scan's peak RSS above the process`,
        'turnback',
        'bytes',
        peak.growthBytes,
      );
      results.note(
        SCAN_SECTION,
        `first scan: peak RSS ${(peak.growthBytes / 2 ** 20).toFixed(1)} MiB above the process (target ≤ 64 MiB)`,
      );
    }

    const picker = new PathPicker(workload.paths, 0x5ca9);
    const gitSamples: number[] = [];
    const scanSamples: number[] = [];
    const idleSamples: number[] = [];
    for (let run = 0; run <= config.runs; run++) {
      const edits = await editsFor(workload, picker.take(config.turnFiles), 90_000 + run * 100);
      for (const edit of edits) await writeFile(path.join(gitDir, edit.path), edit.content);
      await flushFilesystem(gitDir);
      started = performance.now();
      await git.snapshot(`run ${run}`);
      const gitMs = performance.now() - started;

      await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: `run ${run}` });
      await flushFilesystem(tbDir);
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
      const idleMs = performance.now() - started;
      await engine.execEnd({ ...s, execId: idle.execId! });
      await engine.turnEnd(s);
      await engine.settled();
      if (run === 0) continue; // warms up
      gitSamples.push(gitMs);
      scanSamples.push(beforeMs + afterMs);
      idleSamples.push(idleMs);
    }
    results.figure(
      SCAN_SECTION,
      'scan.git-commit',
      `${name}: git add -A && git commit of a ${config.turnFiles}-file change`,
      'shadow-git',
      'ms',
      summarize(gitSamples),
    );
    results.figure(
      SCAN_SECTION,
      'scan.command',
      `${name}: before + after scan of a command changing ${config.turnFiles} files`,
      'turnback',
      'ms',
      summarize(scanSamples),
    );
    results.figure(
      SCAN_SECTION,
      'scan.idle',
      `${name}: a scan with nothing changed`,
      'turnback',
      'ms',
      summarize(idleSamples),
    );
    results.ratio(SCAN_SECTION, `before + after scan / git commit`, 'scan.command', 'scan.git-commit', 0.25);
    results.ratio(SCAN_SECTION, 'scan with nothing changed / git commit', 'scan.idle', 'scan.git-commit', 0.1);
  } finally {
    await engine.close();
    await removeTree(base);
  }
}
