// A history turn applied to a workspace, the way each contender's host would apply it: plain
// filesystem calls (durable ones for the raw floor), or turnback's library API.
import { chmod, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import { BENCH_PLATFORM, workspaceUri } from '../contenders/turnback.js';
import { durableWrite } from '../fs-tools.js';
import type { FileKind, HistoryOp, HistoryTurn } from './source.js';

const modeOf = (kind: FileKind): number => (kind === 'executable' ? 0o755 : 0o644);

/** The filesystem calls of a turn; `write` is where the raw floor and a plain host differ. */
async function applyOps(
  workspace: string,
  ops: HistoryOp[],
  write: (file: string, data: Buffer) => Promise<void>,
): Promise<void> {
  for (const op of ops) {
    const abs = (p: string) => path.join(workspace, p);
    switch (op.op) {
      case 'delete':
        await rm(abs(op.path), { force: true });
        break;
      case 'rename':
        await mkdir(path.dirname(abs(op.to)), { recursive: true });
        await rename(abs(op.from), abs(op.to));
        break;
      case 'mode':
        await chmod(abs(op.path), modeOf(op.kind));
        break;
      case 'write':
        await mkdir(path.dirname(abs(op.path)), { recursive: true });
        if (op.kind === 'symlink') {
          await rm(abs(op.path), { force: true });
          await symlink(op.content.toString('utf8'), abs(op.path));
        } else {
          await write(abs(op.path), op.content);
          if (op.setMode) await chmod(abs(op.path), modeOf(op.kind));
        }
        break;
    }
  }
}

/** The floor: every file written and fsynced, nothing else kept. */
export const applyDurably = (workspace: string, turn: HistoryTurn): Promise<void> =>
  applyOps(workspace, turn.ops, durableWrite);

/** What an agent does before a whole-tree snapshot: plain writes, no fsync. */
export const applyPlainly = (workspace: string, turn: HistoryTurn): Promise<void> =>
  applyOps(workspace, turn.ops, (file, data) => writeFile(file, data));

/**
 * One turn through the library API: writes, deletes and renames through `engine.storage`;
 * mode changes and symlinks, which the host makes itself, announced by `beforeMutate` first.
 * `platform`: the host the turn is recorded as.
 */
export async function applyThroughEngine(
  engine: Engine,
  workspace: string,
  sessionId: string,
  turn: HistoryTurn,
  platform = BENCH_PLATFORM,
): Promise<string> {
  const { turnId } = await engine.input({
    sessionId,
    platform,
    sessionType: 'chat',
    content: turn.title,
  });
  if (!turnId) throw new Error('the engine began no turn: check scopes');
  const s = { sessionId };
  for (const op of turn.ops) {
    switch (op.op) {
      case 'delete':
        await engine.storage.delete(workspaceUri(op.path), s);
        break;
      case 'rename': {
        const sameDir = path.posix.dirname(op.from) === path.posix.dirname(op.to);
        await (sameDir ? engine.storage.rename : engine.storage.move).call(
          engine.storage,
          workspaceUri(op.from),
          workspaceUri(op.to),
          s,
        );
        break;
      }
      case 'mode':
        await engine.beforeMutate({ ...s, op: 'write', uri: workspaceUri(op.path) });
        await chmod(path.join(workspace, op.path), modeOf(op.kind));
        break;
      case 'write':
        if (op.kind === 'symlink') {
          await engine.beforeMutate({ ...s, op: 'write', uri: workspaceUri(op.path) });
          await mkdir(path.dirname(path.join(workspace, op.path)), { recursive: true });
          await rm(path.join(workspace, op.path), { force: true });
          await symlink(op.content.toString('utf8'), path.join(workspace, op.path));
        } else {
          await engine.storage.writeFile(workspaceUri(op.path), op.content, s);
          if (op.setMode) {
            await engine.beforeMutate({ ...s, op: 'write', uri: workspaceUri(op.path) });
            await chmod(path.join(workspace, op.path), modeOf(op.kind));
          }
        }
        break;
    }
  }
  await engine.turnEnd(s);
  return turnId;
}
