// The real OpenCode CLI (the pinned version, installed by install.ts), driven by a scripted fake
// OpenAI-compatible API (a custom provider's baseURL), with the plugin `turnback init opencode`
// installed and a built `turnback serve` recording: three prompts in one session (`--continue`),
// checked through the HTTP API and on disk, then every turn rolled back, newest first, to the
// exact start tree. `npm run test:hosts:opencode` runs it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recording, runPrompts, ws, type TreeText } from '../../../server/testkit/hosts/recording.js';
import { ensureOpencode, OPENCODE_VERSION } from './install.js';
import { setUpProject } from '../../../server/testkit/hosts/scenario.js';
import { PROMPTS, script } from './scenario.js';
import { openSandbox, type Sandbox } from './sandbox.js';

let s: Sandbox;
let r: Recording;
/** The tree before any turn, then after each of the three. */
let trees: TreeText[] = [];
let runs: { code: number | null; stderr: string }[] = [];

beforeAll(async () => {
  s = await openSandbox({ bin: ensureOpencode(), script, setup: setUpProject });
  r = new Recording(s.console, s.workspace);
  ({ trees, runs } = await runPrompts(
    s.workspace,
    [PROMPTS.files, PROMPTS.shell, PROMPTS.subagent].map((prompt) => () => s.opencode(prompt)),
  ));
}, 600_000);
afterAll(async () => {
  await s?.close();
});

/** `opencode run` hands the model (and plugins) a message with spaces in double quotes. */
const asRun = (prompt: string) => `"${prompt}"`;
const agentTurns = () => r.agentTurns();
const chatOf = (turnId: string) => r.chatOf(turnId);
const changed = (turnId: string) => r.changed(turnId);

describe(`OpenCode ${OPENCODE_VERSION}, for real, with turnback's plugin recording`, () => {
  it('ran the three prompts in one session, the plugin telling nothing', async () => {
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    for (const run of runs) expect(run.stderr).not.toContain('turnback:');
    expect(s.initOutput).toMatch(/Added the turnback hooks to .*\/opencode\/plugins\/turnback.js/);
    await r.expectOneSession('opencode');
    expect((await agentTurns()).map((turn) => [turn.number, turn.title, turn.status])).toEqual([
      [1, asRun(PROMPTS.files), 'committed'],
      [2, asRun(PROMPTS.shell), 'committed'],
      [3, asRun(PROMPTS.subagent), 'committed'],
    ]);
  });

  it('records the files of write and edit, and the reply', async () => {
    const [turn] = await agentTurns();
    expect(turn.execUsed).toBe(false);
    expect(await changed(turn.turnId)).toEqual(
      [
        ['created', ws('src/helper.ts')],
        ['modified', ws('src/app.ts')],
      ].sort(),
    );
    expect(await chatOf(turn.turnId)).toEqual([
      ['user', asRun(PROMPTS.files)],
      ['assistant', "I'll add a helper first.\n\nTurn 1 done: helper added."],
    ]);
  });

  it('records what bash (sed -i, rm, mv, a failing command) and an MCP tool changed, each command ended', async () => {
    const turn = (await agentTurns())[1];
    expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
    expect(turn.execCommands.map((c) => [c.tool, c.command.split(' ')[0], c.endedAt !== null])).toEqual([
      ['bash', 'sed', true],
      ['bash', 'rm', true],
      ['bash', 'cat', true],
      ['files_write', '{"path":"mcp/out.txt","text":"written', true],
    ]);
    expect(turn.execCommands[0].changed).toEqual([ws('src/util.ts')]);
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

  it("records a sub-agent's write and bash in the turn that started it", async () => {
    const turn = (await agentTurns())[2];
    expect(await changed(turn.turnId)).toEqual([['created', ws('docs/notes.md')]]);
    expect(turn.execCommands.map((c) => [c.tool, c.command, c.endedAt !== null])).toEqual([
      ['bash', 'echo noted >> docs/notes.md', true],
    ]);
    expect(await chatOf(turn.turnId)).toEqual([
      ['user', asRun(PROMPTS.subagent)],
      ['assistant', 'Turn 3 done: the sub-agent wrote them.'],
    ]);
    expect(await readFile(join(s.workspace, 'docs', 'notes.md'), 'utf8')).toBe('# Notes\nnoted\n');
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

describe(`what OpenCode ${OPENCODE_VERSION} hands a plugin (the facts the plugin relies on)`, () => {
  it('links tool.execute.before to .after by callID, and has no .after for a tool that threw', async () => {
    const calls = await s.probe();
    const before = calls.filter((c) => c.kind === 'before');
    const after = calls.filter((c) => c.kind === 'after');
    for (const call of before)
      expect(call.a).toMatchObject({
        tool: expect.any(String),
        sessionID: expect.stringMatching(/^ses_/),
        callID: expect.any(String),
      });
    const failed = before.filter((c) => c.b.args.oldString === 'not there').map((c) => c.a.callID);
    expect(failed).toHaveLength(1);
    expect(after.map((c) => c.a.callID).sort()).toEqual(
      before
        .map((c) => c.a.callID)
        .filter((id) => !failed.includes(id))
        .sort(),
    );
  });

  it('runs a sub-agent as a child session (parentID), whose tools carry its own sessionID', async () => {
    const calls = await s.probe();
    const children = calls.filter(
      (c) => c.kind === 'event' && c.a.type === 'session.created' && c.a.properties.info.parentID,
    );
    expect(children).toHaveLength(1);
    const child = children[0].a.properties.info.id;
    expect(calls.filter((c) => c.kind === 'before' && c.a.sessionID === child).map((c) => c.a.tool)).toEqual([
      'write',
      'bash',
    ]);
    expect(
      calls.some((c) => c.kind === 'event' && c.a.type === 'session.idle' && c.a.properties.sessionID === child),
    ).toBe(true);
  });

  it('offers write, edit, bash, task and the MCP tool as <server>_<tool>, over chat completions', () => {
    const calls = s.api.requests.filter((call) => call.matched !== null);
    expect(new Set(calls.map((call) => call.path))).toEqual(new Set(['/v1/chat/completions']));
    expect(calls[0].tools).toEqual(expect.arrayContaining(['write', 'edit', 'bash', 'task', 'files_write']));
  });
});
