// Undo from the agent's own chat, through the real Claude Code CLI (issue 39 item 2): turnback's
// hooks and its MCP server registered as `turnback init claude-code --mcp` registers them (the
// server in ~/.claude.json, started by Claude Code with its session in CLAUDE_CODE_SESSION_ID).
// The fake model edits in one turn; in the next it edits, calls `undo_turn {}` mid-turn, and edits
// again. The first turn's files are back; the asking turn is intact, holding the undo as a step.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../../server/protocol.js';
import { ws } from '../../../server/testkit/hosts/recording.js';
import { openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { treeAsText } from '../../../server/testkit/tree.js';
import { startFakeApi, type Script } from './fake-api.js';
import { CLAUDE_CODE_VERSIONS, ensureClaudeCode } from './install.js';

const FIRST = 'Turn 1: add a feature';
const ASKING = 'Turn 2: undo your last turn';
const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });
const text = (t: string) => ({ type: 'text' as const, text: t });

const script = (workspace: string): Script => ({
  'Turn 1:': [
    [tool('Write', { file_path: join(workspace, 'feature.txt'), content: 'feature\n' })],
    // 2.1.197 refuses an Edit of a file not read first.
    [tool('Read', { file_path: join(workspace, 'app.txt') })],
    [tool('Edit', { file_path: join(workspace, 'app.txt'), old_string: 'v1', new_string: 'v2' })],
    [text('Turn 1 done.')],
  ],
  'Turn 2:': [
    [tool('Write', { file_path: join(workspace, 'before-undo.txt'), content: 'asked first\n' })],
    [tool('mcp__turnback__undo_turn', {})],
    [tool('Write', { file_path: join(workspace, 'after-undo.txt'), content: 'then this\n' })],
    [text('Turn 2 done: the last turn is undone.')],
  ],
});

/** The tool result Claude Code handed the model for the MCP call, from its stream-json output. */
function mcpResult(run: CommandResult): { isError: boolean; text: string } | null {
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line);
    if (event.type !== 'user' || !Array.isArray(event.message?.content)) continue;
    for (const part of event.message.content) {
      if (part.type !== 'tool_result') continue;
      const body = Array.isArray(part.content)
        ? part.content.map((c: { text?: string }) => c.text ?? '').join('')
        : String(part.content);
      if (body.includes('"result"') || /^[A-Z_]+: /.test(body)) return { isError: part.is_error === true, text: body };
    }
  }
  return null;
}

for (const version of CLAUDE_CODE_VERSIONS) {
  describe(`Claude Code ${version}: undo from the agent's own chat through turnback's MCP server`, () => {
    let world: World;
    let closeApi: () => Promise<void> = async () => {};
    let runs: CommandResult[] = [];
    let start: Record<string, string>;
    let afterFirst: Record<string, string>;

    beforeAll(async () => {
      const claudeBin = ensureClaudeCode(version);
      world = await openWorld({
        prefix: 'undo-chat',
        setup: async (dir) => {
          await writeFile(join(dir, 'app.txt'), 'app v1\n');
        },
      });
      const { workspace } = world;
      await world.init(['claude-code', '--workspace', workspace, '--mcp']);
      await world.serve();
      const api = await startFakeApi(script(workspace));
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
        runCommand(
          claudeBin,
          [
            ...more,
            '-p',
            prompt,
            '--permission-mode',
            'bypassPermissions',
            '--output-format',
            'stream-json',
            '--verbose',
          ],
          { env, cwd: workspace, cleanEnv: true },
        );
      start = await treeAsText(workspace);
      runs = [await claude(FIRST, [])];
      afterFirst = await treeAsText(workspace);
      runs.push(await claude(ASKING, ['--continue']));
    }, 600_000);
    afterAll(async () => {
      await world?.close(closeApi);
    });

    const turns = async (): Promise<Turn[]> => {
      const { sessions } = (await world.console<{ sessions: { sessionId: string }[] }>('GET', '/api/sessions')).json;
      expect(sessions).toHaveLength(1);
      return (await world.console<{ turns: Turn[] }>('GET', `/api/sessions/${sessions[0].sessionId}/turns`)).json.turns;
    };

    it('the MCP call undid the turn before the asking one, as the model saw it', async () => {
      expect(runs.map((run) => run.code)).toEqual([0, 0]);
      expect(Object.keys(afterFirst)).toEqual(expect.arrayContaining(['app.txt', 'feature.txt']));
      expect(afterFirst['app.txt']).not.toEqual(start['app.txt']);
      const result = mcpResult(runs[1]);
      expect(result, runs[1].stdout.slice(-2000)).not.toBeNull();
      expect(result!.isError, result!.text).toBe(false);
      expect(JSON.parse(result!.text)).toMatchObject({ turn: { number: 1 }, result: { ok: true } });
    });

    it("puts the first turn's files back and keeps the asking turn's own changes, before and after the undo", async () => {
      const workspace = world.workspace;
      expect(await readFile(join(workspace, 'app.txt'), 'utf8')).toBe('app v1\n');
      const { 'before-undo.txt': _before, 'after-undo.txt': _after, ...rest } = await treeAsText(workspace);
      expect(rest).toEqual(start);
      expect(await readFile(join(workspace, 'before-undo.txt'), 'utf8')).toBe('asked first\n');
      expect(await readFile(join(workspace, 'after-undo.txt'), 'utf8')).toBe('then this\n');
    });

    it('leaves two agent turns and no other: the first rolled back by the asking one, which holds the undo as a step', async () => {
      const all = await turns();
      expect(all.map((t) => [t.number, t.kind, t.status])).toEqual([
        [1, 'agent', 'rolled-back'],
        [2, 'agent', 'committed'],
      ]);
      const [first, asking] = all;
      expect(first.rolledBackBy).toBe(asking.turnId);
      const manifest = (await world.console<{ files: { uri: string }[] }>('GET', `/api/turns/${asking.turnId}`)).json;
      expect(manifest.files.map((f) => f.uri)).toEqual(
        expect.arrayContaining([ws('before-undo.txt'), ws('after-undo.txt'), ws('feature.txt'), ws('app.txt')]),
      );
      const { steps } = (
        await world.console<{ steps: { title: string }[] }>('GET', `/api/turns/${asking.turnId}/steps`)
      ).json;
      expect(steps.map((s) => s.title).join('\n')).toMatch(/undo_turn|Undo of #1/);
    });
  });
}
