// The stage of the race tests: a workspace folder `sub` that a second process keeps swapping
// with `swap`, a symlink to the outside folder, which holds files of the same names (the
// person's real `.bashrc`) and one no workspace path has. Whatever turnback reads or writes
// through the link is caught by the outside folder's snapshot or by that file's name and bytes.
import { lstat, readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import { openTestEngine } from './open-engine.testutil.js';
import { Racer } from './racer.testutil.js';
import { makeSandbox, type Sandbox, writeWorkspace } from '../../server/testkit/sandbox.js';
import { SESSION } from './scenarios.testutil.js';
import { sha256, snapshotTree, type Tree } from '../../server/testkit/tree.js';
import { treeDiff } from '../../server/testkit/tree-diff.js';

export const OUTSIDE_ONLY = 'only-outside.txt';
export const OUTSIDE_BYTES = "the person's own file: turnback must never read it\n";
export const HOME_BASHRC = "# the person's real ~/.bashrc\n";

export interface Stage {
  sandbox: Sandbox;
  engine: Engine;
  racer: Racer;
  outsideBefore: Tree;
  /** Hashes of every outside file: none may turn up in what turnback recorded. */
  outsideHashes: Set<string>;
  close(): Promise<void>;
}

/** `files`: paths inside `sub`, with their start content. */
export async function makeStage(files: Record<string, string>): Promise<Stage> {
  const sandbox = await makeSandbox(
    Object.fromEntries(Object.entries(files).map(([rel, text]) => [`sub/${rel}`, text])),
  );
  const outsideFiles: Record<string, string> = { '.bashrc': HOME_BASHRC, [OUTSIDE_ONLY]: OUTSIDE_BYTES };
  for (const rel of Object.keys(files)) outsideFiles[rel] ??= `outside twin of ${rel}\n`;
  await writeWorkspace(sandbox.outside, outsideFiles);
  await symlink(sandbox.outside, join(sandbox.workspace, 'swap'));
  const engine = await openTestEngine(sandbox, {});
  const racer = await Racer.start(join(sandbox.workspace, 'sub'), join(sandbox.workspace, 'swap'));
  const outsideBefore = await snapshotTree(sandbox.outside);
  const outsideHashes = new Set(
    Object.values(outsideFiles)
      .map((t) => sha256(t))
      .concat(sha256('outside the workspace: never touched\n')),
  );
  return {
    sandbox,
    engine,
    racer,
    outsideBefore,
    outsideHashes,
    close: async () => {
      await racer.close();
      await engine.close().catch(() => {});
      await sandbox.cleanup();
    },
  };
}

/** What changed in the outside folder (nothing may), and what appeared beside the sandbox's three folders. */
export async function outsideChanges(stage: Stage): Promise<string[]> {
  const diff = treeDiff(stage.outsideBefore, await snapshotTree(stage.sandbox.outside)).map((d) => `outside/${d.path}`);
  const strays = (await readdir(stage.sandbox.base)).filter((n) => !['workspace', 'data', 'outside'].includes(n));
  return [...diff, ...strays.map((n) => `beside the workspace: ${n}`)];
}

/** The racer is stopped: `sub` is the real folder again. Paths whose bytes or mode are not `expected`. */
export async function notInPlace(
  stage: Stage,
  expected: Map<string, { text: string; mode?: number }>,
  uris: string[],
): Promise<string[]> {
  const wrong: string[] = [];
  for (const uri of uris) {
    const rel = uri.slice('workspace:/'.length);
    const want = expected.get(rel);
    const abs = join(stage.sandbox.workspace, rel);
    const text = await readFile(abs, 'utf8').catch(() => null);
    const mode = (await lstat(abs).catch(() => null))?.mode;
    if (!want || text !== want.text || (want.mode !== undefined && (mode! & 0o7777) !== want.mode)) wrong.push(uri);
  }
  return wrong;
}

/** Temp files left in the workspace folder (the racer stopped): an aborted write removes its own. */
export async function tempLeftovers(stage: Stage): Promise<string[]> {
  return (await readdir(join(stage.sandbox.workspace, 'sub'))).filter((n) => n.startsWith('.turnback-tmp-'));
}

/** One agent turn through the engine's storage, with the racer stopped. */
export async function agentTurn(engine: Engine, writes: Record<string, string>): Promise<string> {
  const { turnId } = await engine.input({
    sessionId: SESSION,
    platform: 'webui',
    sessionType: 'chat',
    content: 'edit',
  });
  for (const [rel, text] of Object.entries(writes))
    await engine.storage.writeFile(`workspace:/${rel}`, text, { sessionId: SESSION });
  await engine.turnEnd({ sessionId: SESSION });
  return turnId!;
}
