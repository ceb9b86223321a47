// Drives the engine's filesystem seam: counts operations, freezes the engine at the N-th one
// (a crash: nothing after it ever runs), or fails the N-th matching one with an errno.

export interface FsOp {
  op: string;
  path: string;
}

/** An error shaped like the ones node:fs throws. */
export function errnoError(code: string, op: string, path: string): NodeJS.ErrnoException {
  const err = new Error(`${code}: injected fault, ${op} '${path}'`) as NodeJS.ErrnoException;
  err.code = code;
  err.syscall = op;
  err.path = path;
  err.errno = -({ ENOSPC: 28, EACCES: 13, EIO: 5, EMFILE: 24, EPERM: 1 } as Record<string, number>)[code] || -1;
  return err;
}

type Plan =
  | { kind: 'count' }
  | { kind: 'crash'; at: number }
  | { kind: 'fault'; at: number; code: string; only?: (op: FsOp) => boolean };

export class FaultController {
  /** Operations seen since the last `arm*` call. */
  log: FsOp[] = [];
  crashed = false;
  injected: FsOp | null = null;
  private plan: Plan = { kind: 'count' };
  private onCrash: (() => void) | null = null;
  /** While paused, operations pass without being counted (setup, reopen checks). */
  private active = false;

  count(): void {
    this.reset({ kind: 'count' });
  }

  /** The engine freezes just before its `at`-th operation (1-based): a process killed there. */
  crashAt(at: number): Promise<void> {
    this.reset({ kind: 'crash', at });
    return new Promise((resolve) => {
      this.onCrash = resolve;
    });
  }

  /** The `at`-th operation matching `only` (default: any) fails with `code`. */
  faultAt(at: number, code: string, only?: (op: FsOp) => boolean): void {
    this.reset({ kind: 'fault', at, code, only });
  }

  pause(): void {
    this.active = false;
  }

  resume(): void {
    this.active = true;
  }

  /** The seam's hook: may throw, or return a promise that never settles. */
  readonly beforeOp = (op: string, path: string): void | Promise<void> => {
    if (this.crashed) return new Promise<void>(() => {});
    if (!this.active) return;
    const entry = { op, path };
    if (this.plan.kind === 'fault') {
      const only = this.plan.only;
      if (only && !only(entry)) return;
      this.log.push(entry);
      if (this.log.length === this.plan.at && !this.injected) {
        this.injected = entry;
        throw errnoError(this.plan.code, op, path);
      }
      return;
    }
    this.log.push(entry);
    if (this.plan.kind === 'crash' && this.log.length === this.plan.at) {
      this.crashed = true;
      this.onCrash?.();
      return new Promise<void>(() => {});
    }
  };

  private reset(plan: Plan): void {
    this.plan = plan;
    this.log = [];
    this.crashed = false;
    this.injected = null;
    this.onCrash = null;
    this.active = true;
  }
}
