// Bash calls through the hook route, with the commands really run between their PreToolUse and
// PostToolUse as Claude Code runs them: the engine's scans around each one make a turn of
// shell changes roll back exactly, and say which command changed what.
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RollbackResult, Turn } from '../../../protocol.js';
import { treeAsText } from '../../../testkit/tree.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';

let t: HookTestServer;
let c: { cwd: string; transcriptPath: string };
beforeEach(async () => {
  t = await startHookTestServer({
    files: {
      'src/a.ts': 'export const a = "old";\n',
      'src/b.ts': 'export const b = "old";\n',
      'notes.txt': 'keep me\n',
      'docs/guide.md': '# Guide\n',
    },
  });
  c = t.context;
});
afterEach(async () => {
  await t.close();
});

const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;

/** One Bash call: its PreToolUse, the command itself, its PostToolUse. */
async function bash(command: string): Promise<void> {
  const pre = p.bash(c, command);
  expect((await t.postHook(pre)).json).toMatchObject({ outcome: 'forwarded' });
  execFileSync('/bin/sh', ['-c', command], { cwd: t.workspace });
  expect((await t.postHook(p.postToolUse(pre))).json).toMatchObject({ outcome: 'forwarded' });
}

describe('Bash calls through the hook route', () => {
  it('rolls back sed -i, rm, mv and a heredoc exactly, and the undo brings them back', async () => {
    const start = await treeAsText(t.workspace);
    await t.postHook(p.userPromptSubmit(c, 'Rename things in the shell'));
    await bash(`sed -i 's/old/new/' src/a.ts src/b.ts`);
    // Its PostToolUse has ended it: the turn, still active, shows what it changed.
    expect((await turns())[0]).toMatchObject({
      status: 'active',
      execCommands: [{ endedAt: expect.any(String), changed: ['workspace:/src/a.ts', 'workspace:/src/b.ts'] }],
    });
    await bash('rm notes.txt && mv docs manual');
    await bash(`cat > src/c.ts <<'EOF'\nexport const c = 1;\nEOF`);
    await t.postHook(p.stop(c));
    const after = await treeAsText(t.workspace);

    const [turn] = await turns();
    expect(
      turn.execCommands.map((command) => [command.command.split(' ')[0], [...(command.changed ?? [])].sort()]),
    ).toEqual([
      ['sed', ['workspace:/src/a.ts', 'workspace:/src/b.ts']],
      [
        'rm',
        [
          'workspace:/docs',
          'workspace:/docs/guide.md',
          'workspace:/manual',
          'workspace:/manual/guide.md',
          'workspace:/notes.txt',
        ],
      ],
      ['cat', ['workspace:/src/c.ts']],
    ]);
    expect(turn.execCommands.every((command) => command.endedAt !== null)).toBe(true);

    const rollback = await t.api<RollbackResult>('POST', `/api/turns/${turn.turnId}/rollback`, {});
    expect(rollback.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(t.workspace)).toEqual(start);
    const undo = await t.api<RollbackResult>('POST', `/api/turns/${rollback.json.rollbackTurnId}/rollback`, {});
    expect(undo.json).toMatchObject({ ok: true });
    expect(await treeAsText(t.workspace)).toEqual(after);
  });

  it('rolls back a command that failed (PostToolUseFailure) as well', async () => {
    const start = await treeAsText(t.workspace);
    await t.postHook(p.userPromptSubmit(c, 'Half a script'));
    const pre = p.bash(c, 'echo more >> notes.txt; exit 3');
    await t.postHook(pre);
    try {
      execFileSync('/bin/sh', ['-c', 'echo more >> notes.txt; exit 3'], { cwd: t.workspace, stdio: 'ignore' });
    } catch {
      // the command's exit code 3
    }
    expect((await t.postHook(p.postToolUse(pre, true))).json).toMatchObject({ outcome: 'forwarded' });
    await t.postHook(p.stop(c));
    const [turn] = await turns();
    expect(turn.execCommands[0].changed).toEqual(['workspace:/notes.txt']);
    expect((await t.api<RollbackResult>('POST', `/api/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({
      ok: true,
    });
    expect(await treeAsText(t.workspace)).toEqual(start);
  });
});
