// A whole simulated Claude Code session through the real hook command: prompt → Write →
// Edit → Bash → Stop, twice. Like Claude Code, the "agent" changes the files itself right
// after each PreToolUse hook. Rolling both turns back through the API gives back the exact
// start tree.
import { appendFile, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, RollbackResult, Turn } from '../../../protocol.js';
import { treeAsText } from '../../../testkit/tree.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';
import { runHook } from '../../../testkit/spawn.js';

let t: HookTestServer;
beforeEach(async () => {
  t = await startHookTestServer();
  await mkdir(join(t.workspace, 'src'));
  await writeFile(
    join(t.workspace, 'src', 'app.ts'),
    'import { greet } from "./greet";\nconsole.log(greet("world"));\n',
  );
  await writeFile(join(t.workspace, 'src', 'greet.ts'), 'export const greet = (name: string) => `hi ${name}`;\n');
  await writeFile(join(t.workspace, 'run.sh'), '#!/bin/sh\nnode src/app.ts\n');
  await chmod(join(t.workspace, 'run.sh'), 0o755);
  await writeFile(join(t.workspace, 'README.md'), '# greeter\n');
});
afterEach(async () => {
  await t.close();
});

async function hook(payload: unknown): Promise<void> {
  expect((await runHook(payload, t.env)).code).toBe(0);
}

describe('a simulated Claude Code session', () => {
  // Sixteen hook processes: generous time for a loaded machine.
  it('records two turns and rolls back to the exact start tree', { timeout: 180_000 }, async () => {
    const transcript = t.context.transcriptPath;
    const c = { cwd: t.workspace, transcriptPath: transcript };
    const ws = (...parts: string[]) => join(t.workspace, ...parts);
    const start = await treeAsText(t.workspace);

    // Turn 1: a new file in a new folder, an edit, a test run.
    let tools: ReturnType<typeof p.preToolUse>[] = [];
    const tool = async (payload: ReturnType<typeof p.preToolUse>) => {
      tools.push(payload);
      await hook(payload);
    };
    await hook(p.userPromptSubmit(c, 'Add a formatter and use it'));
    await tool(p.write(c, ws('src', 'lib', 'format.ts'), 'export const format = (s: string) => s.trim();\n'));
    await mkdir(ws('src', 'lib'));
    await writeFile(ws('src', 'lib', 'format.ts'), 'export const format = (s: string) => s.trim();\n');
    await tool(p.edit(c, ws('src', 'app.ts'), 'greet("world")', 'format(greet("world"))'));
    await writeFile(
      ws('src', 'app.ts'),
      'import { greet } from "./greet";\nimport { format } from "./lib/format";\nconsole.log(format(greet("world")));\n',
    );
    await tool(p.bash(c, 'npx tsc --noEmit'));
    await writeFile(
      transcript,
      p.transcriptLines([
        { prompt: 'Add a formatter and use it', reply: ['Added `format` and used it in app.ts.'], tools },
      ]),
    );
    await hook(p.stop(c));
    const afterTurn1 = await treeAsText(t.workspace);

    // Turn 2: edits a file turn 1 made, a file of the start tree (keeping its mode), a new doc.
    tools = [];
    await hook(p.userPromptSubmit(c, 'Document it'));
    await tool(p.write(c, 'docs/usage.md', '# Usage\n'));
    await mkdir(ws('docs'));
    await writeFile(ws('docs', 'usage.md'), '# Usage\n');
    await tool(p.edit(c, ws('src', 'lib', 'format.ts'), 's.trim()', 's.trim().toLowerCase()'));
    await writeFile(ws('src', 'lib', 'format.ts'), 'export const format = (s: string) => s.trim().toLowerCase();\n');
    await tool(p.multiEdit(c, ws('run.sh'), [{ old_string: 'node', new_string: 'exec node' }]));
    await writeFile(ws('run.sh'), '#!/bin/sh\nexec node src/app.ts\n');
    await tool(p.edit(c, ws('README.md'), '# greeter', '# greeter\n\nSee docs/usage.md.'));
    await appendFile(ws('README.md'), '\nSee docs/usage.md.\n');
    await tool(p.bash(c, 'sh run.sh'));
    await appendFile(
      transcript,
      p.transcriptLines([{ prompt: 'Document it', reply: ['Wrote docs/usage.md.'], tools }]),
    );
    await hook(p.stop(c));
    expect(await treeAsText(t.workspace)).not.toEqual(afterTurn1);

    const turns = (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
    expect(turns.map((turn) => [turn.number, turn.title, turn.status, turn.fileCount, turn.execUsed])).toEqual([
      [1, 'Add a formatter and use it', 'committed', 2, true],
      [2, 'Document it', 'committed', 4, true],
    ]);
    const messages = (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json
      .messages;
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Add a formatter and use it'],
      ['assistant', 'I will write it.'],
      ['tool', 'Write(src/lib/format.ts)'],
      ['tool', 'Edit(src/app.ts)'],
      ['tool', 'Bash(npx tsc --noEmit)'],
      ['assistant', 'Added `format` and used it in app.ts.'],
      ['user', 'Document it'],
      ['assistant', 'I will write it.'],
      ['tool', 'Write(docs/usage.md)'],
      ['tool', 'Edit(src/lib/format.ts)'],
      ['tool', 'MultiEdit(run.sh)'],
      ['tool', 'Edit(README.md)'],
      ['tool', 'Bash(sh run.sh)'],
      ['assistant', 'Wrote docs/usage.md.'],
    ]);

    const second = await t.api<RollbackResult>('POST', `/api/turns/${turns[1].turnId}/rollback`, {});
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(t.workspace)).toEqual(afterTurn1);

    const first = await t.api<RollbackResult>('POST', `/api/turns/${turns[0].turnId}/rollback`, {});
    expect(first.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(t.workspace)).toEqual(start);
    expect(await readFile(join(t.env.XDG_STATE_HOME!, 'turnback', 'hook.log'), 'utf8').catch(() => '')).toBe('');
  });
});
