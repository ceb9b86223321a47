// Provenance at the scale of the commander.js replay (issue 40): each commit of the bundle noted
// as the work of one agent turn (its added lines, as a turn that wrote exactly that commit), then
// the notes' size, `explain` of the whole range and `blame` of the largest file (in process, and
// the CLI end to end when build/ is there), timed.
// Run: npx tsx bench/provenance-probe.ts [path/to/commander.js.bundle]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommitNote } from '../server/protocol.js';
import { writeNote } from '../server/git/notes.js';
import { blameFile, commitsWithTurns } from '../server/provenance/read.js';

const bundle = path.resolve(process.argv[2] ?? '../shared/data/commander.js.bundle');
const dir = mkdtempSync(path.join(tmpdir(), 'provenance-probe-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });

async function main(): Promise<void> {
  execFileSync('git', ['clone', '-q', bundle, dir]);
  git('config', 'user.name', 'probe');
  git('config', 'user.email', 'probe@example.com');
  const shas = git('rev-list', '--reverse', 'HEAD').trim().split('\n');
  let noted = 0;
  const started = Date.now();
  for (const sha of shas) {
    const files: Record<string, string> = {};
    let file = '';
    for (const line of git('show', '--format=', '-U0', '--no-color', '--no-renames', sha).split('\n')) {
      if (line.startsWith('+++ ')) file = line.startsWith('+++ b/') ? line.slice(6) : '';
      const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (hunk && file) {
        const start = Number(hunk[1]);
        const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
        if (count > 0)
          files[file] =
            `${files[file] ? files[file] + ',' : ''}${start === start + count - 1 ? start : `${start}-${start + count - 1}`}`;
      }
    }
    if (Object.keys(files).length === 0) continue;
    const listed = Object.entries(files).slice(0, 24);
    const note: CommitNote = {
      turnback: 1,
      turns: [
        {
          id: `t_${sha.slice(0, 20)}`,
          host: 'claude-code',
          session: 'replay-session-0000000000000000',
          at: new Date().toISOString(),
          title: git('show', '-s', '--format=%s', sha).trim().slice(0, 120),
          files: Object.fromEntries(listed),
          ...(Object.keys(files).length > 24 ? { moreFiles: Object.keys(files).length - 24 } : {}),
          lines: 0,
          record: `sha256:${'0'.repeat(64)}`,
        },
      ],
    };
    await writeNote(dir, sha, note);
    noted++;
  }
  const writeMs = Date.now() - started;
  const sizes = git('notes', '--ref', 'refs/notes/turnback', 'list')
    .trim()
    .split('\n')
    .map((row) => Number(git('cat-file', '-s', row.split(' ')[0]).trim()));
  const total = sizes.reduce((a, b) => a + b, 0);
  const time = async (fn: () => Promise<unknown>) => {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = process.hrtime.bigint();
      await fn();
      runs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return runs.sort((a, b) => a - b)[2];
  };
  const largest = git('ls-files', '-z')
    .split('\0')
    .filter((f) => f !== '')
    .map((f) => ({ f, lines: readFileSync(path.join(dir, f), 'utf8').split('\n').length - 1 }))
    .sort((a, b) => b.lines - a.lines)[0];
  const explainMs = await time(() => commitsWithTurns(dir, `${shas[0]}..HEAD`));
  const blameMs = await time(() => blameFile(dir, largest.f));
  const pageMs = await time(() => commitsWithTurns(dir, 'HEAD', { limit: 51, walk: true }));
  const blamed = (await blameFile(dir, largest.f)).lines.filter((l) => l.turn).length;
  // End to end as a person runs it (node start-up included), when build/ is there; and git's own part.
  const cli = fileURLToPath(new URL('../bin/turnback.js', import.meta.url));
  const built = existsSync(fileURLToPath(new URL('../build/cli.js', import.meta.url)));
  const spawnMs = (cmd: string, args: string[]) =>
    time(async () => execFileSync(cmd, args, { cwd: dir, maxBuffer: 1 << 30 }));
  const blameCliMs = built ? await spawnMs(process.execPath, [cli, 'blame', largest.f]) : null;
  const gitBlameMs = await spawnMs('git', ['blame', '--porcelain', 'HEAD', '--', largest.f]);
  console.log(
    JSON.stringify(
      {
        commits: shas.length,
        noted,
        writeNotesMs: writeMs,
        notesBytes: total,
        meanNoteBytes: Math.round(total / sizes.length),
        maxNoteBytes: Math.max(...sizes),
        explainRangeMedianMs: Math.round(explainMs),
        largestFile: `${largest.f} (${largest.lines} lines, ${blamed} attributed to a turn)`,
        blameMedianMs: Math.round(blameMs),
        blameCliMedianMs: blameCliMs === null ? 'build/ missing: npm run build' : Math.round(blameCliMs),
        gitBlameAloneMedianMs: Math.round(gitBlameMs),
        commitsFirstPageMedianMs: Math.round(pageMs),
      },
      null,
      2,
    ),
  );
}

main().finally(() => rmSync(dir, { recursive: true, force: true }));
