// The entries of a repository's HEAD reflog: how turnback sees commits made in a workspace
// (by the person or an agent's shell) without any hook of its own in the person's git.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ReflogEntry {
  old: string;
  sha: string;
  /** Seconds since the epoch. */
  time: number;
  message: string;
  /** Byte offset just past this entry's line. */
  end: number;
}

/** What made a new commit: a fresh one, an amend, or a copy of another (rebase, cherry-pick). */
export type CommitKind = 'commit' | 'amend' | 'copy' | null;

export function kindOf(message: string): CommitKind {
  if (message.startsWith('commit (amend)')) return 'amend';
  if (message.startsWith('commit')) return 'commit';
  if (message.startsWith('cherry-pick')) return 'copy';
  if (message.startsWith('rebase')) {
    return /^rebase( -i| -m)? \((start|finish|abort|continue)\)/.test(message) ? null : 'copy';
  }
  return null;
}

/** The entries after byte `from` of `<gitDir>/logs/HEAD` (complete lines only). */
export function readReflog(gitDir: string, from: number): { entries: ReflogEntry[]; size: number } {
  const file = path.join(gitDir, 'logs', 'HEAD');
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch {
    return { entries: [], size: 0 };
  }
  const entries: ReflogEntry[] = [];
  let at = from <= text.length ? from : 0;
  for (;;) {
    const eol = text.indexOf(10, at);
    if (eol < 0) break;
    const line = text.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const match = /^([0-9a-f]+) ([0-9a-f]+) .*> (\d+) [+-]\d{4}\t?(.*)$/.exec(line);
    if (match) entries.push({ old: match[1], sha: match[2], time: Number(match[3]), message: match[4], end: at });
  }
  return { entries, size: text.length };
}

/** Where the last link stopped in the reflog, kept in the engine's data dir. */
export class ReflogCursor {
  private readonly file: string;
  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'provenance-cursor.json');
  }
  read(): { gitDir: string; offset: number } | null {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as { gitDir: string; offset: number };
    } catch {
      return null;
    }
  }
  write(gitDir: string, offset: number): void {
    writeFileSync(this.file, JSON.stringify({ gitDir, offset }), { mode: 0o600 });
  }
}

export function reflogSize(gitDir: string): number {
  try {
    return statSync(path.join(gitDir, 'logs', 'HEAD')).size;
  } catch {
    return 0;
  }
}
