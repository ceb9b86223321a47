// Provenance on the real commander.js replay (issue 40 "Scale"): item 10's 190 turns recorded by
// a real engine (claude-code and codex alternating), each committed as its real commit in a real
// repository and linked by `linkCommits`, every 10th commit with a person's line in it too. Checks
// each commit's note names its turn and the final tree is the bundle's; then prints the notes'
// size and times `explain` of the range and `blame` of the largest file and largest .js, in process and CLI.
// By default each commit is made in the second after its turn's end, as a person commits a moment
// later; --fast commits at once (an auto-committing host), so the reflog's whole seconds then hold
// several turns and the link looks at all of them.
// Run: npx tsx bench/provenance-replay.ts [--fast] [path/to/commander.js.bundle]
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEngine } from '../server/engine/index.js';
import { readNotes } from '../server/git/notes.js';
import { linkCommits } from '../server/provenance/link-commits.js';
import { inRanges } from '../server/provenance/line-ranges.js';
import { blameFile, commitsWithTurns } from '../server/provenance/read.js';
import type { CommitNote } from '../server/protocol.js';
import { applyThroughEngine } from './history/apply.js';
import { COMMANDER_SPAN, checkoutTree, loadHistory, treeMatches, type HistoryTurn } from './history/source.js';
import { summarize } from './stats.js';

// Git reads no person's config: the repository's own user, nothing from HOME or /etc.
process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';

const RUNS = 5;
const PERSON_EVERY = 10;
const HOSTS = ['claude-code', 'codex'] as const;
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { fast: { type: 'boolean' } } });
const bundle = path.resolve(positionals[0] ?? COMMANDER_SPAN.bundle);
const load = () => readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
const ms = (n: number) => Math.round(n);
const figure = (samples: number[]) => {
  const s = summarize(samples);
  return `${ms(s.median)} ms (${ms(s.min)}-${ms(s.max)})`;
};

interface Replayed {
  sha: string;
  turnId: string;
  turn: HistoryTurn;
  /** The person's line of this commit: its file and 1-based line number. */
  person?: { file: string; line: number; text: string };
}

/** The text files the turn wrote: where its lines can be (a rename alone writes none). */
function writtenPaths(turn: HistoryTurn): Set<string> {
  const out = new Set<string>();
  for (const op of turn.ops)
    if (op.op === 'write' && op.kind !== 'symlink' && !op.content.includes(0)) out.add(op.path);
  return out;
}

/** `git diff --numstat -z -M` as path -> lines added (a renamed file under its new path; binary ones left out). */
function addedLines(out: string): Map<string, number> {
  const fields = out.split('\0');
  const added = new Map<string, number>();
  for (let i = 0; i < fields.length - 1;) {
    const [plus, , file] = fields[i++].split('\t');
    const target = file === '' ? (i++, fields[i++]) : file;
    if (plus !== '-') added.set(target, Number(plus));
  }
  return added;
}

