// A rollback's file contents written back in batches (content/write-back.ts does one file's
// steps): every content of a batch staged (read and verified; a temp file beside its path for a
// file replaced by rename), then the files written over in place, then all flushed (one syncfs
// for a large batch instead of an fsync each), then the temp files renamed into place side by
// side. A batch is bounded in files and bytes, so a rollback needs free space for one batch of
// temp copies, not for the whole turn. Which paths go, and what an outcome says, is the
// applier's (apply.ts).
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { StagedFile, WrittenOver } from '../content/write-back.js';
import type { TurnContext } from '../context.js';
import { inParallel } from '../parallel.js';
import type { EngineFs } from '../paths/fs.js';
import type { Resolved } from '../paths/roots.js';
import type { Mutations } from '../record/storage.js';
import type { EvaluatedPath } from './plan.js';

/** From this many files on, the staged contents are flushed by one syncfs (measured: ~4× faster at 1,000). */
const SYNC_FILESYSTEM_FROM = 256;
/**
 * Files replaced by rename in one batch at most (and `limits.placeBatchBytes` bytes): the temp
 * copies a batch needs room for, and the folders they hold handles on. A file written over in
 * place needs neither, and counts toward the bytes only (its content is held in memory).
 */
const BATCH_FILES = 512;

/** A content staged for a path: `moved`, the path was moved back before (not reported restored again). */
export interface Staged {
  p: EvaluatedPath;
  file: StagedFile;
  moved: boolean;
}

/** What placing a batch did: the staged files placed (in the order staged), and those that failed. */
export interface Placed {
  placed: Staged[];
  failures: { s: Staged; e: unknown }[];
}

/**
 * Paths split into batches of at most BATCH_FILES files replaced by rename and about `maxBytes`
 * of content; `inPlace` tells the paths that will likely be written over in place.
 */
export function batches(
  paths: EvaluatedPath[],
  maxBytes: number,
  inPlace: (p: EvaluatedPath) => boolean = () => false,
): EvaluatedPath[][] {
  const out: EvaluatedPath[][] = [];
  let current: EvaluatedPath[] = [];
  let renamed = 0;
  let bytes = 0;
  for (const p of paths) {
    const size = p.target?.type === 'file' ? p.target.size : 0;
    const byRename = !inPlace(p);
    if (current.length > 0 && ((byRename && renamed >= BATCH_FILES) || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      renamed = 0;
      bytes = 0;
    }
    current.push(p);
    if (byRename) renamed++;
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export class ContentPlacer {
  /** Folders seen as directories since the file phase began (by lstat, once each). */
  private readonly folders = new Map<string, Promise<boolean>>();

  constructor(
    private readonly fs: EngineFs,
    private readonly mutations: Mutations,
    private readonly turn: TurnContext,
  ) {}

  /**
   * Stages a content; in a folder already seen as a directory during this rollback, without
   * looking the path or its folder up again (the path is recorded, the folder known: one lstat
   * per folder, not three per file). A folder gone since is the create's error. `over`: the
   * file there, which may be written over in place.
   */
  async stage(
    r: Resolved,
    hash: string,
    mode: number,
    size: number,
    replaces: (now: Stats | undefined) => boolean,
    over?: WrittenOver,
  ): Promise<StagedFile> {
    const dir = path.dirname(r.abs);
    let known = this.folders.get(dir);
    if (!known) {
      known = this.fs.lstatOrNull(dir).then(
        (s) => s?.isDirectory() ?? false,
        () => false,
      );
      this.folders.set(dir, known);
    }
    if (await known) return this.mutations.stageRecorded(this.turn, r, hash, mode, size, replaces, over);
    this.folders.delete(dir);
    return this.mutations.stageContent(this.turn, r, hash, mode, size, replaces);
  }

  /**
   * Writes the batch's files placed in place, flushes every staged file, then renames the temp
   * files into place; a file that fails is aborted (a temp file removed), and reported.
   */
  async place(staged: Staged[]): Promise<Placed> {
    const failed = new Map<Staged, unknown>();
    // Written over in place side by side (the open and write of each on the thread pool's turn).
    await inParallel(
      staged.filter((s) => s.file.inPlace),
      async (s) => {
        try {
          await s.file.place();
        } catch (e) {
          failed.set(s, e ?? new Error('write failed'));
        }
      },
    );
    const toFlush = staged.filter((s) => !failed.has(s));
    if (!(toFlush.length >= SYNC_FILESYSTEM_FROM && (await this.syncFilesystem(toFlush)))) {
      await inParallel(toFlush, async (s) => {
        try {
          await s.file.flush();
        } catch (e) {
          failed.set(s, e ?? new Error('flush failed'));
        }
      });
    }
    // Renamed side by side on the thread pool; answered in the order staged.
    const done: boolean[] = new Array(staged.length).fill(false);
    const failures: Placed['failures'] = [];
    await inParallel(staged, async (s, i) => {
      try {
        const failure = failed.get(s);
        if (failure) {
          await s.file.abort();
          throw failure;
        }
        if (!s.file.inPlace) await s.file.place();
        this.notePlaced(s);
        done[i] = true;
      } catch (e) {
        failures.push({ s, e });
      }
    });
    return { placed: staged.filter((_, i) => done[i]), failures };
  }

  /** One syncfs for the root's filesystem instead of an fsync per file; false when it cannot run. */
  private async syncFilesystem(staged: Staged[]): Promise<boolean> {
    const roots = new Set(staged.map((s) => s.p.resolved!.root.real));
    try {
      for (const root of roots) await this.fs.syncFilesystem(root);
      return true;
    } catch {
      return false;
    }
  }

  /** What the rollback turn's commit may take as read: the state placed, and its content for line counts. */
  private notePlaced(s: Staged): void {
    if (s.p.target?.type !== 'file') return;
    this.turn.placed.set(s.p.resolved!.realUri, s.p.target);
    this.turn.contents.keep(s.p.target.hash, s.file.bytes);
  }
}
