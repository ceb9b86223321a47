// The end of a shell command whose start never reached turnback, through Codex's and Gemini's
// own payloads (Claude Code's: claude-code/receive/lost-start.test.ts): the same receiver asks
// the engine to record what changed since the turn's start scan as a `gap` of the turn, and the
// person is told; the turn's undo gives back what the command deleted.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { fsTreeWatcher, openEngine } from '../../engine/index.js';
import { codexHost } from '../codex/host.js';
import { geminiHost } from '../gemini/host.js';
import type { HostAdapter } from './host.js';
import { HostReceiver } from './receiver.js';

const RM = 'rm precious.txt';

let root: string;
let workspace: string;
let engine: Engine;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-lost-start-'));
  workspace = join(root, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'precious.txt'), 'keep me\n');
  engine = await openEngine({
    workspace,
    dataDir: join(root, 'data'),
    scopes: ['codex:*', 'gemini:*'],
    watcher: fsTreeWatcher,
  });
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

/** One host's payloads for: a prompt, the end of a shell command running `RM`, the turn's end. */
interface Payloads {
  host: HostAdapter;
  prompt: object;
  shellEnd: object;
  stop: object;
}

const codex = (): Payloads => {
  const base = { session_id: '01a23442-d390-7ca0-88fd-553c369df0cc', turn_id: 't1', cwd: workspace, model: 'gpt-5.5' };
  return {
    host: codexHost,
    prompt: { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'tidy up' },
    shellEnd: {
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: RM },
      tool_response: '',
      tool_use_id: 'call_1',
    },
    stop: { ...base, hook_event_name: 'Stop', last_assistant_message: 'done' },
  };
};

const gemini = (): Payloads => {
  const base = {
    session_id: 'e189f568-79e1-4931-9493-89298fa2ff21',
    cwd: workspace,
    timestamp: '2026-12-02T01:04:29.426Z',
  };
  return {
    host: geminiHost,
    prompt: { ...base, hook_event_name: 'BeforeAgent', prompt: 'tidy up' },
    shellEnd: { ...base, hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: RM } },
    stop: { ...base, hook_event_name: 'AfterAgent', prompt_response: 'done' },
  };
};

describe.each([
  ['Codex', codex],
  ['Gemini', gemini],
] as const)('a shell command’s end without its start (%s)', (_name, payloadsOf) => {
  it('records the turn’s first command’s change as a gap, tells the person, and the undo gives it back', async () => {
    const p = payloadsOf();
    const receiver = new HostReceiver(p.host, { transcripts: { home: join(root, 'home'), env: {} } });
    await receiver.receive(p.prompt, engine);
    await engine.settled();
    await rm(join(workspace, 'precious.txt'));
    const answer = await receiver.receive(p.shellEnd, engine);
    expect(answer).toMatchObject({ ok: true, outcome: 'forwarded', tell: expect.stringContaining(RM) });
    await receiver.receive(p.stop, engine);
    const [session] = engine.listSessions();
    const [turn] = engine.listTurns(session.sessionId);
    expect(turn.execCommands.map((c) => [c.tool, c.changed])).toEqual([['gap', ['workspace:/precious.txt']]]);
    expect((await engine.rollback(turn.turnId)).ok).toBe(true);
    expect(await readFile(join(workspace, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });
});

describe('a shell command’s end without its start, in a workspace the session’s turn had not reached (Codex)', () => {
  it('records nothing there and tells the person so, once', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, 'precious.txt'), 'keep me too\n');
    const otherEngine = await openEngine({ workspace: other, dataDir: join(root, 'other-data'), scopes: ['codex:*'] });
    try {
      const p = codex();
      const receiver = new HostReceiver(p.host, { transcripts: { home: join(root, 'home'), env: {} } });
      await receiver.receive(p.prompt, engine);
      await rm(join(other, 'precious.txt'));
      const there = { ...p.shellEnd, cwd: other };
      expect(await receiver.receive(there, otherEngine)).toMatchObject({
        outcome: 'forwarded',
        tell: expect.stringContaining(`in ${other}, which this session's turn had not reached`),
      });
      expect(await receiver.receive({ ...there, tool_use_id: 'call_2' }, otherEngine)).toEqual({
        ok: true,
        outcome: 'forwarded',
        calls: 1,
      });
    } finally {
      await otherEngine.close();
    }
  });
});
