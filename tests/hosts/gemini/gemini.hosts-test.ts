// The real Gemini CLI (the pinned version, installed by install.ts), driven by a scripted fake
// Gemini API (GOOGLE_GEMINI_BASE_URL), with the hooks `turnback init gemini` wrote and a built
// `turnback serve` recording: three prompts in one session (`--resume latest`), checked through
// the HTTP API and on disk, then every turn rolled back, newest first, to the exact start tree.
// `npm run test:hosts:gemini` runs it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recording, runPrompts, ws, type TreeText } from '../../../server/testkit/hosts/recording.js';
import { treeAsText } from '../../../server/testkit/tree.js';
import { ensureGeminiCli, GEMINI_CLI_VERSION } from './install.js';
import { setUpProject } from '../../../server/testkit/hosts/scenario.js';
import { PROMPTS, script } from './scenario.js';
import { openSandbox, type Sandbox } from './sandbox.js';

let s: Sandbox;
let r: Recording;
/** The tree before any turn, then after each of the three. */
let trees: TreeText[] = [];
let exits: (number | null)[] = [];

beforeAll(async () => {
  s = await openSandbox({ entry: ensureGeminiCli(), script, setup: setUpProject });
  r = new Recording(s.console, s.workspace);
  const ran = await runPrompts(
    s.workspace,
    [PROMPTS.files, PROMPTS.shell, PROMPTS.mixed].map((prompt) => () => s.gemini(prompt)),
  );
  trees = ran.trees;
  exits = ran.runs.map((run) => run.code);
}, 600_000);
afterAll(async () => {
  await s?.close();
});

let sessionId = '';
const agentTurns = () => r.agentTurns();
const chatOf = (turnId: string) => r.chatOf(turnId);
const changed = (turnId: string) => r.changed(turnId);

describe(`Gemini CLI ${GEMINI_CLI_VERSION}, for real, with turnback recording`, () => {
  it('ran the three prompts in one session', async () => {
    expect(exits).toEqual([0, 0, 0]);
    expect(s.initOutput).toContain('Added the turnback hooks');
    sessionId = await r.expectOneSession('gemini');
    expect((await agentTurns()).map((turn) => [turn.number, turn.title, turn.status])).toEqual([
      [1, PROMPTS.files, 'committed'],
      [2, PROMPTS.shell, 'committed'],
      [3, PROMPTS.mixed, 'committed'],
    ]);
  });

  it('records the files of write_file and replace, and the chat from the session file', async () => {
    const [turn] = await agentTurns();
    expect(turn.execUsed).toBe(false);
    expect(await changed(turn.turnId)).toEqual(
      [
        ['created', ws('src/helper.ts')],
        ['modified', ws('src/app.ts')],
      ].sort(),
    );
    expect(await chatOf(turn.turnId)).toEqual([
      ['user', PROMPTS.files],
      ['assistant', "I'll add a helper first."],
      ['tool', 'write_file(src/helper.ts)'],
      ['tool', 'replace(src/app.ts)'],
      ['tool', 'replace(src/app.ts)'],
      ['assistant', 'Turn 1 done: helper added.'],
    ]);
  });

  it('records what the shell (sed -i, rm, mv, a failing command) and an MCP tool changed, each command ended', async () => {
    const turn = (await agentTurns())[1];
    expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
    expect(turn.execCommands.map((c) => [c.tool, c.command.split(' ')[0], c.endedAt !== null])).toEqual([
      ['run_shell_command', 'sed', true],
      ['run_shell_command', 'rm', true],
      ['run_shell_command', 'cat', true],
      ['mcp_files_write', '{"path":"mcp/out.txt","text":"written', true],
    ]);
    expect(turn.execCommands[0].changed).toEqual([ws('src/util.ts')]);
    expect(turn.execCommands[2].changed).toEqual([]);
    expect(turn.execCommands[3].changed).toEqual([ws('mcp'), ws('mcp/out.txt')]);
    const files = await changed(turn.turnId);
    for (const file of [
      ['modified', ws('src/util.ts')],
      ['deleted', ws('scratch.txt')],
      ['created', ws('mcp/out.txt')],
    ])
      expect(files).toContainEqual(file);
    expect(files.map(([, uri]) => uri)).toEqual(expect.arrayContaining([ws('docs/old.md'), ws('docs/renamed.md')]));
  });

  it("records a sub-agent's edit in the turn that started it, invoke_agent scanned around it", async () => {
    const turn = (await agentTurns())[2];
    expect(await changed(turn.turnId)).toEqual(
      [
        ['created', ws('docs/notes.md')],
        ['created', ws('gen/config.json')],
        ['dir-created', ws('gen')],
        ['created', ws('src/sub.ts')],
      ].sort(),
    );
    expect(turn.execCommands.map((c) => [c.tool, c.endedAt !== null])).toEqual([
      ['run_shell_command', true],
      ['invoke_agent', true],
    ]);
    expect(turn.execCommands[1].changed).toEqual([ws('src/sub.ts')]);
  });

  it('restores chosen files only, and undoes that', async () => {
    const shell = (await agentTurns())[1];
    await r.expectChosenFileRestoredAndUndone(shell.turnId, trees[3], async () => {
      expect(await treeAsText(s.workspace)).not.toHaveProperty('scratch.txt');
    });
  });

  it('rolls back with chat, deleting what the person saw, and undoes that', async () => {
    const mixed = (await agentTurns())[2];
    expect(await chatOf(mixed.turnId)).toContainEqual(['assistant', 'Turn 3 done.']);
    await r.expectRolledBackWithChatAndUndone(mixed.turnId, trees[3], async () => {
      expect(await treeAsText(s.workspace)).toEqual(trees[2]);
    });
  });

  it('rolls every turn back exactly, newest first, to the start tree', async () => {
    await r.expectEveryTurnRolledBackNewestFirst(trees);
  });

  it('never logged a problem in hook.log (the installed sh hook delivered every event)', async () => {
    expect(await s.hookLog()).toBe('');
  });
});

