// Line counts of a changed text file, at every size up to the text limit (1 MiB): one line
// changed reads +1 −1 whether the turn wrote the file itself or a shell command did.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSandbox, plant, runTurn, who, ws } from '../../server/testkit/engine-harness.js';

/** Numbered lines of 31 bytes each, about `bytes` long. */
function textOf(bytes: number): string {
  const count = Math.max(1, Math.round(bytes / 31));
  return Array.from({ length: count }, (_, i) => `line ${String(i).padStart(8, '0')} of the file\n`).join('');
}

/** The same text with one line in the middle replaced. */
function oneLineChanged(text: string): string {
  const lines = text.split('\n');
  lines[Math.floor(lines.length / 2)] = 'this line was changed by the turn';
  return lines.join('\n');
}

const SIZES = [1_024, 29_890, 153_890, 262_144, 277_890, 524_288, 948_890, 1_048_000];

describe('line counts of a changed text file', () => {
  it.each(SIZES)('%d bytes, written by the turn: +1 −1', async (size) => {
    const sandbox = await makeSandbox();
    const text = textOf(size);
    await plant(sandbox.workspace, { 'big.txt': text });
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('big.txt'), oneLineChanged(text), who()));
    const { turn, files } = engine.getManifest(turnId);
    expect(files.find((f) => f.uri === ws('big.txt'))?.lines).toEqual({ added: 1, removed: 1 });
    expect(turn.lines).toEqual({ added: 1, removed: 1 });
  });

  it.each(SIZES)('%d bytes, changed by a shell command: +1 −1', async (size) => {
    const sandbox = await makeSandbox();
    await plant(sandbox.workspace, { 'big.txt': textOf(size) });
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, async () => {
      const { execId } = await engine.exec({ ...who(), tool: 'Bash', command: 'sed -i ... big.txt' });
      const file = join(sandbox.workspace, 'big.txt');
      await writeFile(file, oneLineChanged(await readFile(file, 'utf8')));
      await engine.execEnd({ ...who(), execId: execId! });
    });
    const { turn, files } = engine.getManifest(turnId);
    expect(files.find((f) => f.uri === ws('big.txt'))?.lines).toEqual({ added: 1, removed: 1 });
    expect(turn.lines).toEqual({ added: 1, removed: 1 });
  });
});

describe('line counts of a rollback', () => {
  it("are the undone change's own, swapped; a rewind over two turns counts its own change", async () => {
    const sandbox = await makeSandbox();
    await plant(sandbox.workspace, { 'f.txt': 'one\ntwo\nthree\n' });
    const engine = await sandbox.open();
    const first = await runTurn(engine, () =>
      engine.storage.writeFile(ws('f.txt'), 'one\n2\nthree\nfour\nfive\n', who()),
    );
    const linesOf = (turnId: string) => engine.getManifest(turnId).files.find((f) => f.uri === ws('f.txt'))?.lines;
    expect(linesOf(first)).toEqual({ added: 3, removed: 1 });
    const back = await engine.rollback(first);
    expect(linesOf(back.rollbackTurnId!)).toEqual({ added: 1, removed: 3 });
    const again = await engine.rollback(back.rollbackTurnId!);
    expect(linesOf(again.rollbackTurnId!)).toEqual({ added: 3, removed: 1 });
    const second = await runTurn(engine, () => engine.storage.writeFile(ws('f.txt'), 'zero\n', who()));
    expect(linesOf(second)).toEqual({ added: 1, removed: 5 });
    const rewind = await engine.rewind(who().sessionId, { toTurnId: first });
    expect(rewind.ok).toBe(true);
    expect(await readFile(join(sandbox.workspace, 'f.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(linesOf(rewind.rollbackTurnId!)).toEqual({ added: 3, removed: 1 });
  });
});