async function main(): Promise<void> {
  const base = await mkdtemp(path.join(tmpdir(), 'provenance-replay-'));
  const loadBefore = load();
  try {
    const history = await loadHistory(
      { ...COMMANDER_SPAN, bundle, turns: COMMANDER_SPAN.commits },
      path.join(base, 'source.git'),
    );
    if (!history) throw new Error(`${bundle} is not there`);
    const workspace = path.join(base, 'workspace');
    await checkoutTree(history.gitDir, history.base, workspace);
    const sh = (...args: string[]) =>
      execFileSync('git', args, { cwd: workspace, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
    sh('init', '-q', '-b', 'main');
    sh('config', 'user.name', 'Pat Person');
    sh('config', 'user.email', 'pat@example.com');
    sh('add', '-A');
    sh('commit', '-qm', `start: commander.js at ${history.base.slice(0, 8)}`);
    const root = sh('rev-parse', 'HEAD');
    const engine = await openEngine({
      workspace,
      dataDir: path.join(base, 'data'),
      keepSessions: 0,
      scopes: HOSTS.map((h) => `${h}:*`),
    });
    const replayed: Replayed[] = [];
    const linkMs: number[] = [];
    const started = performance.now();
    try {
      await linkCommits(engine); // the first look marks where the reflog starts
      for (const [i, turn] of history.turns.entries()) {
        const host = HOSTS[i % 2];
        const turnId = await applyThroughEngine(engine, workspace, `replay-${host}`, turn, host);
        await engine.settled();
        const done: Replayed = { sha: '', turnId, turn };
        if ((i + 1) % PERSON_EVERY === 0) {
          // The person adds a line, outside any turn, to a file the turn wrote (else the README).
          const file = [...writtenPaths(turn)].find((p) =>
            readFileSync(path.join(workspace, p), 'utf8').endsWith('\n'),
          );
          const target = file ?? 'Readme.md';
          const abs = path.join(workspace, target);
          const text = `person's edit after turn ${i + 1}`;
          writeFileSync(abs, readFileSync(abs, 'utf8') + text + '\n');
          done.person = { file: target, line: readFileSync(abs, 'utf8').split('\n').length - 1, text };
        }
        if (!flags.fast) await sleep(1010 - (Date.now() % 1000));
        sh('add', '-A');
        sh('commit', '-q', '--allow-empty', '-m', turn.title || turn.commit);
        done.sha = sh('rev-parse', 'HEAD');
        const t = performance.now();
        const linked = await linkCommits(engine);
        linkMs.push(performance.now() - t);
        if (linked.waiting) throw new Error(`commit ${i + 1}: the link waits for a turn still being recorded`);
        replayed.push(done);
        if ((i + 1) % 50 === 0) console.error(`replayed ${i + 1} of ${history.turns.length} commits`);
      }
    } finally {
      await engine.close();
    }
    const replayS = (performance.now() - started) / 1000;

    // Checks: the tree (the person's lines still there taken out), then each commit's note.
    for (const r of replayed) {
      if (!r.person) continue;
      const abs = path.join(workspace, r.person.file);
      const content = existsSync(abs) ? readFileSync(abs, 'utf8') : '';
      if (content.endsWith(`${r.person.text}\n`)) writeFileSync(abs, content.slice(0, -r.person.text.length - 1));
    }
    const tip = history.turns[history.turns.length - 1].commit;
    if (!(await treeMatches(history.gitDir, tip, workspace, path.join(base, 'check.index'))))
      throw new Error(`the workspace does not hold the tree of ${tip}`);
    sh('checkout', '-q', '--', '.');
    const notes = await readNotes(workspace);
    const problems: string[] = [];
    let withLines = 0;
    let othersNamed = 0;
    let notesWithOthers = 0;
    let othersLines = 0;
    for (const [i, r] of replayed.entries()) {
      const paths = writtenPaths(r.turn);
      let added = 0;
      for (const [file, plus] of addedLines(sh('diff', '--numstat', '-z', '-M', `${r.sha}~1`, r.sha)))
        if (paths.has(file)) added += plus - (r.person?.file === file ? 1 : 0);
      const note: CommitNote | undefined = notes.get(r.sha);
      const mine = note?.turns.find((t) => t.id === r.turnId);
      if (added > 0) withLines++;
      if (added > 0 && !mine)
        problems.push(`commit ${i + 1} (${r.sha.slice(0, 8)}): ${added} lines, no note naming its turn`);
      if (r.person && mine && inRanges(mine.files[r.person.file] ?? '', r.person.line))
        problems.push(`commit ${i + 1}: the person's line ${r.person.file}:${r.person.line} noted as the turn's`);
      const others = (note?.turns ?? []).filter((t) => t.id !== r.turnId);
      othersNamed += others.length;
      othersLines += others.reduce((n, t) => n + t.lines, 0);
      if (others.length > 0) notesWithOthers++;
    }
    if (problems.length > 0) throw new Error(`${problems.length} wrong notes:\n${problems.join('\n')}`);

    // The notes' size: each note's blob, and per turn its JSON.
    const rows = sh('notes', '--ref', 'refs/notes/turnback', 'list').split('\n').filter(Boolean);
    const sizes = execFileSync('git', ['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
      cwd: workspace,
      input: rows.map((row) => row.split(' ')[0]).join('\n') + '\n',
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map((line, k) => ({ commit: rows[k].split(' ')[1], bytes: Number(line.split(' ')[1]) }));
    const bytes = sizes.map((s) => s.bytes);
    const noteSize = summarize(bytes);
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const largestNote = notes.get(largest.commit)!;
    const turnBytes = [...notes.values()].flatMap((n) => n.turns.map((t) => JSON.stringify(t).length));

    // The readers, each run in turn so the load weighs on all alike.
    const loadMeasure = load();
    const bySize = sh('ls-files', '-z')
      .split('\0')
      .filter((f) => f !== '' && lstatSync(path.join(workspace, f)).isFile())
      .map((f) => ({ f, lines: readFileSync(path.join(workspace, f), 'utf8').split('\n').length - 1 }))
      .sort((a, b) => b.lines - a.lines);
    // The largest file, and the largest source file (the largest may be a lock file).
    const largestFile = bySize[0];
    const blamed = [...new Set([largestFile.f, bySize.find((x) => x.f.endsWith('.js'))!.f])];
    const cli = fileURLToPath(new URL('../bin/turnback.js', import.meta.url));
    const built = existsSync(fileURLToPath(new URL('../build/cli.js', import.meta.url)));
    const spawn = (cmd: string, args: string[]) => () =>
      execFileSync(cmd, args, { cwd: workspace, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] });
    const range = `${root}..HEAD`;
    const bodies: Record<string, () => unknown> = {
      'explain in process (commitsWithTurns)': () => commitsWithTurns(workspace, range),
      ...(built
        ? { 'explain CLI (node bin/turnback.js explain)': spawn(process.execPath, [cli, 'explain', range]) }
        : {}),
      'node -e 0 (start-up alone)': spawn(process.execPath, ['-e', '0']),
    };
    for (const f of blamed) {
      bodies[`blame ${f} in process (blameFile)`] = () => blameFile(workspace, f);
      if (built) bodies[`blame ${f} CLI (node bin/turnback.js blame)`] = spawn(process.execPath, [cli, 'blame', f]);
      bodies[`git blame --porcelain ${f} alone`] = spawn('git', ['blame', '--porcelain', 'HEAD', '--', f]);
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(bodies).map((k) => [k, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const [name, body] of Object.entries(bodies)) {
        const t = performance.now();
        await body();
        samples[name].push(performance.now() - t);
      }
    }
    const explained = await commitsWithTurns(workspace, range);
    // Every line git blames on a replayed commit was written by that commit's turn, the person's
    // lines aside; the start tree's lines are the person's. What blame says against that:
    const turnOf = new Map(replayed.map((r) => [r.sha, r.turnId]));
    const attributed: Record<string, string> = {};
    for (const f of blamed) {
      const lines = (await blameFile(workspace, f)).lines;
      const replayedLines = lines.filter((l) => turnOf.has(l.sha) && !l.text.startsWith("person's edit after turn"));
      const own = replayedLines.filter((l) => l.turn?.id === turnOf.get(l.sha)).length;
      const other = replayedLines.filter((l) => l.turn && l.turn.id !== turnOf.get(l.sha)).length;
      attributed[f] =
        `${lines.length} lines, ${lines.filter((l) => l.turn).length} attributed to a turn; of the ${replayedLines.length} ` +
        `git blames on a replayed commit (the person's aside): ${own} its turn's, ${other} another turn's, ` +
        `${replayedLines.length - own - other} none (the person's); ${lines.filter((l) => l.sha === root && l.turn).length} of the start tree's noted as a turn's`;
      // Why not: the commit's note lists no ranges for the file (a turn lists 24 files at most), or the line is outside them.
      const unnoted = replayedLines.filter((l) => !l.turn);
      const unlisted = unnoted.filter((l) => {
        const mine = notes.get(l.sha)?.turns.find((t) => t.id === turnOf.get(l.sha));
        return mine?.files[f] === undefined && (mine?.moreFiles ?? 0) > 0;
      });
      if (unnoted.length > 0)
        attributed[`${f}: why no turn`] =
          `${unlisted.length} in commits whose turn's note leaves the file out (over 24 files: ` +
          `${[...new Set(unlisted.map((l) => l.sha.slice(0, 8)))].join(', ')}); ${unnoted.length - unlisted.length} outside their turn's ranges, first: ` +
          unnoted
            .filter((l) => !unlisted.includes(l))
            .slice(0, 3)
            .map((l) => `line ${l.line} ${JSON.stringify(l.text)} in ${l.sha.slice(0, 8)}`)
            .join('; ');
    }

    const report = {
      load: { cores: cpus().length, before: loadBefore, measuring: loadMeasure, after: load() },
      mode: flags.fast
        ? 'each commit at once after its turn (--fast)'
        : "each commit in the second after its turn's end",
      replay: `${replayed.length} commits (${history.turns.reduce((n, t) => n + t.ops.length, 0)} operations) replayed, committed and linked in ${replayS.toFixed(1)} s`,
      linkCommitsPerCommit: figure(linkMs) + `, p95 ${ms(summarize(linkMs).p95)} ms`,
      checks: `tree = ${tip.slice(0, 8)}'s; ${withLines} commits with lines of their turn, each noted with it; ${replayed.filter((r) => r.person).length} person's lines, none noted as a turn's`,
      notes: {
        count: sizes.length,
        totalBytes: bytes.reduce((a, b) => a + b, 0),
        perNote: `mean ${ms(bytes.reduce((a, b) => a + b, 0) / bytes.length)} B, median ${ms(noteSize.median)} B, p95 ${noteSize.p95} B, max ${noteSize.max} B`,
        over2KB: bytes.filter((b) => b > 2048).length,
        perTurn: `${turnBytes.length} turns noted: mean ${ms(turnBytes.reduce((a, b) => a + b, 0) / turnBytes.length)} B, max ${Math.max(...turnBytes)} B, over 2 KB ${turnBytes.filter((b) => b > 2048).length}`,
        turnsNamedBesidesTheCommitsOwn: `${othersNamed} in ${notesWithOthers} notes, ${othersLines} lines`,
        largest: {
          commit: `${largest.commit.slice(0, 8)} "${sh('show', '-s', '--format=%s', largest.commit)}"`,
          bytes: largest.bytes,
          turns: largestNote.turns.map((t) => ({
            host: t.host,
            files: Object.keys(t.files).length,
            moreFiles: t.moreFiles ?? 0,
            lines: t.lines,
            rangesChars: Object.values(t.files).reduce((n, r) => n + r.length, 0),
            pathsChars: Object.keys(t.files).reduce((n, p) => n + p.length, 0),
            titleChars: t.title.length,
            bytes: JSON.stringify(t).length,
            widest: Object.entries(t.files)
              .sort((a, b) => b[1].length - a[1].length)
              .slice(0, 3)
              .map(([f, r]) => `${f}: ${r.split(',').length} ranges, ${r.length} chars`),
          })),
        },
      },
      explain: `${explained.length} commits, ${explained.filter((c) => c.turns.length > 0).length} with turns`,
      blamed: attributed,
      timings: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, figure(v)])),
      cli: built ? 'build/ there' : 'build/ missing (npm run build): CLI not timed',
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
