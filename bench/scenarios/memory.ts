// Item 6: peak RSS of a W3 (one large file) capture, in a fresh child process so nothing
// else this run did inflates the figure. The 1,000-file rollback's peak is taken during
// item 2's runs (rollback.ts), which already pay for that turn's setup.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { readFile } from 'node:fs/promises';
import { copyTree, durableWrite, removeTree } from '../fs-tools.js';
import type { ProbeAnswer, ProbeRequest } from '../rss-probe.js';
import { repeat, summarize } from '../stats.js';

export const MEMORY_SECTION = '6';
const run = promisify(execFile);
const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repoDir = path.dirname(benchDir);

async function probe(request: ProbeRequest): Promise<ProbeAnswer> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', path.join(benchDir, 'rss-probe.ts'), JSON.stringify(request)],
    { cwd: repoDir, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as ProbeAnswer;
}

async function probeRuns(
  ctx: BenchContext,
  id: string,
  label: string,
  makeRequest: (run: number) => Promise<ProbeRequest>,
): Promise<void> {
  const answers: ProbeAnswer[] = [];
  for (let i = 0; i < ctx.config.runs; i++) answers.push(await probe(await makeRequest(i)));
  const { results } = ctx;
  results.figure(
    MEMORY_SECTION,
    `${id}.peak`,
    `${label}: peak RSS of the process`,
    'turnback',
    'bytes',
    summarize(answers.map((a) => a.peakRssBytes)),
  );
  results.figure(
    MEMORY_SECTION,
    `${id}.growth`,
    `${label}: peak RSS above RSS before it`,
    'turnback',
    'bytes',
    summarize(answers.map((a) => a.peakRssBytes - a.baselineRssBytes)),
  );
  results.figure(
    MEMORY_SECTION,
    `${id}.live`,
    `${label}: peak JS heap + buffers above before (garbage included)`,
    'turnback',
    'bytes',
    summarize(answers.map((a) => a.liveGrowthBytes)),
  );
  results.figure(MEMORY_SECTION, `${id}.time`, `${label}: time`, 'turnback', 'ms', summarize(answers.map((a) => a.ms)));
}

export async function memoryScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const { config } = ctx;
  const base = ctx.path('memory');
  const w3 = await ctx.workload(config.w3);
  await copyTree(w3.dir, path.join(base, 'w3'));
  const size = w3.totalBytes;
  await probeRuns(ctx, 'rss.capture', `W3 turn writing its ${(size / 1e6).toFixed(0)} MB file`, async (i) => ({
    workspace: path.join(base, 'w3'),
    dataDir: path.join(base, `w3-data-${i}`),
    paths: w3.paths,
    maxFileSize: size * 2,
  }));
  // The floor for the same bytes: one durable write of the new content.
  const file = path.join(base, 'w3', w3.paths[0]);
  const content = Buffer.concat([await readFile(file), Buffer.from('\n// edited\n')]);
  const raw = await repeat(() => durableWrite(path.join(base, 'raw-copy'), content), { runs: config.runs });
  ctx.results.figure(
    MEMORY_SECTION,
    'rss.capture.raw',
    `W3: raw durable write of the same ${(size / 1e6).toFixed(0)} MB`,
    'raw',
    'ms',
    raw,
  );
  ctx.results.ratio(MEMORY_SECTION, 'W3 turn time, turnback / raw', 'rss.capture.time', 'rss.capture.raw');
  if (!ctx.results.get('rss.rollback.peak')) {
    ctx.results.notMeasured(
      MEMORY_SECTION,
      'peak RSS of the 1,000-file rollback: it is taken during item 2, which did not run',
    );
  }
  ctx.results.note(
    MEMORY_SECTION,
    `the W3 turn's new ${(size / 1e6).toFixed(0)} MB content is already in the caller's memory before ` +
      'the measured part; growth beyond it shows what capture and commit hold',
  );
  await removeTree(base);
}
