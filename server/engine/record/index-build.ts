// The workspace index built in the background, so a session's first command does not pay for
// the whole walk and every read: the before scan's own scan (exec.ts `build`), run when the
// service registers or opens a workspace whose index is not whole. It yields to requests every
// few milliseconds (the scan is synchronous where it trusts a stat), stores what it read as it
// goes (a restart resumes: what it stored is trusted by its stat, never read again), and stops
// when the engine closes. A command's before scan that comes meanwhile waits for it in the scan
// queue, then reads only what changed since. A first pass counts the files (names only), so the
// progress can say how far along it is.
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import type { IndexBuildStatus } from '../../protocol.js';
import { type Excludes, exclusionOf } from '../paths/exclude.js';
import type { Roots } from '../paths/roots.js';
import type { ExecScans } from './exec.js';
import { timeSlicer } from './time-slice.js';

/** What the build reads: the tracked roots (less the engine's data and excluded paths), the clock, the log. */
export interface IndexBuildDeps extends Excludes {
  roots: Roots;
  log(line: string): void;
  now(): number;
}

class BuildStopped extends Error {
  constructor() {
    super('the index build was stopped');
  }
}

export class IndexBuild {
  private running: Promise<IndexBuildStatus> | null = null;
  private stopping = false;
  private failure: string | null = null;
  private filesFound = 0;
  private filesIndexed = 0;
  private bytesStored = 0;
  private resumed = false;
  private startedAt: number | null = null;
  private finishedAt: number | null = null;

  constructor(
    private readonly ctx: IndexBuildDeps,
    private readonly execs: ExecScans,
  ) {}

  status(): IndexBuildStatus {
    const figures = {
      filesFound: this.filesFound,
      filesIndexed: this.filesIndexed,
      bytesStored: this.bytesStored,
      ...(this.resumed ? { resumed: true } : {}),
      ...(this.startedAt === null ? {} : { startedAt: new Date(this.startedAt).toISOString() }),
      ...(this.finishedAt === null || this.startedAt === null
        ? {}
        : { finishedAt: new Date(this.finishedAt).toISOString(), durationMs: this.finishedAt - this.startedAt }),
    };
    if (this.running) {
      const percent = this.filesFound === 0 ? 0 : Math.floor((this.filesIndexed / this.filesFound) * 100);
      return { state: 'building', ...figures, percent: Math.min(99, percent) };
    }
    // A before scan makes the index whole too (a build that failed, then a command's full scan).
    if (this.execs.index.complete) return { state: 'whole', ...figures, percent: 100 };
    if (this.failure !== null) return { state: 'failed', ...figures, percent: 0, reason: this.failure };
    return { state: 'partial', ...figures, percent: 0 };
  }

  /** Builds the index unless it is whole (joins a build already running); answers how it ended, never throws. */
  start(): Promise<IndexBuildStatus> {
    if (this.running) return this.running;
    if (this.stopping || this.execs.index.complete) return Promise.resolve(this.status());
    // The status is read once `running` is cleared, so it tells the end state.
    const build = this.run()
      .finally(() => {
        this.running = null;
      })
      .then(() => this.status());
    this.running = build;
    return build;
  }

  /** Stops a running build (the engine closes): what it stored stays, and the next build resumes from it. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<void> {
    this.failure = null;
    this.filesFound = 0;
    this.filesIndexed = 0;
    this.bytesStored = 0;
    this.finishedAt = null;
    this.startedAt = this.ctx.now();
    this.resumed = this.execs.index.map().size > 0;
    const slice = timeSlicer();
    const pace = (): Promise<void> | undefined => {
      if (this.stopping) throw new BuildStopped();
      return slice()?.then(() => {
        if (this.stopping) throw new BuildStopped();
      });
    };
    try {
      await this.countFiles(pace);
      await this.execs.build((entry, fresh) => {
        if (entry.type !== 'dir') {
          this.filesIndexed++;
          if (fresh && entry.hash) this.bytesStored += entry.size;
        }
        return pace();
      });
    } catch (e) {
      if (!(e instanceof BuildStopped)) {
        this.failure = (e as Error).message ?? String(e);
        this.ctx.log(`the workspace index could not be built: ${this.failure}`);
      }
    } finally {
      this.finishedAt = this.ctx.now();
    }
  }

  /** The files of the tracked roots by their names alone (excludes and the engine's data left out): the build's total. */
  private async countFiles(pace: () => Promise<void> | undefined): Promise<void> {
    for (const root of this.ctx.roots.list()) {
      if (!root.tracked) continue;
      const exclusion = exclusionOf(this.ctx, root);
      const pending: string[] = [''];
      while (pending.length > 0) {
        const rel = pending.pop()!;
        const abs = rel === '' ? root.real : path.join(root.real, rel);
        if (exclusion.isEngineData(abs)) continue;
        let dir;
        try {
          dir = await opendir(abs, { bufferSize: 256 });
        } catch {
          continue; // the scan says what it cannot list
        }
        for await (const dirent of dir) {
          const childRel = rel === '' ? dirent.name : `${rel}/${dirent.name}`;
          if (exclusion.isExcluded(childRel)) continue;
          if (dirent.isDirectory()) pending.push(childRel);
          else this.filesFound++;
          const paced = pace();
          if (paced) await paced;
        }
      }
    }
  }
}