describe(`what Gemini CLI ${GEMINI_CLI_VERSION} sends (the facts the adapter relies on)`, () => {
  it('gives every event session_id, transcript_path under ~/.gemini/tmp and cwd, one session id throughout, no call id', async () => {
    const events = await s.rawEvents();
    expect(events.length).toBeGreaterThan(20);
    for (const event of events) {
      expect(event).toMatchObject({
        session_id: sessionId,
        cwd: s.workspace,
        transcript_path: expect.stringContaining(join(s.root, 'home', '.gemini', 'tmp')),
      });
      expect(event.tool_call_id ?? event.tool_use_id ?? event.call_id).toBeUndefined();
    }
  });

  it("runs BeforeAgent, the tools' BeforeTool/AfterTool in pairs, and AfterAgent with every text of the turn, per prompt", async () => {
    const events = await s.rawEvents();
    // SessionEnd's hooks are started as the CLI exits, not waited for: AfterAgent is the turn's end.
    const flow = events
      .filter((e) => e.hook_event_name !== 'SessionStart' && e.hook_event_name !== 'SessionEnd')
      .map((e) => (e.tool_name ? `${e.hook_event_name}:${e.tool_name}` : e.hook_event_name));
    expect(flow).toEqual([
      'BeforeAgent',
      'BeforeTool:write_file',
      'AfterTool:write_file',
      'BeforeTool:replace',
      'AfterTool:replace',
      'BeforeTool:replace',
      'AfterTool:replace',
      'AfterAgent',
      'BeforeAgent',
      'BeforeTool:run_shell_command',
      'AfterTool:run_shell_command',
      'BeforeTool:run_shell_command',
      'AfterTool:run_shell_command',
      'BeforeTool:run_shell_command',
      'AfterTool:run_shell_command',
      'BeforeTool:mcp_files_write',
      'AfterTool:mcp_files_write',
      'AfterAgent',
      'BeforeAgent',
      'BeforeTool:write_file',
      'AfterTool:write_file',
      'BeforeTool:run_shell_command',
      'AfterTool:run_shell_command',
      // A sub-agent's tools run inside invoke_agent, with the session's id and hooks.
      'BeforeTool:invoke_agent',
      'BeforeTool:write_file',
      'AfterTool:write_file',
      'AfterTool:invoke_agent',
      'AfterAgent',
    ]);
    const ends = events.filter((e) => e.hook_event_name === 'AfterAgent').map((e) => e.prompt_response);
    expect(ends).toEqual(["I'll add a helper first.\nTurn 1 done: helper added.", 'Turn 2 done.', 'Turn 3 done.']);
    const failedReplace = events.filter((e) => e.hook_event_name === 'AfterTool' && e.tool_name === 'replace')[1];
    expect(failedReplace.tool_response.error).toMatchObject({ type: expect.any(String) });
    const failedShell = events.find(
      (e) => e.hook_event_name === 'AfterTool' && e.tool_input.command === 'cat missing.txt',
    );
    expect(failedShell!.tool_response.error).toBeUndefined();
  });

  it('offers write_file, replace, run_shell_command and the MCP tool as mcp_<server>_<tool>, over streamGenerateContent', () => {
    const calls = s.api.requests.filter((call) => call.matched !== null);
    expect(new Set(calls.map((call) => call.path))).toEqual(
      new Set(['/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse']),
    );
    expect(calls[0].tools).toEqual(
      expect.arrayContaining(['write_file', 'replace', 'run_shell_command', 'mcp_files_write']),
    );
  });
});
