// The real GitHub Copilot CLI (the pinned version, installed by install.ts), offline, its BYOK
// provider a scripted fake OpenAI-compatible API, with the hooks `turnback init copilot --global`
// installed and a built `turnback serve` recording: three prompts in one session (`--resume`),
// checked through the HTTP API and on disk, then every turn rolled back, newest first, to the
// exact start tree. `npm run test:hosts:copilot` runs it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recording, runPrompts, ws, type TreeText } from '../../../server/testkit/hosts/recording.js';
import { setUpProject } from '../../../server/testkit/hosts/scenario.js';
import { callIdOf, eventNameOf } from '../../../server/adapters/copilot/event.js';
import { COPILOT_VERSION, ensureCopilot } from './install.js';
import { MCP_TOOL, PROMPTS, script } from './scenario.js';
import { openSandbox, type Sandbox } from './sandbox.js';

let s: Sandbox;
let r: Recording;
/** The tree before any turn, then after each of the three. */
let trees: TreeText[] = [];
let runs: { code: number | null; stdout: string; stderr: string }[] = [];

beforeAll(async () => {
  s = await openSandbox({ bin: ensureCopilot(), script, setup: setUpProject });
  r = new Recording(s.console, s.workspace);
  ({ trees, runs } = await runPrompts(
    s.workspace,
    [PROMPTS.files, PROMPTS.shell, PROMPTS.tools].map((prompt) => () => s.copilot(prompt)),
  ));
}, 600_000);
afterAll(async () => {
  await s?.close();
});

const agentTurns = () => r.agentTurns();
const changed = (turnId: string) => r.changed(turnId);

describe(`Copilot CLI ${COPILOT_VERSION}, for real, with turnback's hooks recording`, () => {
  it('ran the three prompts in one session, the hooks logging no problem', async () => {
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    expect(s.initOutput).toMatch(/Added the turnback hooks to .*\/\.copilot\/hooks\/turnback\.json/);
    expect(await s.hookLog()).toBe('');
    await r.expectOneSession('copilot');
    expect((await agentTurns()).map((turn) => [turn.number, turn.title, turn.status])).toEqual([
      [1, PROMPTS.files, 'committed'],
      [2, PROMPTS.shell, 'committed'],
      [3, PROMPTS.tools, 'committed'],
    ]);
  });

  it('records the files of create and edit before they change, and the chat from the session log', async () => {
    const [turn] = await agentTurns();
    expect(turn.execUsed).toBe(false);
    expect(await changed(turn.turnId)).toEqual(
      [
        ['created', ws('src/helper.ts')],
        ['modified', ws('src/app.ts')],
      ].sort(),
    );
    // Copilot writes its log behind its hooks: on a loaded machine the chat joins the turn after its end.
    await expect
      .poll(() => r.chatOf(turn.turnId), { timeout: 30_000 })
      .toEqual([
        ['user', PROMPTS.files],
        ['assistant', "I'll add a helper first."],
        ['tool', 'create(src/helper.ts)'],
        ['tool', 'view(src/app.ts)'],
        ['tool', 'edit(src/app.ts)'],
        ['tool', 'edit(src/app.ts)'],
        ['assistant', 'Turn 1 done: helper added.'],
      ]);
  });

  it('records what bash (sed -i, rm, mv, a failing command) changed, each command ended', async () => {
    const turn = (await agentTurns())[1];
    expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
    expect(turn.execCommands.map((c) => [c.tool, c.command.split(' ')[0], c.endedAt !== null])).toEqual([
      ['bash', 'sed', true],
      ['bash', 'rm', true],
      ['bash', 'cat', true],
    ]);
    expect(turn.execCommands[0].changed).toEqual([ws('src/util.ts')]);
    const files = await changed(turn.turnId);
    for (const file of [
      ['modified', ws('src/util.ts')],
      ['deleted', ws('scratch.txt')],
      ['renamed', ws('docs/renamed.md')],
      ['deleted', ws('docs/old.md')],
    ])
      expect(files).toContainEqual(file);
  });

  it('records what the MCP tool wrote, and scans around a tool that does not exist', async () => {
    const turn = (await agentTurns())[2];
    expect(turn.execCommands.map((c) => [c.tool, c.endedAt !== null])).toEqual([
      [MCP_TOOL, true],
      ['refactor_everything', true],
    ]);
    expect(turn.execCommands[0].changed).toEqual([ws('mcp'), ws('mcp/out.txt')]);
    expect(await changed(turn.turnId)).toEqual([
      ['created', ws('mcp/out.txt')],
      ['dir-created', ws('mcp')],
    ]);
    expect(await readFile(join(s.workspace, 'mcp', 'out.txt'), 'utf8')).toBe('written by an MCP tool\n');
  });

  it('restores chosen files only, and undoes that', async () => {
    const shell = (await agentTurns())[1];
    await r.expectChosenFileRestoredAndUndone(shell.turnId, trees[3]);
  });

  it('rolls back with chat, deleting what the person saw, and undoes that', async () => {
    const first = (await agentTurns())[0];
    await r.expectRolledBackWithChatAndUndone(first.turnId, trees[3]);
  });

  it('rolls every turn back exactly, newest first, to the start tree', async () => {
    await r.expectEveryTurnRolledBackNewestFirst(trees);
  });
});

describe(`what Copilot CLI ${COPILOT_VERSION} hands a hook (the facts the adapter relies on)`, () => {
  it('sends camelCase payloads without an event name, each told apart by its own fields', async () => {
    const events = await s.rawEvents();
    for (const event of events) {
      expect(event).toMatchObject({ sessionId: expect.any(String), timestamp: expect.any(Number), cwd: s.workspace });
      expect(event.hook_event_name).toBeUndefined();
    }
    const names = events.map((event) => eventNameOf(event));
    expect(names).not.toContain(null);
    // Three runs: each a session start, its prompt, its stop and its end.
    for (const name of ['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd'])
      expect(
        names.filter((n) => n === name),
        name,
      ).toHaveLength(3);
    const stop = events.find((event) => eventNameOf(event) === 'agentStop')!;
    expect(stop.transcriptPath).toBe(join(s.home, '.copilot', 'session-state', stop.sessionId, 'events.jsonl'));
  });

  it("names its tools bash, create, edit, view and <server>-<tool>; a tool's pre and post carry the same toolArgs", async () => {
    const events = await s.rawEvents();
    const pre = events.filter((event) => eventNameOf(event) === 'preToolUse');
    const post = events.filter((event) => ['postToolUse', 'postToolUseFailure'].includes(eventNameOf(event) ?? ''));
    expect(pre.map((event) => event.toolName)).toEqual([
      'create',
      'view',
      'edit',
      'edit',
      'bash',
      'bash',
      'bash',
      MCP_TOOL,
      'refactor_everything',
    ]);
    expect(post.map((event) => callIdOf(event.toolName, event.toolArgs))).toEqual(
      pre.map((event) => callIdOf(event.toolName, event.toolArgs)),
    );
    // The failing edit and the missing tool fail; a shell command that exits 1 does not.
    expect(post.filter((event) => eventNameOf(event) === 'postToolUseFailure').map((e) => e.toolName)).toEqual([
      'edit',
      'refactor_everything',
    ]);
  });

  it('offers bash, create, edit, view, task and the MCP tool over chat completions', () => {
    const calls = s.api.requests.filter((call) => call.matched !== null);
    expect(new Set(calls.map((call) => call.path))).toEqual(new Set(['/v1/chat/completions']));
    expect(calls[0].tools).toEqual(expect.arrayContaining(['bash', 'create', 'edit', 'view', 'task', MCP_TOOL]));
  });
});
