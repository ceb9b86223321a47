// A command whose end never comes (or comes with another call id) is ended before the session's
// next event records anything: a file tool's edit of the file the command changed then finds
// the command's change already the turn's, and the undo brings back what was there before the
// command. Through each host's own payloads: Claude Code, Codex and Gemini.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { claudeCodeHost } from '../claude-code/host.js';
import * as claude from '../claude-code/test/payloads.js';
import { codexHost } from '../codex/host.js';
import { geminiHost } from '../gemini/host.js';
import type { HostAdapter } from './host.js';
import { HostReceiver } from './receiver.js';

const ORIGINAL = 'const greeting = "hello";\n';
const SED = 'sed -i s/hello/goodbye/ src/app.js';

let root: string;
let workspace: string;
let engine: Engine;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-open-commands-'));
  workspace = join(root, 'ws');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'src', 'app.js'), ORIGINAL);
  engine = await openEngine({
    workspace,
    dataDir: join(root, 'data'),
    scopes: ['claude-code:*', 'codex:*', 'gemini:*'],
  });
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

/** One host's payloads for: a prompt, a shell command, its end (`callId` as given), a file tool's edit of src/app.js, the turn's end. */
interface Payloads {
  host: HostAdapter;
  prompt(): object;
  shell(): object;
  shellEnd(shell: object, mismatched: true): object;
  edit(): object;
  stop(): object;
}

const claudePayloads = (): Payloads => {
  const c = { cwd: workspace, transcriptPath: join(root, 'none.jsonl') };
  return {
    host: claudeCodeHost,
    prompt: () => claude.userPromptSubmit(c, 'change the greeting'),
    shell: () => claude.bash(c, SED),
    shellEnd: (shell) => ({
      ...claude.postToolUse(shell as ReturnType<typeof claude.bash>),
      tool_use_id: 'toolu_other',
    }),
    edit: () => claude.edit(c, join(workspace, 'src', 'app.js'), 'goodbye', 'farewell'),
    stop: () => claude.stop(c),
  };
};

const CODEX_SESSION = '01a23442-d390-7ca0-88fd-553c369df0cc';
const codexPayloads = (): Payloads => {
  const base = { session_id: CODEX_SESSION, turn_id: 't1', cwd: workspace, model: 'gpt-5.5' };
  const shell = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: SED } };
  return {
    host: codexHost,
    prompt: () => ({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'change the greeting' }),
    shell: () => ({ ...shell, tool_use_id: 'call_1' }),
    shellEnd: () => ({ ...shell, hook_event_name: 'PostToolUse', tool_response: '', tool_use_id: 'call_other' }),
    edit: () => ({
      ...base,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Update File: src/app.js\n@@\n-goodbye\n+farewell\n*** End Patch\n' },
      tool_use_id: 'call_2',
    }),
    stop: () => ({ ...base, hook_event_name: 'Stop', last_assistant_message: 'done' }),
  };
};

const GEMINI_SESSION = 'e189f568-79e1-4931-9493-89298fa2ff21';
const geminiPayloads = (): Payloads => {
  const base = { session_id: GEMINI_SESSION, cwd: workspace, timestamp: '2026-12-02T01:04:29.426Z' };
  const tool = (name: string, input: object) => ({
    ...base,
    hook_event_name: 'BeforeTool',
    tool_name: name,
    tool_input: input,
  });
  return {
    host: geminiHost,
    prompt: () => ({ ...base, hook_event_name: 'BeforeAgent', prompt: 'change the greeting' }),
    shell: () => tool('run_shell_command', { command: SED }),
    // Gemini's call id is the tool's input: an AfterTool whose input differs is another call's.
    shellEnd: () => ({ ...tool('run_shell_command', { command: `${SED} ` }), hook_event_name: 'AfterTool' }),
    edit: () =>
      tool('replace', { file_path: join(workspace, 'src', 'app.js'), old_string: 'goodbye', new_string: 'farewell' }),
    stop: () => ({ ...base, hook_event_name: 'AfterAgent', prompt_response: 'done' }),
  };
};

const HOSTS: [string, () => Payloads][] = [
  ['Claude Code', claudePayloads],
  ['Codex', codexPayloads],
  ['Gemini', geminiPayloads],
];

describe.each(HOSTS)('an open command before a file tool (%s)', (_name, payloadsOf) => {
  for (const end of ['never comes', 'comes with another call id'] as const) {
    it(`is ended first when its end ${end}: the undo restores the file as it was before the command`, async () => {
      const p = payloadsOf();
      const receiver = new HostReceiver(p.host, { transcripts: { home: join(root, 'home'), env: {} } });
      const send = async (payload: object) => {
        const result = await receiver.receive(payload, engine);
        expect(result.ok).toBe(true);
        return result;
      };
      await send(p.prompt());
      const shell = p.shell();
      await send(shell);
      execFileSync('/bin/sh', ['-c', SED], { cwd: workspace });
      if (end === 'comes with another call id') await send(p.shellEnd(shell, true));
      await send(p.edit());
      await writeFile(join(workspace, 'src', 'app.js'), 'const greeting = "farewell";\n');
      await send(p.stop());

      const [session] = engine.listSessions();
      const [turn] = engine.listTurns(session.sessionId);
      expect(turn.status).toBe('committed');
      // The command's after scan was done before the edit: the change is the command's.
      expect(turn.execCommands).toMatchObject([{ endedAt: expect.any(String), changed: ['workspace:/src/app.js'] }]);
      await engine.rollback(turn.turnId);
      expect(await readFile(join(workspace, 'src', 'app.js'), 'utf8')).toBe(ORIGINAL);
    });
  }
});
