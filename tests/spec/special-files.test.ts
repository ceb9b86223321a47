// FIFOs, sockets and devices are told as what they are (`{type: "special", kind}`), never opened,
// and a rollback replaces one that stands where a stored original belongs: it removes it, places
// the original, and says so (`replaced`). What exec-end lists as skipped, the turn says too.
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpecialKind } from '../../server/protocol.js';
import type { Engine } from '../../server/engine/api.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';

let sandbox: Sandbox;
const s = who();
const servers: net.Server[] = [];

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { 'reg.txt': 'the original\n', 'other.txt': 'other\n' });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const isRoot = process.getuid?.() === 0;

/** Replaces the file at `abs` with a special file of `kind`, as a command could. */
async function makeSpecial(abs: string, kind: SpecialKind): Promise<void> {
  await rm(abs, { force: true });
  if (kind === 'fifo') execFileSync('mkfifo', [abs]);
  else if (kind === 'char') execFileSync('mknod', [abs, 'c', '1', '3']);
  else {
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(abs, resolve));
  }
}

/** A turn whose one command replaces reg.txt with a special file. */
async function commandMakesSpecial(engine: Engine, kind: SpecialKind) {
  let end: Awaited<ReturnType<Engine['execEnd']>> | null = null;
  const turnId = await runTurn(engine, async () => {
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: `rm reg.txt && mk${kind} reg.txt` });
    await makeSpecial(join(sandbox.workspace, 'reg.txt'), kind);
    end = await engine.execEnd({ ...s, execId: execId! });
  });
  return { turnId, end: end! };
}

const kinds: SpecialKind[] = isRoot ? ['fifo', 'socket', 'char'] : ['fifo', 'socket'];

describe('special files', () => {
  for (const kind of kinds) {
    it(`a command replaces a file with a ${kind}: shown as special, and the rollback replaces it with the original`, async () => {
      const engine = await sandbox.open();
      const { turnId, end } = await commandMakesSpecial(engine, kind);
      expect(end.changed).toEqual([ws('reg.txt')]);
      expect(end.skipped).toEqual([]);
      const { turn, files } = engine.getManifest(turnId);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ uri: ws('reg.txt'), change: 'modified', after: { type: 'special', kind } });
      expect(files[0].skipped).toBeUndefined();
      expect(turn.skippedCount).toBe(0);

      const result = await engine.rollback(turnId);
      expect(result).toMatchObject({
        ok: true,
        restored: [ws('reg.txt')],
        replaced: [{ uri: ws('reg.txt'), kind }],
        errors: [],
      });
      expect(await readFile(join(sandbox.workspace, 'reg.txt'), 'utf8')).toBe('the original\n');
    });
  }

  it('a FIFO planted where the agent wrote: a conflict; forced, it is replaced by what the turn began with', async () => {
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('reg.txt'), "the agent's\n", s));
    await makeSpecial(join(sandbox.workspace, 'reg.txt'), 'fifo');
    const plan = await engine.preview(turnId);
    expect(plan.conflicts).toEqual([ws('reg.txt')]);
    await expectCode(engine.rollback(turnId), 'CONFLICT');
    const result = await engine.rollback(turnId, { force: true });
    expect(result).toMatchObject({
      ok: true,
      restored: [ws('reg.txt')],
      replaced: [{ uri: ws('reg.txt'), kind: 'fifo' }],
    });
    expect(await readFile(join(sandbox.workspace, 'reg.txt'), 'utf8')).toBe('the original\n');
  });

  it('a FIFO the command removed is skipped everywhere alike (exec-end, the turn, its file) and named by the rollback', async () => {
    await makeSpecial(join(sandbox.workspace, 'pipe'), 'fifo');
    const engine = await sandbox.open();
    let skipped: unknown[] = [];
    const turnId = await runTurn(engine, async () => {
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'rm pipe' });
      await rm(join(sandbox.workspace, 'pipe'));
      await writeFile(join(sandbox.workspace, 'other.txt'), 'changed\n');
      skipped = (await engine.execEnd({ ...s, execId: execId! })).skipped;
    });
    expect(skipped).toEqual([{ uri: ws('pipe'), reason: 'unreadable' }]);
    const { turn, files } = engine.getManifest(turnId);
    expect(turn.skippedCount).toBe(1);
    expect(files.filter((f) => f.skipped).map((f) => [f.uri, f.skipped, f.before?.type])).toEqual([
      [ws('pipe'), 'unreadable', 'special'],
    ]);
    const result = await engine.rollback(turnId);
    expect(result.restored).toEqual([ws('other.txt')]);
    expect(result.errors.map((e) => e.uri)).toEqual([ws('pipe')]);
  });
});
