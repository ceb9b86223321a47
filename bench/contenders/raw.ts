// The floor: plain fs writes and copies of exactly the bytes involved, each fsynced.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { durableCopy, durableWrite } from '../fs-tools.js';
import type { FileEdit } from '../workloads.js';
import type { Contender } from './contender.js';

export function rawContender(workspace: string, backupRoot: string): Contender {
  let turns = 0;
  let backup = '';
  return {
    name: 'raw',
    workspace,
    async beforeTurn(paths) {
      // Untimed: a raw copy can only restore what someone kept beforehand.
      backup = path.join(backupRoot, String(++turns));
      // Plain copies: only the measured restore has to be durable.
      for (const p of paths) {
        await mkdir(path.dirname(path.join(backup, p)), { recursive: true });
        await copyFile(path.join(workspace, p), path.join(backup, p));
      }
    },
    async turn(edits: FileEdit[]) {
      for (const edit of edits) await durableWrite(path.join(workspace, edit.path), edit.content);
      return backup;
    },
    async rollback(handle, paths) {
      for (const p of paths) await durableCopy(path.join(handle, p), path.join(workspace, p));
    },
    async storeSize() {
      return null;
    },
    async close() {},
  };
}
