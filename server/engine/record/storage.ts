// The controlled storage: every mutation checks its URIs, records what it will change into the
// session's active turn (tracked roots only), then performs the change. Rollback drives paths
// through the same operations so its own writes are recorded into the rollback turn.
import path from 'node:path';
import type { EntryOp, StepRef } from '../../protocol.js';
import type { MutationOptions, SessionRef, Storage } from '../api.js';
import { type CaptureDeps, recordOp } from './capture.js';
import type { TurnContext } from '../context.js';
import type { KeyedQueue } from '../queue.js';
import { BadRequestError, FileNotFoundError, isEngineError, TooLargeError } from '../errors.js';
import { errnoCode } from '../paths/fs.js';
import { GrewPastLimitError, NotRegularFileError } from '../paths/file-read.js';
import { checkSessionId } from '../ids.js';
import type { Resolved, Roots } from '../paths/roots.js';
import type { EngineFs } from '../paths/fs.js';
import { overwriteContent, stageContent, type StagedFile, type WrittenOver } from '../content/write-back.js';
import { IN_MEMORY_LIMIT } from '../content/contents.js';
import type { AtomicOptions } from '../paths/atomic-write.js';
import { modeOf } from '../state/state.js';
import { checkStep } from './step-ref.js';

const DEFAULT_FILE_MODE = 0o644;

/**
 * What a mutation touches: what capturing it does, and the store's list of temp files being
 * written (so recovery can remove one a crash left).
 */
export interface MutationDeps extends CaptureDeps {
  store: CaptureDeps['store'] & { addPendingTemp(path: string): void; forgetPendingTemp(path: string): void };
}

/** What the public storage touches besides the mutations: the session queues and active turns, the roots, reads. */
export interface StorageDeps {
  fs: EngineFs;
  roots: Roots;
  queue: KeyedQueue;
  /** Each session's active turn (turns/active-turns.ts; named here so record/ does not import turns/). */
  turns: { active(sessionId: string): TurnContext | null };
}

/** Mutations that take an explicit turn (or none); used by the public storage and by rollback. */
export class Mutations {
  constructor(private readonly ctx: MutationDeps) {}

  /** `force`: go ahead where the original cannot be kept (recorded as skipped); otherwise TOO_LARGE. */
  async write(turn: TurnContext | null, r: Resolved, data: Uint8Array, force = false): Promise<void> {
    const existing = await this.ctx.fs.lstatOrNull(r.abs);
    const parent = existing ? null : await this.ctx.fs.lstatOrNull(path.dirname(r.abs));
    if (turn && r.tracked && !existing?.isDirectory() && (existing || parent?.isDirectory())) {
      // The temp file is invisible until renamed: it is written and fsynced while the capture
      // runs; only the rename waits for the entry to be committed.
      // The temp file is noted first, so a crash before its rename cannot strand it unseen.
      const target = await this.ctx.fs.createAtomic(
        r.abs,
        existing?.isFile() ? modeOf(existing.mode) : DEFAULT_FILE_MODE,
        {
          beforeCreate: (temp) => this.ctx.store.addPendingTemp(temp),
        },
      );
      try {
        const [prepared, recorded] = await Promise.allSettled([
          target.write(data).then(() => target.prepare()),
          recordOp(this.ctx, turn, 'write', r, undefined, { force }),
        ]);
        if (prepared.status === 'rejected' || recorded.status === 'rejected') {
          await target.abort();
          throw recorded.status === 'rejected' ? recorded.reason : (prepared as PromiseRejectedResult).reason;
        }
        await target.commit();
      } finally {
        this.ctx.store.forgetPendingTemp(target.temp);
      }
      return;
    }
    const mode = await this.prepareFileTarget(turn, 'write', r, force);
    await this.ctx.fs.mkdirp(path.dirname(r.abs));
    await this.ctx.fs.writeFileAtomic(r.abs, data, mode);
  }

