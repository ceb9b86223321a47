// Copilot CLI writes a turn's last lines to its session log after its agentStop hook has started,
// and on a loaded machine after the turn's end has stopped waiting for them: the chat they hold
// still reaches the turn, later, and the turn's end is not held up for it.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { HostReceiver } from '../core/receiver.js';
import { copilotHost } from './host.js';
import { agentStop, postToolUse, preToolUse, userPromptSubmitted } from './test/payloads.js';

let root: string;
let home: string;
let workspace: string;
let engine: Engine;
let receiver: HostReceiver;

const line = (type: string, data: object) =>
  JSON.stringify({ type, data, id: 'x', timestamp: '', parentId: null }) + '\n';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-copilot-late-'));
  home = join(root, 'home');
  workspace = join(root, 'ws');
  await mkdir(workspace);
  engine = await openEngine({ workspace, dataDir: join(root, 'data'), scopes: ['copilot:*'] });
  receiver = new HostReceiver(copilotHost, { transcripts: { home, env: {} }, tellsAgents: () => false });
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

describe('a Copilot turn whose session log is written after its end', () => {
  it('ends the turn at once and takes in the chat the log holds once it is written', async () => {
    const c = { cwd: workspace, home };
    const stop = agentStop(c);
    const log = stop.transcriptPath;
    await mkdir(dirname(log), { recursive: true });
    const prompt = 'Turn 1: add a file';
    const args = { path: join(workspace, 'a.txt'), file_text: 'a\n' };
    await writeFile(log, line('user.message', { content: prompt }));
    expect((await receiver.receive(userPromptSubmitted(c, prompt), engine)).ok).toBe(true);
    await receiver.receive(preToolUse(c, 'create', args), engine);
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    await receiver.receive(postToolUse(c, 'create', args), engine);
    // The log holds nothing of the reply when the turn ends, nor for well over the end's own wait.
    const ended = receiver.receive(stop, engine);
    expect((await ended).ok).toBe(true);
    const [session] = engine.listSessions();
    const [turn] = engine.listTurns(session.sessionId);
    expect(turn).toMatchObject({ status: 'committed', fileCount: 1 });
    const chat = () => engine.messages(session.sessionId, { turnId: turn.turnId }).map((m) => [m.role, m.content]);
    expect(chat()).toEqual([['user', prompt]]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await appendFile(
      log,
      line('assistant.message', {
        messageId: 'm1',
        content: 'Adding it.',
        toolRequests: [{ toolCallId: 'c1', name: 'create', arguments: args }],
      }) +
        line('assistant.message', { messageId: 'm2', content: 'Done.', toolRequests: [] }) +
        line('hook.start', { hookType: 'agentStop', input: {} }),
    );
    await expect.poll(chat, { timeout: 20_000 }).toEqual([
      ['user', prompt],
      ['assistant', 'Adding it.'],
      ['tool', 'create(a.txt)'],
      ['assistant', 'Done.'],
    ]);
  });

  it("takes in the chat of a new session's first turn, whose log is only written after its end", async () => {
    const c = { cwd: workspace, home };
    const stop = agentStop(c);
    const log = stop.transcriptPath;
    const prompt = 'Turn 1: add a file';
    const args = { path: join(workspace, 'a.txt'), file_text: 'a\n' };
    await receiver.receive(userPromptSubmitted(c, prompt), engine);
    await receiver.receive(preToolUse(c, 'create', args), engine);
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    await receiver.receive(postToolUse(c, 'create', args), engine);
    expect((await receiver.receive(stop, engine)).ok).toBe(true);
    const [session] = engine.listSessions();
    const [turn] = engine.listTurns(session.sessionId);
    expect(turn).toMatchObject({ status: 'committed', fileCount: 1 });
    const chat = () => engine.messages(session.sessionId, { turnId: turn.turnId }).map((m) => [m.role, m.content]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await mkdir(dirname(log), { recursive: true });
    await writeFile(
      log,
      line('user.message', { content: prompt }) +
        line('assistant.message', {
          messageId: 'm1',
          content: 'Adding it.',
          toolRequests: [{ toolCallId: 'c1', name: 'create', arguments: args }],
        }) +
        line('hook.start', { hookType: 'agentStop', input: {} }),
    );
    await expect.poll(chat, { timeout: 20_000 }).toEqual([
      ['user', prompt],
      ['assistant', 'Adding it.'],
      ['tool', 'create(a.txt)'],
    ]);
  });

  it("adds a late message only to a turn of the message's own session", async () => {
    const { turnId } = await engine.input({ sessionId: 'one', platform: 'copilot', sessionType: 'cli', content: 'p' });
    await engine.turnEnd({ sessionId: 'one' });
    await engine.input({ sessionId: 'two', platform: 'copilot', sessionType: 'cli', content: 'q' });
    await expect(
      engine.message({ sessionId: 'two', role: 'assistant', content: 'x', turnId: turnId! }),
    ).rejects.toMatchObject({ code: 'TURN_NOT_FOUND' });
    await engine.message({ sessionId: 'one', role: 'assistant', content: 'late', turnId: turnId! });
    expect(engine.messages('one', { turnId: turnId! }).map((m) => m.content)).toEqual(['p', 'late']);
  });
});
