import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsFor } from './calls.js';
import type { HookEvent } from '../event.js';

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-calls-'));
  workspace = join(root, 'ws');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'src', 'a.ts'), 'a');
});
afterEach(async () => { await rm(root, { recursive: true, force: true }); });

const sessionId = 's-1';
const fileChange = (cwd: string, path: string): HookEvent => ({ kind: 'file-change', sessionId, cwd, tool: 'Edit', path });

describe('callsFor', () => {
  it('announces an absolute path as its workspace URI', () => {
    expect(callsFor(fileChange(workspace, join(workspace, 'src', 'a.ts')), workspace)).toEqual({
      calls: [{ path: '/api/agent/before-mutate', body: { sessionId, op: 'write', uri: 'workspace:/src/a.ts' } }],
    });
  });

  it('resolves a relative path against the cwd', () => {
    expect(callsFor(fileChange(join(workspace, 'src'), './a.ts'), workspace)).toMatchObject({
      calls: [{ body: { uri: 'workspace:/src/a.ts' } }],
    });
  });

  it('announces a file in a folder that does not exist yet', () => {
    expect(callsFor(fileChange(workspace, join(workspace, 'lib', 'util', 'x.ts')), workspace)).toEqual({
      calls: [{ path: '/api/agent/before-mutate', body: { sessionId, op: 'write', uri: 'workspace:/lib/util/x.ts' } }],
    });
  });

  it('skips paths outside the workspace, and the workspace itself', () => {
    expect(callsFor(fileChange(workspace, join(root, 'elsewhere.ts')), workspace)).toHaveProperty('skip');
    expect(callsFor(fileChange(workspace, '../ws2/a.ts'), workspace)).toHaveProperty('skip');
    expect(callsFor(fileChange(workspace, workspace), workspace)).toHaveProperty('skip');
  });

  it('maps a prompt to input and a shell command to exec', () => {
    expect(callsFor({ kind: 'prompt', sessionId, cwd: workspace, prompt: 'Fix it' }, workspace)).toEqual({
      calls: [{ path: '/api/agent/input', body: { sessionId, platform: 'claude-code', sessionType: 'cli', content: 'Fix it' } }],
    });
    expect(callsFor({ kind: 'shell', sessionId, cwd: workspace, command: 'rm -rf dist' }, workspace)).toEqual({
      calls: [{ path: '/api/agent/exec', body: { sessionId, tool: 'exec', command: 'rm -rf dist' } }],
    });
  });

  it('ends the turn on stop even without a transcript', () => {
    expect(callsFor({ kind: 'stop', sessionId, cwd: workspace, transcriptPath: null, lastAssistantMessage: null }, workspace)).toEqual({
      calls: [{ path: '/api/agent/turn-end', body: { sessionId } }],
    });
  });

  it('records the reply a stop carries before ending the turn', () => {
    const stop: HookEvent = { kind: 'stop', sessionId, cwd: workspace, transcriptPath: null, lastAssistantMessage: 'From the event' };
    expect(callsFor(stop, workspace)).toEqual({
      calls: [
        { path: '/api/agent/message', body: { sessionId, role: 'assistant', content: 'From the event' } },
        { path: '/api/agent/turn-end', body: { sessionId } },
      ],
    });
  });
});