  /** Writes a kept content back in steps (verified on the way), for callers that flush many files side by side (content/write-back.ts). */
  async stageContent(
    turn: TurnContext | null,
    r: Resolved,
    hash: string,
    mode: number,
    size?: number,
    replaces?: AtomicOptions['replaces'],
  ): Promise<StagedFile> {
    await this.prepareFileTarget(turn, 'write', r);
    if (!(await this.ctx.fs.lstatOrNull(path.dirname(r.abs)))?.isDirectory())
      await this.ctx.fs.mkdirp(path.dirname(r.abs));
    return stageContent(this.ctx.fs, this.ctx.contents, hash, r.abs, mode, size, replaces);
  }

  /**
   * `stageContent` for a path this turn recorded already, in a folder the caller just saw is a
   * directory: nothing to record, nothing to make, so nothing is looked up again. `over`: the
   * file there, which may be written over in place (the caller named it in the store:
   * db/overwrites.ts).
   */
  async stageRecorded(
    turn: TurnContext,
    r: Resolved,
    hash: string,
    mode: number,
    size: number,
    replaces: NonNullable<AtomicOptions['replaces']>,
    over?: WrittenOver,
  ): Promise<StagedFile> {
    if (r.tracked && !turn.captured.has(r.realUri)) return this.stageContent(turn, r, hash, mode, size, replaces);
    if (over && size <= IN_MEMORY_LIMIT)
      return overwriteContent(this.ctx.fs, this.ctx.contents, hash, r.abs, mode, replaces, over);
    return stageContent(this.ctx.fs, this.ctx.contents, hash, r.abs, mode, size, replaces);
  }

  async symlink(turn: TurnContext | null, r: Resolved, target: string): Promise<void> {
    const existing = await this.ctx.fs.lstatOrNull(r.abs);
    if (existing?.isDirectory()) throw new BadRequestError(`${r.uri} is a directory`, { uri: r.uri });
    if (turn && r.tracked) await recordOp(this.ctx, turn, 'write', r);
    await this.ctx.fs.mkdirp(path.dirname(r.abs));
    if (existing) await this.ctx.fs.unlink(r.abs);
    await this.ctx.fs.symlink(target, r.abs);
  }

  async chmod(turn: TurnContext | null, r: Resolved, mode: number): Promise<void> {
    if (turn && r.tracked) await recordOp(this.ctx, turn, 'write', r);
    await this.ctx.fs.chmod(r.abs, mode);
  }

  /** `overlap`: a file is unlinked on the thread pool (a rollback removing many side by side). */
  async delete(
    turn: TurnContext | null,
    r: Resolved,
    recursive: boolean,
    force = false,
    overlap = false,
  ): Promise<void> {
    const stats = await this.ctx.fs.lstatOrNull(r.abs);
    if (!stats) throw new FileNotFoundError(r.uri);
    if (stats.isDirectory() && !recursive && (await this.ctx.fs.readdir(r.abs)).length > 0) {
      throw new BadRequestError(`${r.uri} is a directory that is not empty; pass recursive`, { uri: r.uri });
    }
    if (turn && r.tracked) await recordOp(this.ctx, turn, 'delete', r, undefined, { force });
    if (stats.isDirectory()) await this.ctx.fs.rmrf(r.abs);
    else await this.ctx.fs.unlink(r.abs, { overlap });
  }

