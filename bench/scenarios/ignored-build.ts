// Item 11: build output cannot swamp the store. A repository whose git-ignored `target/` holds
// many files (a Rust build's size): the first shell command of a session (its before scan, the
// command `rm .env`, its after scan) must stay fast and store next to nothing of `target/`,
// while the agent's `rm .env` (an ignored *file*) is still undone.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from '../context.js';
import { flushFilesystem, treeSize } from '../fs-tools.js';

export const IGNORED_BUILD_SECTION = '11';
const FILES_PER_FOLDER = 100;

export async function ignoredBuildScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const { files, bytes } = ctx.config.ignoredBuild;
  const workspace = ctx.path('ignored-build', 'workspace');
  const dataDir = ctx.path('ignored-build', 'data');
  const label = `target/ of ${files.toLocaleString('en-US')} files, ${Math.round(bytes / 1e6)} MB`;
  await plantRepository(workspace, files, bytes);
  await flushFilesystem(workspace);
  const engine = await ctx.openEngine({ workspace, dataDir, keepSessions: 0 });
  const s = { sessionId: 'bench-ignored' };
  try {
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'clean up' });
    const started = performance.now();
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'rm .env' });
    await rm(path.join(workspace, '.env'));
    const outcome = await engine.execEnd({ ...s, execId: execId! });
    const commandMs = performance.now() - started;
    await engine.turnEnd(s);
    await engine.settled();
    const store = await treeSize(dataDir);
    ctx.results.figure(
      IGNORED_BUILD_SECTION,
      'ignored.first-command',
      `${label}: the first command (before scan, rm .env, after scan)`,
      'turnback',
      'ms',
      commandMs,
    );
    ctx.results.figure(
      IGNORED_BUILD_SECTION,
      'ignored.store',
      `${label}: the store after it`,
      'turnback',
      'bytes',
      store.diskBytes,
    );
    const left = outcome.skipped.find((x) => x.reason === 'over-budget');
    const rolled = await engine.rollback(turnId!);
    const restored = rolled.ok && (await readFile(path.join(workspace, '.env'), 'utf8')) === ENV;
    ctx.results.note(
      IGNORED_BUILD_SECTION,
      `first command ${commandMs.toFixed(0)} ms (target ≤ 2,000 ms${commandMs <= 2000 ? '' : ', **missed**'}); ` +
        `store ${(store.diskBytes / 2 ** 20).toFixed(2)} MiB on disk (target ≤ 10 MB${store.diskBytes <= 10e6 ? '' : ', **missed**'}); ` +
        `target/ ${left ? `left out, said so (over ${left.files} files)` : 'NOT said'}; rm .env ${restored ? 'undone' : 'NOT undone'}`,
    );
  } finally {
    await engine.close();
  }
}

const ENV = 'DATABASE_URL=postgres://localhost/dev\n';

/** A small source tree, `.gitignore` naming `target/` and `.env`, and a `target/` of incompressible build output. */
async function plantRepository(workspace: string, files: number, bytes: number): Promise<void> {
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  for (let i = 0; i < 50; i++)
    await writeFile(path.join(workspace, 'src', `mod${i}.rs`), `pub fn f${i}() -> u32 { ${i} }\n`);
  await writeFile(path.join(workspace, '.gitignore'), 'target/\n.env\n');
  await writeFile(path.join(workspace, '.env'), ENV);
  const size = Math.max(1, Math.floor(bytes / files));
  for (let folder = 0; folder * FILES_PER_FOLDER < files; folder++) {
    const dir = path.join(workspace, 'target', 'debug', 'deps', `crate-${folder}`);
    await mkdir(dir, { recursive: true });
    const count = Math.min(FILES_PER_FOLDER, files - folder * FILES_PER_FOLDER);
    await Promise.all(
      Array.from({ length: count }, (_, i) => writeFile(path.join(dir, `unit-${i}.o`), randomBytes(size))),
    );
  }
}
