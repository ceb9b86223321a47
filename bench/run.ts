// `npm run bench [-- --quick] [--json] [--markdown-file f] [--only 1,2] [--reuse-build] [--keep]`: every workload and contender in
// one process and one run; a table on stdout (or JSON with --json), progress on stderr. A full run
// (neither --quick nor --only) also writes its table into docs/performance.md.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchConfig } from './config.js';
import { createContext } from './context.js';
import { loadOpenEngine, type OpenEngine } from './contenders/turnback.js';
import { removeTree } from './fs-tools.js';
import { describeMachine } from './machine.js';
import { renderJson, renderMarkdown, renderTable } from './report.js';
import { Results } from './results.js';
import { SECTIONS, runScenarios } from './scenarios/index.js';
import { scratchDirs } from './scenarios/seeded-store.js';
import { writeGeneratedBlock } from '../server/testkit/generated-doc.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    'markdown-file': { type: 'string' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'reuse-build': { type: 'boolean', default: false },
  },
});

function gitHead(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const log = (message: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = os.loadavg()[0];
  const config = benchConfig(values.quick ?? false);
  const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
  const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-bench-'));
  const results = new Results();
  for (const [id, title] of SECTIONS) results.section(id, title);

  let openEngine: OpenEngine | null = null;
  let engineLoadError: string | null = null;
  try {
    openEngine = await loadOpenEngine();
  } catch (error) {
    engineLoadError = error instanceof Error ? error.message : String(error);
    log(`engine not available: ${engineLoadError}`);
  }
  // An interrupted run still leaves no temp dirs behind.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const dir of [root, ...scratchDirs]) rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  }
  const ctx = createContext(config, root, results, openEngine, engineLoadError, log);
  try {
    await runScenarios(ctx, { only, reuseBuild: values['reuse-build'] ?? false });
  } finally {
    if (values.keep) log(`kept ${root}`);
    else await removeTree(root);
  }
  const machine = describeMachine();
  const durationSeconds = Math.round((Date.now() - started) / 1000);
  const header = [
    `workloads: ${describeSpec(config.w1)} · ${describeSpec(config.w2)} in nested directories · ${describeSpec(config.w3)}`,
    `${config.quick ? 'QUICK smoke run (shrunk workloads) · ' : ''}median of ${config.runs} runs · took ${durationSeconds} s`,
    // Other work on the machine shows up in every figure: say how busy it was.
    `load average (1 min) ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end, on ${machine.cpus} CPUs`,
  ];
  if (values['markdown-file'])
    await writeFile(values['markdown-file'], renderMarkdown(results, machine, header) + '\n');
  if (!config.quick && !only) {
    const stamp = `Latest full run: ${new Date(started).toISOString().slice(0, 10)}, commit ${gitHead()}.`;
    await writeGeneratedBlock(
      'docs/performance.md',
      'bench',
      `${stamp}\n\n${renderMarkdown(results, machine, header)}\n\nEvery item of the run, as it printed them:\n\n\`\`\`\n${renderTable(results, machine, header)}\n\`\`\``,
    );
    log('wrote docs/performance.md');
  }
  if (values.json) {
    process.stdout.write(
      renderJson(results, machine, {
        quick: config.quick,
        runs: config.runs,
        startedAt: new Date(started).toISOString(),
        durationSeconds,
        loadAverage: { start: loadAtStart, end: os.loadavg()[0] },
        workloads: { W1: config.w1, W2: config.w2, W3: config.w3 },
      }) + '\n',
    );
  } else {
    process.stdout.write(renderTable(results, machine, header) + '\n');
  }
}

function describeSpec(spec: { name: string; files: number; bytes: number }): string {
  return `${spec.name} = ${spec.files.toLocaleString('en-US')} file${spec.files === 1 ? '' : 's'} / ${spec.bytes / 1e6} MB`;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
