// The real Codex CLI (the pinned version, installed by install.ts), driven by a scripted fake
// Responses API, with turnback's hooks installed by `turnback init codex` (and trusted the way
// `/hooks` trusts them) and a built `turnback serve` recording: four prompts in one session
// (`codex exec`, then `exec resume`), checked through the HTTP API and on disk, then every turn
// rolled back, newest first, to the exact start tree. `npm run test:hosts:codex` runs it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recording, runPrompts, ws, type TreeText } from '../../../server/testkit/hosts/recording.js';
import { treeAsText } from '../../../server/testkit/tree.js';
import { CODEX_VERSION, ensureCodex } from './install.js';
import { NFD_NOTE } from '../../../server/testkit/hosts/scenario.js';
import { PROMPTS, script, setUpWorkspace } from './scenario.js';
import { openSandbox, type Sandbox } from './sandbox.js';

let s: Sandbox;
let r: Recording;
/** The tree before any turn, then after each of the four. */
let trees: TreeText[] = [];
let exits: (number | null)[] = [];

beforeAll(async () => {
  const codexBin = ensureCodex();
  s = await openSandbox({ codexBin, script, setup: setUpWorkspace });
  r = new Recording(s.console, s.workspace);
  const prompts = [PROMPTS.files, PROMPTS.shell, PROMPTS.subagent, PROMPTS.failure];
  const ran = await runPrompts(
    s.workspace,
    prompts.map((prompt) => () => s.codex(prompt)),
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

describe(`Codex ${CODEX_VERSION}, for real, with turnback recording`, () => {
  it('ran the four prompts in one session: three ended normally, the refused one with an error', async () => {
    expect(exits).toEqual([0, 0, 0, 1]);
    sessionId = await r.expectOneSession('codex');
  });

  it('records one turn per prompt, titled by its first non-blank line, every one closed', async () => {
    expect((await agentTurns()).map((turn) => [turn.number, turn.title, turn.status])).toEqual([
      [1, 'Turn 1: add a helper and use it', 'committed'],
      [2, 'Turn 2: tidy up in the shell', 'committed'],
      [3, 'Turn 3: ask a sub-agent to fix the notes', 'committed'],
      [4, 'Turn 4: this one fails', 'committed'],
    ]);
  });

  it('records every file an apply_patch adds, updates, moves and deletes, with no scan', async () => {
    const [turn] = await agentTurns();
    expect(turn.execUsed).toBe(false);
    expect(await changed(turn.turnId)).toEqual(
      [
        ['created', ws('src/helper.ts')],
        ['modified', ws('src/app.ts')],
        ['deleted', ws('docs/guide.md')],
        ['created', ws('docs/guide-v2.md')],
        ['deleted', ws('docs/obsolete.txt')],
      ].sort(),
    );
    expect(await chatOf(turn.turnId)).toEqual([
      ['user', PROMPTS.files],
      ['tool', 'apply_patch(src/helper.ts, src/app.ts, docs/guide.md, docs/guide-v2.md, docs/obsolete.txt)'],
      ['assistant', 'Turn 1 done: helper added.'],
    ]);
  });

  it('records what the shell (sed -i, rm, mv, a heredoc), a failing command, one past its yield time and an MCP tool changed', async () => {
    const turn = (await agentTurns())[1];
    expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
    expect(turn.execCommands.map((c) => [c.tool, c.command.split(' ')[0], c.endedAt !== null])).toEqual([
      ['Bash', 'sed', true],
      ['Bash', 'rm', true],
      ['Bash', 'mkdir', true],
      ['Bash', 'cat', true],
      ['mcp__files__write', 'mcp__files__write', true],
      ['Bash', 'sleep', true],
    ]);
    // Its PostToolUse came when it ended, while Codex polled it: the after scan saw its file.
    expect(turn.execCommands[5].changed).toEqual([ws('gen/late.txt')]);
    expect(turn.execCommands[0].changed).toEqual([ws('src/util.ts')]);
    expect(turn.execCommands[3].changed).toEqual([]);
    expect(turn.execCommands[4].changed).toEqual([ws('mcp'), ws('mcp/out.txt')]);
    const files = await changed(turn.turnId);
    for (const file of [
      ['modified', ws('src/util.ts')],
      ['deleted', ws('scratch.txt')],
      ['created', ws('gen/config.json')],
      ['created', ws('mcp/out.txt')],
      ['created', ws('gen/late.txt')],
    ]) {
      expect(files).toContainEqual(file);
    }
    expect(files.map(([, uri]) => uri)).toEqual(expect.arrayContaining([ws('docs/old.md'), ws('docs/renamed.md')]));
    // The patch that did not apply changed nothing, and is shown all the same.
    expect(files.map(([, uri]) => uri)).not.toContain(ws('missing.txt'));
    const chat = await chatOf(turn.turnId);
    expect(chat).toContainEqual(['tool', "Bash(mkdir -p gen && cat > gen/config.json <<'EOF' …)"]);
    expect(chat).toContainEqual(['tool', 'apply_patch(missing.txt)']);
    expect(chat).toContainEqual(['tool', 'mcp__files__write(mcp/out.txt)']);
  });

  it("records a sub-agent's patch and shell edits in its parent's turn, an NFD name as it is on disk", async () => {
    const turn = (await agentTurns())[2];
    expect(await changed(turn.turnId)).toEqual([
      ['created', ws('src/sub.ts')],
      ['modified', ws(NFD_NOTE)],
    ]);
    const chat = await chatOf(turn.turnId);
    expect(chat[0]).toEqual(['user', PROMPTS.subagent]);
    expect(chat).toContainEqual(['tool', 'spawn_agent(SUBTASK: fix the NFD note)']);
    expect(chat.at(-1)).toEqual(['assistant', 'Turn 3 done: the sub-agent fixed it.']);
  });

  it('closes the refused turn with SessionEnd, nothing changed', async () => {
    const failed = (await agentTurns())[3];
    expect(failed).toMatchObject({ fileCount: 0, execUsed: false });
    expect((await chatOf(failed.turnId))[0]).toEqual(['user', PROMPTS.failure]);
  });

  it('restores chosen files only, and undoes that', async () => {
    const shell = (await agentTurns())[1];
    await r.expectChosenFileRestoredAndUndone(shell.turnId, trees[4], async () => {
      expect(await treeAsText(s.workspace)).not.toHaveProperty('scratch.txt');
    });
  });

  it('rolls back with chat, deleting what the person saw, and undoes that', async () => {
    const subagent = (await agentTurns())[2];
    await r.expectRolledBackWithChatAndUndone(subagent.turnId, trees[4], async () => {
      expect(await readFile(join(s.workspace, NFD_NOTE), 'utf8')).toBe('déjà vu\n');
    });
  });

  it('rolls every turn back exactly, newest first, to the start tree', async () => {
    await r.expectEveryTurnRolledBackNewestFirst(trees);
  });

  it('never logged a problem in hook.log', async () => {
    expect(await s.hookLog()).toBe('');
  });
});

describe(`what Codex ${CODEX_VERSION} sends (the facts the adapter relies on)`, () => {
  it("lists init's hooks as untrusted until trusted by hash, with their timeouts in seconds", () => {
    const ours = s.hooksBeforeTrust.filter((hook) => hook.command?.includes('turnback-hook codex'));
    expect(ours.map((hook) => hook.eventName).sort()).toEqual([
      'interrupt',
      'postToolUse',
      'preToolUse',
      'sessionEnd',
      'stop',
      'subagentStart',
      'subagentStop',
      'userPromptSubmit',
    ]);
    for (const hook of ours) {
      expect(hook).toMatchObject({
        trustStatus: 'untrusted',
        source: 'project',
        currentHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });
    }
    expect(ours.find((hook) => hook.eventName === 'preToolUse')?.timeoutSec).toBe(130);
    expect(ours.find((hook) => hook.eventName === 'sessionEnd')?.timeoutSec).toBe(3);
    expect(s.initOutput).toContain('/hooks');
  });

  it('skips untrusted hooks without a word: a turn before the trust sent no event', () => {
    expect(s.untrustedRun.events).toBe(0);
    expect(s.untrustedRun.stderr).not.toMatch(/hook/i);
  });

  it('gives every event session_id, transcript_path (the rollout), cwd and hook_event_name, one session id throughout', async () => {
    const events = await s.rawEvents();
    expect(events.length).toBeGreaterThan(20);
    for (const event of events) {
      expect(event).toMatchObject({ session_id: sessionId, cwd: s.workspace, hook_event_name: expect.any(String) });
      expect(event.transcript_path).toMatch(new RegExp(`^${s.codexHome}/sessions/.*/rollout-.*\\.jsonl$`));
    }
  });

  it('reports shell tools as Bash and edits as apply_patch with the patch in tool_input.command, linked by tool_use_id', async () => {
    const events = await s.rawEvents();
    const pre = events.filter((event) => event.hook_event_name === 'PreToolUse');
    // write_stdin (polling a running command) sends none.
    expect(new Set(pre.map((event) => event.tool_name))).toEqual(
      new Set(['apply_patch', 'Bash', 'mcp__files__write', 'spawn_agent', 'multi_agent_v1wait_agent']),
    );
    expect(s.api.requests.some((call) => call.matched === 'Turn 2:' && call.step === 9)).toBe(true);
    for (const event of pre.filter((e) => e.tool_name === 'apply_patch'))
      expect(event.tool_input.command).toMatch(/^\*\*\* Begin Patch\n/);
    for (const event of pre.filter((e) => e.tool_name === 'Bash'))
      expect(typeof event.tool_input.command).toBe('string');
    const post = events.filter((event) => event.hook_event_name === 'PostToolUse');
    const unanswered = pre.filter((event) => !post.some((p) => p.tool_use_id === event.tool_use_id));
    // Only the patch that did not apply: a tool that fails to run gets no PostToolUse.
    expect(unanswered.map((event) => event.tool_input.command)).toEqual([
      expect.stringContaining('*** Update File: missing.txt'),
    ]);
  });

  it("sends a sub-agent's events with its agent_id, its prompt as a UserPromptSubmit", async () => {
    const events = await s.rawEvents();
    const sub = events.filter((event) => event.agent_id !== undefined);
    expect(sub.map((event) => [event.hook_event_name, event.tool_name ?? null])).toEqual([
      ['SubagentStart', null],
      ['UserPromptSubmit', null],
      ['PreToolUse', 'apply_patch'],
      ['PostToolUse', 'apply_patch'],
      ['PreToolUse', 'Bash'],
      ['PostToolUse', 'Bash'],
      ['SubagentStop', null],
    ]);
  });

  it('ends a turn with Stop (with last_assistant_message) then SessionEnd, a refused one with SessionEnd alone', async () => {
    const events = (await s.rawEvents()).filter((event) => event.agent_id === undefined);
    const ends = events
      .filter((event) => ['UserPromptSubmit', 'Stop', 'StopFailure', 'SessionEnd'].includes(event.hook_event_name))
      .map((event) => event.hook_event_name);
    expect(ends).toEqual([
      'UserPromptSubmit',
      'Stop',
      'SessionEnd',
      'UserPromptSubmit',
      'Stop',
      'SessionEnd',
      'UserPromptSubmit',
      'Stop',
      'SessionEnd',
      'UserPromptSubmit',
      'SessionEnd',
    ]);
    for (const stop of events.filter((event) => event.hook_event_name === 'Stop')) {
      expect(stop).toMatchObject({ stop_hook_active: false, last_assistant_message: expect.any(String) });
    }
  });

  it('calls POST /v1/responses of the configured provider, offering exec_command and apply_patch', () => {
    const calls = s.api.requests;
    expect(new Set(calls.map((call) => call.path))).toEqual(new Set(['/v1/responses']));
    expect(calls[0].tools).toEqual(expect.arrayContaining(['exec_command', 'apply_patch', 'tool_search']));
  });
});
