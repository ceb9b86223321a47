// Telling the agent what the person undid, through the real Copilot CLI (issue 41): a turn creates
// and edits files, the person undoes it with `turnback undo`, and the session's next prompt reaches
// the fake chat completions API with turnback's paragraph (userPromptSubmitted's additionalContext,
// which the CLI adds to the prompt as a `<system_reminder>`) naming the files; the prompt after
// that does not add it again.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import type { Block, Script } from './fake-api.js';
import { COPILOT_VERSION, ensureCopilot } from './install.js';
import { openSandbox, type Sandbox } from './sandbox.js';

const TURNBACK = fileURLToPath(new URL('../../../bin/turnback.js', import.meta.url));
const MARK = 'took back work of this session';
const text = (t: string): Block => ({ type: 'text', text: t });
const tool = (name: string, input: Record<string, unknown>): Block => ({ type: 'tool', name, input });

const script = (ws: string): Script => ({
  'Turn 1:': [
    [tool('create', { path: join(ws, 'feature.txt'), file_text: 'feature words\n' })],
    [tool('edit', { path: join(ws, 'app.txt'), old_str: 'app v1', new_str: 'app v2' })],
    [text('Turn 1 done.')],
  ],
  'Turn 2:': [[text('Turn 2 done.')]],
  'Turn 3:': [[text('Turn 3 done.')]],
});

const times = (haystack: string, needle: string) => haystack.split(needle).length - 1;

let s: Sandbox;
const runs: CommandResult[] = [];

beforeAll(async () => {
  s = await openSandbox({
    bin: ensureCopilot(),
    script,
    setup: async (dir) => {
      await writeFile(join(dir, 'app.txt'), 'app v1\n');
    },
  });
  runs.push(await s.copilot('Turn 1: add a feature'));
  runs.push(await runCommand(process.execPath, [TURNBACK, 'undo', '--yes'], { env: s.env, cwd: s.workspace }));
  runs.push(await s.copilot('Turn 2: go on'));
  runs.push(await s.copilot('Turn 3: and on'));
}, 600_000);
afterAll(async () => {
  await s?.close();
});

const firstOf = (key: string) => s.api.requests.find((r) => r.matched === key && r.step === 0);

describe(`Copilot CLI ${COPILOT_VERSION}: the prompt after an undo tells the agent what was undone`, () => {
  it('ran every prompt and the undo', () => {
    expect(
      runs.map((run) => run.code),
      runs.map((run) => run.stderr).join('\n'),
    ).toEqual([0, 0, 0, 0]);
  });

  it("the next prompt's request carries the paragraph: the undo and its files, no contents", () => {
    const body = firstOf('Turn 2:')?.body ?? '';
    expect(times(body, MARK)).toBe(1);
    const paragraph = /turnback: since your last prompt.*?unless asked\./.exec(body)?.[0] ?? '';
    expect(paragraph).toContain('(Undo of #1)');
    expect(paragraph).toMatch(/feature\.txt\\*" \(deleted\)/);
    expect(paragraph).toMatch(/app\.txt\\*" \(as before turn #1\)/);
    expect(paragraph).not.toMatch(/feature words|app v2/);
    expect(times(firstOf('Turn 1:')?.body ?? '', MARK)).toBe(0);
  });

  it('the request after it does not add it again (it is in the history once at most)', () => {
    expect(firstOf('Turn 3:')).toBeDefined();
    expect(times(firstOf('Turn 3:')!.body ?? '', MARK)).toBeLessThanOrEqual(1);
  });
});
