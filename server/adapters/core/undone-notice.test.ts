// The paragraph a session's next prompt carries after the person took back some of its work:
// said once, bounded, paths only, still there after a restart, and not at all when turned off.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { claudeCodeHost } from '../claude-code/host.js';
import * as p from '../claude-code/test/payloads.js';
import { readAgentNoticeSettings, tellsAgentsOf, updateAgentNoticeSettings } from './agent-notices.js';
import { HostReceiver, type ReceiveResult } from './receiver.js';
import { NOTICE_PATH_LIMIT } from './undone-notice.js';

let root: string;
let workspace: string;
let engine: Engine;
let receiver: HostReceiver;
let tells = true;
const c = () => ({ cwd: workspace });

const open = async () => {
  engine = await openEngine({ workspace, dataDir: join(root, 'data'), scopes: ['claude-code:*'] });
  receiver = new HostReceiver(claudeCodeHost, { transcripts: { home: root, env: {} }, tellsAgents: () => tells });
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-undone-'));
  workspace = join(root, 'workspace');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
  tells = true;
  await open();
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

const receive = async (event: unknown): Promise<ReceiveResult> => {
  const result = await receiver.receive(event, engine);
  expect(result.ok).toBe(true);
  return result;
};
const noticeOf = (result: ReceiveResult) => (result.ok && result.outcome === 'forwarded' ? result.agentNotice : 'x');

/** One turn of the agent: it writes each file (relative path → content) through the Write tool. */
async function turn(prompt: string, files: Record<string, string>): Promise<{ notice?: string; turnId: string }> {
  const begun = await receive(p.userPromptSubmit(c(), prompt));
  for (const [path, content] of Object.entries(files)) {
    await receive(p.write(c(), join(workspace, path), content));
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  await receive(p.stop(c()));
  const turnId = engine.listTurns(p.SESSION_ID).findLast((t) => t.kind === 'agent')!.turnId;
  return { notice: noticeOf(begun), turnId };
}

const prompt = async (text: string) => noticeOf(await receive(p.userPromptSubmit(c(), text)));

describe('telling the agent what the person undid', () => {
  it('the next prompt names the undo and the files, once, without their contents', async () => {
    const first = await turn('Bump the answer', { 'src/app.ts': 'export const answer = 42;\n', 'src/new.ts': 'NEW' });
    expect(first.notice).toBeUndefined();
    await engine.rollback(first.turnId);
    const notice = await prompt('Go on');
    expect(notice).toContain('Undo of #1');
    expect(notice).toContain('"src/app.ts" (as before turn #1)');
    expect(notice).toContain('"src/new.ts" (deleted)');
    expect(notice).toMatch(/Read them again before you edit them/);
    expect(notice).not.toMatch(/42|NEW/);
    await receive(p.stop(c()));
    expect(await prompt('And again')).toBeUndefined();
  });

  it('names at most 20 paths, then counts the rest', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.ts`, `${i}`]),
    );
    const { turnId } = await turn('Many files', files);
    await engine.rollback(turnId);
    const notice = (await prompt('Next'))!;
    expect(notice.match(/\(deleted\)/g)).toHaveLength(NOTICE_PATH_LIMIT);
    expect(notice).toContain(', and 5 more.');
  });

  it('a step undone, and a single file restored, each say what the file is back to', async () => {
    const { turnId } = await turn('Two files', { 'src/app.ts': 'export const answer = 42;\n', 'src/b.ts': 'B' });
    await engine.rollback(turnId, { uris: ['workspace:/src/b.ts'] });
    expect(await prompt('Next')).toMatch(/"src\/b\.ts" \(deleted\)\.|"src\/b\.ts" \(deleted\),? /);
    await receive(p.stop(c()));
    const steps = engine.steps(turnId);
    await engine.rollback(turnId, { steps: [steps.find((s) => s.paths.includes('workspace:/src/app.ts'))!.index] });
    const notice = (await prompt('Next again'))!;
    expect(notice).toContain('"src/app.ts" (as before step 1 of turn #1)');
    expect(notice).not.toContain('src/b.ts');
  });

  it('an undo redone before the next prompt leaves nothing to say', async () => {
    const { turnId } = await turn('Bump', { 'src/app.ts': 'export const answer = 42;\n' });
    const undo = await engine.rollback(turnId);
    await engine.rollback(undo.rollbackTurnId!);
    expect(await prompt('Next')).toBeUndefined();
  });

  it('a rewind to a pin set before the turn is said too, with the pin it went back to', async () => {
    const pin = await engine.pin({ name: 'before the bump' });
    await turn('Bump', { 'src/app.ts': 'export const answer = 42;\n' });
    await engine.rewind(pin.sessionId, { toTurnId: pin.turnId });
    const notice = (await prompt('Next'))!;
    expect(notice).toContain('(Rewind to pin "before the bump")');
    expect(notice).toContain('"src/app.ts" (as at the pin "before the bump")');
  });

  it('a rewind of the session to a turn says what each file is back to', async () => {
    await turn('First', { 'src/a.ts': 'A' });
    const second = await turn('Second', { 'src/app.ts': 'export const answer = 42;\n' });
    await engine.rewind(p.SESSION_ID, { toTurnId: second.turnId });
    expect(await prompt('Next')).toContain('"src/app.ts" (as before turn #2)');
  });

  it('is still said after the service restarts', async () => {
    const { turnId } = await turn('Bump', { 'src/app.ts': 'export const answer = 42;\n' });
    await engine.rollback(turnId);
    await engine.close();
    await open();
    expect(await prompt('Next')).toContain('"src/app.ts" (as before turn #1)');
  });

  it('is not said when turned off', async () => {
    const { turnId } = await turn('Bump', { 'src/app.ts': 'export const answer = 42;\n' });
    await engine.rollback(turnId);
    tells = false;
    expect(await prompt('Next')).toBeUndefined();
  });
});

describe('agent-notices.json', () => {
  it('is on by default; the console turns it off for all, init --quiet-agent for one host', async () => {
    const env = { XDG_STATE_HOME: join(root, 'state') };
    expect(readAgentNoticeSettings(env)).toEqual({ tellAgents: true, quietHosts: [] });
    updateAgentNoticeSettings({ host: { name: 'codex', quiet: true } }, env);
    expect([tellsAgentsOf('codex', env), tellsAgentsOf('claude-code', env)]).toEqual([false, true]);
    updateAgentNoticeSettings({ tellAgents: false }, env);
    expect(tellsAgentsOf('claude-code', env)).toBe(false);
    updateAgentNoticeSettings({ tellAgents: true, host: { name: 'codex', quiet: false } }, env);
    expect(readAgentNoticeSettings(env)).toEqual({ tellAgents: true, quietHosts: [] });
  });
});
