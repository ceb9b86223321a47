// Files and folders the engine may not read (mode 000, say, set by a command). Where the engine
// owns one, a rollback first gives it back the mode it is to have, so it can be read, captured
// and restored; where it does not, the path stays unreadable and is named in the answer. What a
// command changed inside a folder its scans could not list is unknown: the rollback names that
// folder as not restored, never silently.
import type { ExecCommand, RollbackResult } from '../../protocol.js';
import type { EngineFs } from '../paths/fs.js';
import type { Roots } from '../paths/roots.js';
import type { StoredTurn } from '../db/turns.js';
import { uriDepth } from '../paths/uri.js';
import type { EvaluatedPath, PathTarget } from './plan.js';

/** What giving modes back touches: the disk under the roots, and the log. */
export interface ModeDeps {
  fs: EngineFs;
  roots: Roots;
  log(line: string): void;
}

/** Owner read (and, for a folder, search) permission: what the engine needs to look inside. */
const OWNER_READ = 0o400;
const OWNER_SEARCH = 0o100;

export interface ModeGivenBack {
  uri: string;
  abs: string;
  was: number;
}

/**
 * Gives each path the engine owns but may not read the mode its target has, shallowest first
 * (a folder must open before what it holds can be looked at). Answers what it changed, with the
 * mode each had, so a rollback that then refuses (409) can put them back (`takeModesBack`).
 * Runs only for a rollback (a preview changes nothing).
 */
export async function restoreModesFirst(ctx: ModeDeps, paths: PathTarget[]): Promise<ModeGivenBack[]> {
  const uid = process.getuid?.();
  // Root reads everything; a platform without uids has no mode bits to restore.
  if (uid === undefined || uid === 0) return [];
  const changed: ModeGivenBack[] = [];
  for (const p of [...paths].sort((a, b) => uriDepth(a.uri) - uriDepth(b.uri))) {
    const target = p.target;
    if (target?.type !== 'file' && target?.type !== 'dir') continue;
    let abs: string;
    try {
      abs = ctx.roots.locate(p.uri).abs;
    } catch {
      continue;
    }
    const stats = await ctx.fs.lstatOrNull(abs).catch(() => null);
    if (!stats || stats.uid !== uid) continue;
    const isDir = stats.isDirectory();
    if (isDir !== (target.type === 'dir') || (!isDir && !stats.isFile())) continue;
    const needs = isDir ? OWNER_READ | OWNER_SEARCH : OWNER_READ;
    if ((stats.mode & needs) === needs || (target.mode & needs) !== needs) continue;
    try {
      await ctx.fs.chmod(abs, target.mode);
      changed.push({ uri: p.uri, abs, was: stats.mode & 0o7777 });
    } catch (e) {
      ctx.log(`the mode of ${p.uri} could not be restored before its rollback (${(e as Error).message})`);
    }
  }
  return changed;
}

/** Puts back the modes `restoreModesFirst` changed, deepest first: the rollback was refused. */
export async function takeModesBack(ctx: ModeDeps, given: ModeGivenBack[]): Promise<void> {
  for (const g of [...given].reverse()) await ctx.fs.chmod(g.abs, g.was).catch(() => {});
}

/**
 * A file whose mode was given back was unreadable when the turn ended, so its after-state has no
 * hash: the content the turn left is unknown, and only its size can tell drift. The same size is
 * taken as no drift (the mode differs only because it was given back).
 */
export function givenBackIsNoDrift(paths: EvaluatedPath[], given: ModeGivenBack[]): void {
  const uris = new Set(given.map((g) => g.uri));
  for (const p of paths) {
    if (p.status !== 'conflict' || !uris.has(p.uri)) continue;
    if (
      p.expected?.type === 'file' &&
      p.expected.hash === '' &&
      p.current?.type === 'file' &&
      p.current.size === p.expected.size
    )
      p.status = 'action';
  }
}

/** Folders the covered turns' commands could not list, among the paths a rollback drives. */
export function unlistedFolders(
  turns: StoredTurn[],
  paths: PathTarget[],
  commandsOf: (turnId: string) => readonly ExecCommand[],
): string[] {
  const folders = new Set(
    paths.filter((p) => p.target?.type === 'dir' || p.expected?.type === 'dir').map((p) => p.uri),
  );
  const named = new Set<string>();
  for (const turn of turns) {
    for (const command of commandsOf(turn.turnId)) {
      for (const s of command.skipped ?? []) if (s.reason === 'unreadable' && folders.has(s.uri)) named.add(s.uri);
    }
  }
  return [...named];
}

/** A path whose mode was given back first is restored, unless an error names it. */
export function countModesGiven(result: RollbackResult, uris: Iterable<string>): void {
  for (const uri of uris) {
    if (result.restored.includes(uri) || result.errors.some((e) => e.uri === uri)) continue;
    result.restored.push(uri);
    result.unchanged = result.unchanged.filter((u) => u !== uri);
  }
}

/** Names each unlisted folder as not restored (its contents at the command's time are unknown), and only so. */
export function nameUnlisted(result: RollbackResult, folders: string[]): void {
  const reported = new Set(result.errors.map((e) => e.uri));
  const named = new Set(folders);
  result.restored = result.restored.filter((uri) => !named.has(uri));
  result.unchanged = result.unchanged.filter((uri) => !named.has(uri));
  for (const uri of folders) {
    if (reported.has(uri)) continue;
    result.errors.push({
      uri,
      code: 'IO',
      message: 'the folder could not be read when the command ran: what the command changed inside it is not restored',
    });
  }
}
