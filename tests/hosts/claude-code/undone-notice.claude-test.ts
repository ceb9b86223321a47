// Telling the agent what the person undid, through the real Claude Code CLI (issue 41): a turn
// writes and edits, the person undoes it with `turnback undo`, and the session's next prompt
// reaches the model with turnback's paragraph (UserPromptSubmit's additionalContext) naming the
// files; the prompt after that does not add it again (it is only in the history then).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../server/testkit/hosts/fake-api.js';
import { openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { startFakeApi, type Script } from './fake-api.js';
import { CLAUDE_CODE_VERSIONS, ensureClaudeCode } from './install.js';

const TURNBACK = fileURLToPath(new URL('../../../bin/turnback.js', import.meta.url));
const MARK = 'took back work of this session';
const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });
const text = (t: string) => ({ type: 'text' as const, text: t });

const script = (workspace: string): Script => ({
  'Turn 1:': [
    [tool('Write', { file_path: join(workspace, 'feature.txt'), content: 'feature words\n' })],
    [tool('Read', { file_path: join(workspace, 'app.txt') })],
    [tool('Edit', { file_path: join(workspace, 'app.txt'), old_string: 'v1', new_string: 'v2' })],
    [text('Turn 1 done.')],
  ],
  'Turn 2:': [[text('Turn 2 done.')]],
  'Turn 3:': [[text('Turn 3 done.')]],
});

const times = (haystack: string, needle: string) => haystack.split(needle).length - 1;

for (const version of CLAUDE_CODE_VERSIONS) {
  describe(`Claude Code ${version}: the prompt after an undo tells the agent what was undone`, () => {
    let world: World;
    let requests: ApiRequest[] = [];
    let closeApi: () => Promise<void> = async () => {};
    const runs: CommandResult[] = [];

    beforeAll(async () => {
      const claudeBin = ensureClaudeCode(version);
      world = await openWorld({
        prefix: 'undone-notice',
        setup: async (dir) => {
          await writeFile(join(dir, 'app.txt'), 'app v1\n');
        },
      });
      const { workspace } = world;
      await world.init(['claude-code', '--workspace', workspace]);
      await world.serve();
      const api = await startFakeApi(script(workspace));
      requests = api.requests;
      closeApi = () => api.close();
      const env: NodeJS.ProcessEnv = {
        ...world.env,
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'x',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        IS_SANDBOX: '1',
      };
      const claude = (prompt: string, more: string[]) =>
        runCommand(claudeBin, [...more, '-p', prompt, '--permission-mode', 'bypassPermissions'], {
          env,
          cwd: workspace,
          cleanEnv: true,
        });
      runs.push(await claude('Turn 1: add a feature', []));
      runs.push(
        await runCommand(process.execPath, [TURNBACK, 'undo', '--yes'], {
          env: world.env,
          cwd: workspace,
        }),
      );
      runs.push(await claude('Turn 2: go on', ['--continue']));
      runs.push(await claude('Turn 3: and on', ['--continue']));
    }, 600_000);
    afterAll(async () => {
      await world?.close(closeApi);
    });

    const firstOf = (key: string) => requests.find((r) => r.matched === key && r.step === 0);

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

    it('the request after it does not add it again (it is in the history once)', () => {
      expect(times(firstOf('Turn 3:')?.body ?? MARK + MARK, MARK)).toBeLessThanOrEqual(1);
      expect(firstOf('Turn 3:')).toBeDefined();
    });
  });
}
