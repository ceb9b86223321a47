// The real Claude Code CLI (a pinned version, installed by install.ts), driven by a scripted
// fake Messages API, with turnback's hooks installed by `turnback init` and a built
// `turnback serve` recording: five prompts in one session (`--continue`), checked through the
// HTTP API and on disk, then every turn rolled back, newest first, to the exact start tree.
// `npm run test:claude` runs it on each version (one *.claude-test.ts per version).
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recording, runPrompts, ws, type TreeText } from '../../../server/testkit/hosts/recording.js';
import { treeAsText } from '../../../server/testkit/tree.js';
import { ensureClaudeCode, type ClaudeCodeVersion } from './install.js';
import { NFD_NOTE } from '../../../server/testkit/hosts/scenario.js';
import { PROMPTS, SUBAGENT_REPORTED, script, setUpWorkspace } from './scenario.js';
import { openSandbox, type Sandbox } from './sandbox.js';

export function describeRealClaudeCode(version: ClaudeCodeVersion): void {
  /** From 2.1.328 a subagent runs in the background: its parent's Stop comes before its edits. */
  const background = version !== '2.1.197';
  /** Its chat: on 2.1.328, Claude Code's answer to its own task-notification prompt too. */
  const subagentChat = [
    ['user', PROMPTS.subagent],
    ['tool', 'Agent(fix the accents)'],
    ['assistant', 'Turn 3 done: the subagent fixed it.'],
    ...(background ? [['assistant', SUBAGENT_REPORTED]] : []),
  ];
  let s: Sandbox;
  let r: Recording;
  /** The tree before any turn, then after each of the five. */
  let trees: TreeText[] = [];
  let exits: (number | null)[] = [];

  beforeAll(async () => {
    const claudeBin = ensureClaudeCode(version);
    s = await openSandbox({ claudeBin, script, setup: setUpWorkspace });
    r = new Recording(s.console, s.workspace);
    const ran = await runPrompts(
      s.workspace,
      (
        [
          [PROMPTS.files, []],
          [PROMPTS.shell, []],
          [PROMPTS.subagent, []],
          [PROMPTS.failure, []],
          [PROMPTS.maxTurns, ['--max-turns', '2']],
        ] as const
      ).map(
        ([prompt, args]) =>
          () =>
            s.claude(prompt, [...args]),
      ),
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

  describe(`Claude Code ${version}, for real, with turnback recording`, () => {
    it('ran the five prompts in one session: four ended normally or by their error, one by --max-turns', async () => {
      expect(exits).toEqual([0, 0, 0, 1, 1]);
      sessionId = await r.expectOneSession('claude-code');
    });

    it('records one turn per prompt, titled by its first non-blank line, every one closed', async () => {
      expect((await agentTurns()).map((turn) => [turn.number, turn.title, turn.status])).toEqual([
        [1, 'Turn 1: add a helper and use it', 'committed'],
        [2, 'Turn 2: tidy up in the shell', 'committed'],
        [3, 'Turn 3: ask a subagent to fix the notes', 'committed'],
        [4, 'Turn 4: this one fails', 'committed'],
        [5, 'Turn 5: loop until stopped', 'committed'],
      ]);
    });

    it('records the files of Write, Edit and NotebookEdit', async () => {
      const [turn] = await agentTurns();
      expect(turn.execUsed).toBe(false);
      expect(await changed(turn.turnId)).toEqual(
        [
          ['created', ws('src/helper.ts')],
          ['modified', ws('notes/analysis.ipynb')],
          ['modified', ws('src/app.ts')],
        ].sort(),
      );
    });

    it('keeps the chat the person saw: the prompt, every text block, a line per tool call', async () => {
      const [turn] = await agentTurns();
      expect(await chatOf(turn.turnId)).toEqual([
        ['user', PROMPTS.files],
        // Refused by Claude Code (the file was not read), but shown to the person all the same.
        ['tool', 'Edit(src/util.ts)'],
        ['assistant', "I'll add a helper first."],
        ['tool', 'Write(src/helper.ts)'],
        ['tool', 'Read(src/app.ts)'],
        ['tool', 'Edit(src/app.ts)'],
        ['tool', 'Read(notes/analysis.ipynb)'],
        ['tool', 'NotebookEdit(notes/analysis.ipynb)'],
        ['assistant', 'Turn 1 done: helper added.'],
      ]);
    });

    it('records what the Bash calls (sed -i, rm, mv, a heredoc) and an MCP tool changed, each command with its files', async () => {
      const turn = (await agentTurns())[1];
      expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
      expect(turn.execCommands.map((c) => [c.tool, c.command.split(' ')[0], c.endedAt !== null])).toEqual([
        ['Bash', 'sed', true],
        ['Bash', 'rm', true],
        ['Bash', 'mkdir', true],
        ['mcp__files__write', '{"path":"mcp/out.txt","text":"written', true],
      ]);
      expect(turn.execCommands[3].changed).toEqual([ws('mcp'), ws('mcp/out.txt')]);
      expect(turn.execCommands[0].changed).toEqual([ws('src/util.ts')]);
      const files = await changed(turn.turnId);
      for (const file of [
        ['modified', ws('src/util.ts')],
        ['deleted', ws('scratch.txt')],
        ['created', ws('gen/config.json')],
      ]) {
        expect(files).toContainEqual(file);
      }
      expect(files.map(([, uri]) => uri)).toEqual(expect.arrayContaining([ws('docs/old.md'), ws('docs/renamed.md')]));
      expect(await chatOf(turn.turnId)).toContainEqual([
        'tool',
        "Bash(mkdir -p gen && cat > gen/config.json <<'EOF' …)",
      ]);
    });

    // On 2.1.328 the subagent edits after its parent's Stop: the turn holds those edits all the same.
    it("records a subagent's edits, an NFD file name as it is on disk", async () => {
      const turn = (await agentTurns())[2];
      expect(await changed(turn.turnId)).toEqual([
        ['created', ws('src/sub.ts')],
        ['modified', ws(NFD_NOTE)],
      ]);
      expect(await chatOf(turn.turnId)).toEqual(subagentChat);
    });

    it('closes the StopFailure turn with the error in its chat, and the --max-turns one with SessionEnd', async () => {
      const [, , , failed, stopped] = await agentTurns();
      expect(failed.fileCount).toBe(0);
      expect(await chatOf(failed.turnId)).toEqual([
        ['user', PROMPTS.failure],
        ['assistant', expect.stringMatching(/^API Error: 400/)],
      ]);
      expect(stopped).toMatchObject({ execUsed: true, fileCount: 1 });
      expect(await readFile(join(s.workspace, 'loop.txt'), 'utf8')).toBe('1\n2\n');
      // Closed, so a person's edit now is drift, never the turn's end state.
      await appendFile(join(s.workspace, 'loop.txt'), 'mine\n');
      expect((await s.console('POST', `/api/turns/${stopped.turnId}/rollback`, {})).json.error.code).toBe('CONFLICT');
      await writeFile(join(s.workspace, 'loop.txt'), '1\n2\n');
    });

    it('restores chosen files only, and undoes that', async () => {
      const shell = (await agentTurns())[1];
      await r.expectChosenFileRestoredAndUndone(shell.turnId, trees[5], async () => {
        expect(await treeAsText(s.workspace)).not.toHaveProperty('scratch.txt');
      });
    });

    it('rolls back with chat, deleting what the person saw, and undoes that', async () => {
      const subagent = (await agentTurns())[2];
      expect(await chatOf(subagent.turnId)).toEqual(subagentChat);
      await r.expectRolledBackWithChatAndUndone(subagent.turnId, trees[5], async () => {
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

  describe(`what Claude Code ${version} sends (the facts the adapter relies on)`, () => {
    it('gives every event session_id, transcript_path, cwd and hook_event_name, one session id throughout', async () => {
      const events = await s.rawEvents();
      expect(events.length).toBeGreaterThan(20);
      for (const event of events) {
        expect(Object.keys(event)).toEqual(
          expect.arrayContaining(['session_id', 'transcript_path', 'cwd', 'hook_event_name']),
        );
      }
      expect(new Set(events.map((event) => event.session_id))).toEqual(new Set([sessionId]));
    });

    it("links PreToolUse to PostToolUse (or PostToolUseFailure) by tool_use_id; a subagent's carry agent_id", async () => {
      const events = await s.rawEvents();
      const pre = events.filter((event) => event.hook_event_name === 'PreToolUse');
      for (const event of pre)
        expect(Object.keys(event)).toEqual(
          expect.arrayContaining(['tool_name', 'tool_input', 'tool_use_id', 'permission_mode']),
        );
      const post = events.filter((event) => /^PostToolUse/.test(event.hook_event_name));
      expect(post.map((event) => event.tool_use_id).sort()).toEqual(pre.map((event) => event.tool_use_id).sort());
      const sub = pre.filter((event) => event.agent_id !== undefined);
      expect(sub.map((event) => [event.tool_name, event.agent_type])).toEqual([
        ['Read', 'general-purpose'],
        ['Edit', 'general-purpose'],
        ['Write', 'general-purpose'],
      ]);
      // A failing Edit (a file not read first, a string not in it) is refused before any hook runs.
      expect(pre.filter((event) => event.tool_input.file_path?.endsWith('src/util.ts'))).toEqual([]);
    });

    it('ends a turn with Stop (with last_assistant_message), StopFailure on an API error, SessionEnd alone on --max-turns', async () => {
      const events = await s.rawEvents();
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
        // 2.1.328: the subagent's end prompts Claude Code itself (a <task-notification>), which answers.
        ...(background
          ? ['UserPromptSubmit', 'Stop', 'UserPromptSubmit', 'Stop', 'SessionEnd']
          : ['UserPromptSubmit', 'Stop', 'SessionEnd']),
        'UserPromptSubmit',
        'StopFailure',
        'SessionEnd',
        'UserPromptSubmit',
        'SessionEnd',
      ]);
      for (const stop of events.filter((event) => event.hook_event_name === 'Stop')) {
        expect(stop).toMatchObject({ stop_hook_active: false, last_assistant_message: expect.any(String) });
      }
    });

    it.runIf(background)(
      'runs a subagent in the background: Stop names it running, then comes its SubagentStop and its task-notification',
      async () => {
        const events = await s.rawEvents();
        const third = events.slice(events.findIndex((event) => event.prompt === PROMPTS.subagent));
        const upTo = third.slice(0, third.findIndex((event) => event.hook_event_name === 'SessionEnd') + 1);
        const name = (event: (typeof events)[number]) =>
          `${event.hook_event_name}${event.tool_name ? ` ${event.tool_name}` : ''}${event.agent_id ? ' (sub)' : ''}`;
        const main = upTo.filter((event) => !event.agent_id).map(name);
        // The parent's Stop comes while the subagent still works (its calls interleave from there on).
        expect(main).toEqual([
          'UserPromptSubmit',
          'PreToolUse Agent',
          'PostToolUse Agent',
          'Stop',
          'UserPromptSubmit',
          'Stop',
          'SessionEnd',
        ]);
        const agentId = upTo.find((event) => event.hook_event_name === 'SubagentStart')?.agent_id;
        expect(typeof agentId).toBe('string');
        const stopAt = upTo.findIndex((event) => event.hook_event_name === 'Stop');
        const subagentStopAt = upTo.findIndex((event) => event.hook_event_name === 'SubagentStop');
        expect(upTo[stopAt].background_tasks).toEqual([
          expect.objectContaining({ id: agentId, type: 'subagent', status: 'running' }),
        ]);
        expect(subagentStopAt).toBeGreaterThan(stopAt);
        expect(upTo.filter((event) => event.agent_id).every((event) => event.agent_id === agentId)).toBe(true);
        // Then Claude Code prompts itself about the subagent, and answers.
        expect(upTo.slice(subagentStopAt + 1).map(name)).toEqual(['UserPromptSubmit', 'Stop', 'SessionEnd']);
        expect(upTo[subagentStopAt + 1].prompt.startsWith('<task-notification>')).toBe(true);
      },
    );

    it('offers no MultiEdit tool, and calls POST /v1/messages?beta=true', () => {
      const calls = s.api.requests;
      expect(calls.length).toBeGreaterThan(0);
      expect(new Set(calls.map((call) => call.path))).toEqual(new Set(['/v1/messages?beta=true']));
      expect(calls.flatMap((call) => call.tools)).not.toContain('MultiEdit');
      // 2.1.328 defers some tools (ToolSearch) and offers them in later calls.
      expect([...new Set(calls.flatMap((call) => call.tools))]).toEqual(
        expect.arrayContaining(['Bash', 'Write', 'Edit', 'NotebookEdit', 'Agent']),
      );
    });
  });
}
