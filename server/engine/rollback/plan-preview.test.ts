import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const S = { sessionId: 's1' };
const input = (content: string) => ({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content });

describe('counts', () => {
  it("a rename is one of the turn's renames, joining the two paths fileCount counts", async () => {
    await writeFile(path.join(box.workspace, 'old.txt'), 'same\n');
    const engine = await openEngineOn(box);
    try {
      await engine.input(input('Rename and add'));
      await engine.storage.rename('workspace:/old.txt', 'workspace:/new.txt', S);
      await engine.storage.writeFile('workspace:/add.txt', 'x\n', S);
      const { turnId } = await engine.turnEnd(S);
      const turn = engine.getManifest(turnId!).turn;
      expect([turn.fileCount, turn.renameCount]).toEqual([3, 1]);
      // The renamed file's lines moved with it: only the new file's line counts.
      expect(turn.lines).toEqual({ added: 1, removed: 0 });
    } finally {
      await engine.close();
    }
  });
});

describe('preview', () => {
  it('names the later turn behind a conflict, and no turn when the change came from outside', async () => {
    const engine = await openEngineOn(box);
    try {
      const { turnId: first } = await engine.input(input('Write both'));
      await engine.storage.writeFile('workspace:/a.txt', 'a1\n', S);
      await engine.storage.writeFile('workspace:/b.txt', 'b1\n', S);
      await engine.turnEnd(S);
      const { turnId: second } = await engine.input(input('Bump a'));
      await engine.storage.writeFile('workspace:/a.txt', 'a2\n', S);
      await engine.turnEnd(S);
      await writeFile(path.join(box.workspace, 'b.txt'), 'edited by hand\n');

      const plan = await engine.preview(first!);
      const byUri = new Map(plan.actions.map((action) => [action.uri, action]));
      expect(byUri.get('workspace:/a.txt')).toMatchObject({
        conflict: true,
        conflictTurn: { turnId: second, sessionId: 's1', number: 2, title: 'Bump a' },
      });
      expect(byUri.get('workspace:/b.txt')?.conflict).toBe(true);
      expect(byUri.get('workspace:/b.txt')?.conflictTurn).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it('names, for each of several conflicting paths, the latest later turn that changed it', async () => {
    const engine = await openEngineOn(box);
    try {
      const { turnId: first } = await engine.input(input('Write all'));
      for (const name of ['a', 'b', 'c', 'd'])
        await engine.storage.writeFile(`workspace:/${name}.txt`, `${name}1\n`, S);
      await engine.turnEnd(S);
      const { turnId: second } = await engine.input(input('Bump a, b and d'));
      for (const name of ['a', 'b', 'd']) await engine.storage.writeFile(`workspace:/${name}.txt`, `${name}2\n`, S);
      await engine.turnEnd(S);
      const { turnId: third } = await engine.input(input('Bump a and d again'));
      for (const name of ['a', 'd']) await engine.storage.writeFile(`workspace:/${name}.txt`, `${name}3\n`, S);
      await engine.turnEnd(S);
      await writeFile(path.join(box.workspace, 'd.txt'), 'edited by hand\n');

      const plan = await engine.preview(first!);
      const byUri = new Map(plan.actions.map((action) => [action.uri, action]));
      expect(byUri.get('workspace:/a.txt')).toMatchObject({
        conflict: true,
        conflictTurn: { turnId: third, number: 3, title: 'Bump a and d again' },
      });
      expect(byUri.get('workspace:/b.txt')).toMatchObject({
        conflict: true,
        conflictTurn: { turnId: second, number: 2, title: 'Bump a, b and d' },
      });
      expect(byUri.get('workspace:/c.txt')).toMatchObject({ conflict: false });
      expect(byUri.get('workspace:/c.txt')?.conflictTurn).toBeUndefined();
      expect(byUri.get('workspace:/d.txt')?.conflict).toBe(true);
      expect(byUri.get('workspace:/d.txt')?.conflictTurn).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it('lists every folder a selective restore creates or removes, the implied ones too', async () => {
    await writeFile(path.join(box.workspace, 'keep.txt'), 'keep\n');
    const engine = await openEngineOn(box);
    try {
      const { turnId } = await engine.input(input('Add assets'));
      await engine.storage.writeFile('workspace:/assets/logo.svg', '<svg/>\n', S);
      await engine.storage.writeFile('workspace:/assets/icon.svg', '<svg/>\n', S);
      await engine.storage.writeFile('workspace:/a.txt', 'a\n', S);
      await engine.storage.delete('workspace:/keep.txt', S);
      await engine.turnEnd(S);

      const whole = await engine.preview(turnId!);
      expect(whole.folders).toEqual([{ uri: 'workspace:/assets', action: 'remove', implied: false }]);
      const chosen = await engine.preview(turnId!, {
        uris: ['workspace:/assets/logo.svg', 'workspace:/assets/icon.svg'],
      });
      expect(chosen.actions.map((action) => action.uri)).not.toContain('workspace:/assets');
      expect(chosen.folders).toEqual([{ uri: 'workspace:/assets', action: 'remove', implied: true }]);
    } finally {
      await engine.close();
    }
  });

  it('lists the folder a selective restore makes again for a chosen file the turn deleted with it, and restores both', async () => {
    const engine = await openEngineOn(box);
    try {
      await engine.input(input('Write the notes'));
      await engine.storage.writeFile('workspace:/notes/a.txt', 'a\n', S);
      await engine.storage.writeFile('workspace:/notes/b.txt', 'b\n', S);
      await engine.turnEnd(S);
      const { turnId } = await engine.input(input('Drop the notes'));
      await engine.storage.delete('workspace:/notes', { ...S, recursive: true });
      await engine.turnEnd(S);

      const chosen = await engine.preview(turnId!, { uris: ['workspace:/notes/a.txt'] });
      expect(chosen.actions.map((action) => action.uri)).toEqual(['workspace:/notes/a.txt']);
      expect(chosen.folders).toEqual([{ uri: 'workspace:/notes', action: 'create', implied: true }]);
      const result = await engine.rollback(turnId!, { uris: ['workspace:/notes/a.txt'] });
      expect(result).toMatchObject({ ok: true, restored: ['workspace:/notes/a.txt'], errors: [] });
    } finally {
      await engine.close();
    }
  });
});