  async move(
    turn: TurnContext | null,
    op: 'rename' | 'move',
    from: Resolved,
    to: Resolved,
    force = false,
  ): Promise<void> {
    const fromStats = await this.ctx.fs.lstatOrNull(from.abs);
    if (!fromStats) throw new FileNotFoundError(from.uri);
    if (from.abs === to.abs) return;
    if (to.abs.startsWith(from.abs + path.sep))
      throw new BadRequestError(`cannot move ${from.uri} into itself`, { from: from.uri, to: to.uri });
    const toStats = await this.ctx.fs.lstatOrNull(to.abs);
    if (toStats?.isDirectory() && !fromStats.isDirectory())
      throw new BadRequestError(`${to.uri} is a directory`, { uri: to.uri });
    if (toStats && !toStats.isDirectory() && fromStats.isDirectory())
      throw new BadRequestError(`${to.uri} is not a directory`, { uri: to.uri });
    if (toStats?.isDirectory() && (await this.ctx.fs.readdir(to.abs)).length > 0) {
      throw new BadRequestError(`${to.uri} is a directory that is not empty`, { uri: to.uri });
    }
    if (!toStats) await this.assertParentUsable(to);
    if (turn && (from.tracked || to.tracked)) await recordOp(this.ctx, turn, op, from, to, { force });
    await this.ctx.fs.mkdirp(path.dirname(to.abs));
    try {
      await this.ctx.fs.rename(from.abs, to.abs);
    } catch (e) {
      if (errnoCode(e) !== 'EXDEV') throw e;
      await this.copyAcross(
        from.abs,
        to.abs,
        fromStats.isDirectory(),
        modeOf(fromStats.mode),
        fromStats.isSymbolicLink(),
      );
    }
  }

  async mkdir(turn: TurnContext | null, r: Resolved, mode?: number): Promise<void> {
    const stats = await this.ctx.fs.lstatOrNull(r.abs);
    if (stats?.isDirectory()) return;
    if (stats) throw new BadRequestError(`${r.uri} exists and is not a directory`, { uri: r.uri });
    await this.assertParentUsable(r);
    if (turn && r.tracked) await recordOp(this.ctx, turn, 'mkdir', r);
    await this.ctx.fs.mkdirp(r.abs);
    if (mode !== undefined) await this.ctx.fs.chmod(r.abs, mode);
  }

  /** Records without touching anything (hosts that change files themselves). */
  async record(turn: TurnContext, op: EntryOp, r: Resolved, to?: Resolved, force = false): Promise<void> {
    await recordOp(this.ctx, turn, op, r, to, { force });
  }

  /** The deepest existing ancestor must be a directory, or the parents cannot be created. */
  private async assertParentUsable(r: Resolved): Promise<void> {
    for (
      let dir = path.dirname(r.abs);
      dir !== r.root.real && dir.length >= r.root.real.length;
      dir = path.dirname(dir)
    ) {
      const stats = await this.ctx.fs.lstatOrNull(dir);
      if (!stats) continue;
      if (!stats.isDirectory()) throw new BadRequestError(`a parent of ${r.uri} is not a directory`, { uri: r.uri });
      return;
    }
  }

  private async prepareFileTarget(turn: TurnContext | null, op: EntryOp, r: Resolved, force = false): Promise<number> {
    const existing = await this.ctx.fs.lstatOrNull(r.abs);
    if (existing?.isDirectory()) throw new BadRequestError(`${r.uri} is a directory`, { uri: r.uri });
    if (!existing) await this.assertParentUsable(r);
    if (turn && r.tracked) await recordOp(this.ctx, turn, op, r, undefined, { force });
    return existing?.isFile() ? modeOf(existing.mode) : DEFAULT_FILE_MODE;
  }

  private async copyAcross(from: string, to: string, isDir: boolean, mode: number, isLink: boolean): Promise<void> {
    if (isDir) {
      await this.ctx.fs.cpRecursive(from, to);
      await this.ctx.fs.rmrf(from);
    } else if (isLink) {
      await this.ctx.fs.symlink(await this.ctx.fs.readlink(from), to);
      await this.ctx.fs.unlink(from);
    } else {
      const target = await this.ctx.fs.createAtomic(to, mode);
      try {
        for await (const chunk of this.ctx.fs.readChunks(from, Infinity)) await target.write(chunk);
      } catch (e) {
        await target.abort();
        throw e;
      }
      await target.commit();
      await this.ctx.fs.unlink(from);
    }
  }
}

