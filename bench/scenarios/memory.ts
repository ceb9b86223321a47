// Item 6: peak RSS of a 1,000-file rollback and of a W3 (one large file) capture, each in a
// fresh child process so nothing else this run did inflates the figure.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { copyTree, removeTree } from '../fs-tools.js';
import type { ProbeAnswer, ProbeRequest } from '../rss-probe.js';
import { summarize } from '../stats.js';
import { PathPicker } from '../workloads.js';

export const MEMORY_SECTION = '6';
const run = promisify(execFile);
const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repoDir = path.dirname(benchDir);

async function probe(request: ProbeRequest): Promise<ProbeAnswer> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(benchDir, 'rss-probe.ts'), JSON.stringify(request)],
    { cwd: repoDir, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ProbeAnswer;
}

async function probeRuns(ctx: BenchContext, id: string, label: string, makeRequest: (run: number) => Promise<ProbeRequest>): Promise<void> {
  const answers: ProbeAnswer[] = [];
  for (let i = 0; i < ctx.config.runs; i++) answers.push(await probe(await makeRequest(i)));
  const { results } = ctx;
  results.figure(MEMORY_SECTION, `${id}.peak`, `${label}: peak RSS of the process`, 'turnback', 'bytes', summarize(answers.map((a) => a.peakRssBytes)));
  results.figure(MEMORY_SECTION, `${id}.growth`, `${label}: peak RSS above RSS before it`, 'turnback', 'bytes',
    summarize(answers.map((a) => a.peakRssBytes - a.baselineRssBytes)));
  results.figure(MEMORY_SECTION, `${id}.time`, `${label}: time`, 'turnback', 'ms', summarize(answers.map((a) => a.ms)));
}

export async function memoryScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const { config } = ctx;
  const w2 = await ctx.workload(config.w2);
  const rollbackFiles = Math.min(1000, w2.paths.length);
  const base = ctx.path('memory');
  await copyTree(w2.dir, path.join(base, 'w2'));
  const picker = new PathPicker(w2.paths, 0x6e6);
  await probeRuns(ctx, 'rss.rollback', `rollback of ${rollbackFiles} files (W2)`, async (i) => ({
    mode: 'rollback', workspace: path.join(base, 'w2'), dataDir: path.join(base, `w2-data-${i}`), paths: picker.take(rollbackFiles),
  }));

  const w3 = await ctx.workload(config.w3);
  await copyTree(w3.dir, path.join(base, 'w3'));
  const size = w3.totalBytes;
  await probeRuns(ctx, 'rss.capture', `W3 turn writing its ${(size / 1e6).toFixed(0)} MB file`, async (i) => ({
    mode: 'capture', workspace: path.join(base, 'w3'), dataDir: path.join(base, `w3-data-${i}`), paths: w3.paths,
    maxFileSize: size * 2,
  }));
  ctx.results.note(MEMORY_SECTION, `the W3 turn's new ${(size / 1e6).toFixed(0)} MB content is already in the caller's memory before `
    + 'the measured part; growth beyond it shows what capture and commit hold');
  await removeTree(base);
}
