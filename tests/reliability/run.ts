// `npm run test:reliability`: runs every reliability suite in full (all crash points, more
// fuzz runs, the 30 s load, the 3 min soak) through vitest, then prints what was tried as one table and writes it
// into docs/reliability.md.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGeneratedBlock } from '../../server/testkit/generated-doc.js';
import type { Tally } from './tally.testutil.js';

interface TallyLine extends Tally {
  suite: string;
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { assertionResults: { status: string; title: string; failureMessages: string[] }[] }[];
}

async function main(): Promise<number> {
  const work = await mkdtemp(join(tmpdir(), 'turnback-reliability-'));
  const tallyFile = join(work, 'tally.jsonl');
  const started = Date.now();
  // The sweeps spend most of their time waiting on fsync, so they share the machine well; the
  // load runs alone afterwards so its latencies are the server's, not the sweeps'.
  const first = await vitest(
    ['tests/reliability', '--exclude', LOAD, '--exclude', SOAK, '--maxWorkers=3'],
    join(work, 'vitest-1.json'),
    tallyFile,
  );
  const second = await vitest([LOAD], join(work, 'vitest-2.json'), tallyFile);
  // The soak last, alone: its SIGKILLs come every few seconds of its own agents' work, not of the sweeps'.
  const third = await vitest([SOAK], join(work, 'vitest-3.json'), tallyFile);
  const tallies = await readLines(tallyFile);
  const reports = (
    await Promise.all(['vitest-1.json', 'vitest-2.json', 'vitest-3.json'].map((name) => readReport(join(work, name))))
  ).filter((r): r is VitestReport => r !== null);
  const table = summaryTable(tallies, reports, Date.now() - started);
  console.log('\n' + table);
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  await writeGeneratedBlock(
    'docs/reliability.md',
    'reliability',
    `Latest full run: ${new Date(started).toISOString().slice(0, 10)}, commit ${head}, on ${cpus().length} CPU cores.\n\n${table}`,
  );
  await rm(work, { recursive: true, force: true });
  return [first, second, third].find((code) => code !== 0) ?? 0;
}

const LOAD = 'tests/reliability/load.test.ts';
const SOAK = 'tests/reliability/soak.test.ts';

function vitest(args: string[], reportFile: string, tallyFile: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'server',
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${reportFile}`,
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, TURNBACK_RELIABILITY: 'full', TURNBACK_RELIABILITY_TALLY: tallyFile },
      },
    );
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
}

async function readLines(file: string): Promise<TallyLine[]> {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as TallyLine);
  } catch {
    return [];
  }
}

async function readReport(file: string): Promise<VitestReport | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as VitestReport;
  } catch {
    return null;
  }
}

function summaryTable(tallies: TallyLine[], reports: VitestReport[], elapsedMs: number): string {
  const bySuite = new Map<string, TallyLine>();
  for (const t of tallies) {
    const seen = bySuite.get(t.suite);
    if (!seen) bySuite.set(t.suite, { ...t, notes: [...t.notes] });
    else {
      seen.cases += t.cases;
      seen.crashPoints += t.crashPoints;
      seen.faults += t.faults;
      seen.requests += t.requests;
      seen.failures += t.failures;
      seen.notes.push(...t.notes);
    }
  }
  const rows = [...bySuite.values()].sort((a, b) => a.suite.localeCompare(b.suite));
  const total = rows.reduce(
    (acc, r) => ({
      ...acc,
      cases: acc.cases + r.cases,
      crashPoints: acc.crashPoints + r.crashPoints,
      faults: acc.faults + r.faults,
      requests: acc.requests + r.requests,
      failures: acc.failures + r.failures,
    }),
    { suite: 'total', cases: 0, crashPoints: 0, faults: 0, requests: 0, failures: 0, notes: [] as string[] },
  );
  const header = ['suite', 'cases tried', 'crash points swept', 'faults injected', 'requests sent', 'failures'];
  const cells = [...rows, total].map((r) =>
    [r.suite, r.cases, r.crashPoints, r.faults, r.requests, r.failures].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    '| ' + c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ') + ' |';
  const out = [
    line(header),
    '|' + widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|') + '|',
  ];
  for (const c of cells) out.push(line(c));
  for (const r of rows) for (const n of r.notes) out.push(`- ${r.suite}: ${n}`);
  if (reports.length) {
    const sum = (f: (r: VitestReport) => number) => reports.reduce((n, r) => n + f(r), 0);
    const known = reports
      .flatMap((r) => r.testResults.flatMap((f) => f.assertionResults))
      .filter((a) => /known defect/i.test(a.title)).length;
    out.push(
      `- vitest: ${sum((r) => r.numPassedTests)} passed, ${sum((r) => r.numFailedTests)} failed, ${sum((r) => r.numPendingTests + r.numTodoTests)} skipped` +
        (known ? `; ${known} test(s) pin a known defect (expected to fail until it is fixed)` : ''),
    );
  }
  out.push(`- wall time: ${(elapsedMs / 1000).toFixed(0)} s`);
  return out.join('\n');
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