/** Runs `task` with the turn's current step set to `step` (the entries it records name it), then clears it. */
export async function inStep<T>(
  turn: TurnContext | null,
  step: StepRef | undefined,
  task: (turn: TurnContext | null) => Promise<T>,
): Promise<T> {
  if (!turn) return task(turn);
  turn.step = step ?? null;
  try {
    return await task(turn);
  } finally {
    turn.step = null;
  }
}

/** The public `engine.storage`: serialized per session, recorded into its active agent turn. */
export class ControlledStorage implements Storage {
  constructor(
    private readonly ctx: StorageDeps,
    private readonly mutations: Mutations,
  ) {}

  /** Async, so a bad session id or step is a rejection like every other failure. */
  private async inSession<T>(opts: SessionRef, task: (turn: TurnContext | null) => Promise<T>): Promise<T> {
    const sessionId = checkSessionId(opts?.sessionId);
    const step = checkStep(opts.step);
    return this.ctx.queue.run(sessionId, () => inStep(this.ctx.turns.active(sessionId), step, task));
  }

  writeFile(uri: string, data: string | Uint8Array, opts: MutationOptions): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    return this.inSession(opts, async (turn) =>
      this.mutations.write(turn, await this.ctx.roots.resolve(uri, { content: true }), bytes, opts.force === true),
    );
  }

  delete(uri: string, opts: MutationOptions & { recursive?: boolean }): Promise<void> {
    return this.inSession(opts, async (turn) =>
      this.mutations.delete(
        turn,
        await this.ctx.roots.resolve(uri, { removes: true }),
        opts.recursive ?? false,
        opts.force === true,
      ),
    );
  }

  rename(from: string, to: string, opts: MutationOptions): Promise<void> {
    return this.inSession(opts, async (turn) => {
      const [a, b] = [
        await this.ctx.roots.resolve(from, { removes: true }),
        await this.ctx.roots.resolve(to, { removes: true }),
      ];
      await this.mutations.move(turn, 'rename', a, b, opts.force === true);
    });
  }

  move(from: string, to: string, opts: MutationOptions): Promise<void> {
    return this.inSession(opts, async (turn) => {
      const [a, b] = [
        await this.ctx.roots.resolve(from, { removes: true }),
        await this.ctx.roots.resolve(to, { removes: true }),
      ];
      await this.mutations.move(turn, 'move', a, b, opts.force === true);
    });
  }

  mkdir(uri: string, opts: SessionRef): Promise<void> {
    return this.inSession(opts, async (turn) => this.mutations.mkdir(turn, await this.ctx.roots.resolve(uri)));
  }

  /** The file's bytes, read in chunks; over `maxBytes` (checked before and while reading) it is TOO_LARGE. */
  async readFile(uri: string, opts: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const r = await this.ctx.roots.resolve(uri, { content: true });
    // A folder swapped meanwhile stays the coded error it is, not "no file".
    const stats = await this.ctx.fs.stat(r.abs).catch((e: unknown) => {
      if (isEngineError(e)) throw e;
      return null;
    });
    if (!stats?.isFile()) throw new FileNotFoundError(uri);
    const limit = opts.maxBytes ?? Infinity;
    if (stats.size > limit) throw new TooLargeError(uri, stats.size, limit, 'file to read');
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of this.ctx.fs.readChunks(r.abs, limit, { followLink: true })) {
        size += chunk.length;
        parts.push(chunk);
      }
    } catch (e) {
      // It grew past the limit while being read, or it is no longer a regular file (a FIFO swapped in): never read on.
      if (e instanceof GrewPastLimitError) throw new TooLargeError(uri, e.size, limit, 'file to read');
      if (e instanceof NotRegularFileError) throw new FileNotFoundError(uri);
      throw e;
    }
    return new Uint8Array(Buffer.concat(parts, size));
  }
}
