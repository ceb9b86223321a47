// The after scan's attribution when a folder cannot be listed: nothing below it is attributed
// (its state is unknown on one side), the folder is said unreadable once per command, in the
// order the scans met it.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineFs } from '../paths/fs.js';
import { makeSandbox, plant, who, ws } from '../../testkit/engine-harness.js';

const s = who();

describe('exec attribution below folders a scan could not list', () => {
  it('leaves out what lies below them and names each (reason, folder) once, in the order met', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, {
      'a.txt': 'a\n',
      'b.txt': 'b\n',
      'c.txt': 'c\n',
      'lib/x/one.txt': 'one\n',
      'lib/x/deep/two.txt': 'two\n',
      'zz/y/three.txt': 'three\n',
    });
    const blocked = new Set<string>();
    const fs = new EngineFs({
      beforeOp: (op, target) => {
        if (op === 'readdir' && blocked.has(target))
          throw Object.assign(new Error(`EACCES: ${target}`), { code: 'EACCES', path: target });
      },
    });
    const engine = await sb.open({ fs } as never);
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'run commands' });

    const first = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    await writeFile(join(sb.workspace, 'a.txt'), 'A\n');
    await writeFile(join(sb.workspace, 'lib/x/one.txt'), 'ONE\n');
    await rm(join(sb.workspace, 'lib/x/deep/two.txt'));
    await writeFile(join(sb.workspace, 'zz/y/three.txt'), 'THREE\n');
    blocked.add(join(sb.workspace, 'zz/y'));
    blocked.add(join(sb.workspace, 'lib/x'));
    const end1 = await engine.execEnd({ ...s, execId: first.execId! });
    expect(end1.changed).toEqual([ws('a.txt')]);
    expect(end1.skipped).toEqual([
      { uri: ws('lib/x'), reason: 'unreadable' },
      { uri: ws('zz/y'), reason: 'unreadable' },
    ]);

    // Still unlistable: both the baseline and the scan name the folders; each is said once.
    const second = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    await writeFile(join(sb.workspace, 'b.txt'), 'B\n');
    const end2 = await engine.execEnd({ ...s, execId: second.execId! });
    expect(end2.changed).toEqual([ws('b.txt')]);
    expect(end2.skipped).toEqual([
      { uri: ws('lib/x'), reason: 'unreadable' },
      { uri: ws('zz/y'), reason: 'unreadable' },
    ]);

    // The turn end's scan adds to the last command: what it already says is not said twice.
    await writeFile(join(sb.workspace, 'c.txt'), 'C\n');
    await engine.turnEnd(s);
    const commands = engine.getManifest(turnId!).turn.execCommands;
    expect(commands.map((c) => c.changed)).toEqual([[ws('a.txt')], [ws('b.txt'), ws('c.txt')]]);
    expect(commands.map((c) => c.skipped)).toEqual([
      [
        { uri: ws('lib/x'), reason: 'unreadable' },
        { uri: ws('zz/y'), reason: 'unreadable' },
      ],
      [
        { uri: ws('lib/x'), reason: 'unreadable' },
        { uri: ws('zz/y'), reason: 'unreadable' },
      ],
    ]);
  });
});
