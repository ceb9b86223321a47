// A burst of cold hooks (issue 37 G4): 30 sessions' prompts at once through the installed sh hook,
// no service running. One hook starts the service, the others wait on that start; a prompt not
// delivered in time waits in the spool, taken in by the service. Every prompt is recorded, by one
// service, and no hook told the person anything. Temp HOME and state dir, port 0.
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import * as p from '../adapters/claude-code/test/payloads.js';
import { installShHook, runShHook } from '../adapters/claude-code/test/sh-hook.js';
import type { Session, Turn } from '../protocol.js';

const HOOKS = 30;

let root: string;
let env: NodeJS.ProcessEnv;
const state = () => path.join(root, 'state', 'turnback');

async function api<T>(route: string): Promise<T> {
  const entry = JSON.parse(await readFile(path.join(state(), 'service.json'), 'utf8')) as { port: number };
  const token = (await readFile(path.join(state(), 'console-token'), 'utf8')).trim();
  const response = await fetch(`http://127.0.0.1:${entry.port}${route}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as T;
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-cold-burst-')));
  env = {
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: path.join(root, 'state'),
    TURNBACK_PORT: '0',
    TURNBACK_TOKEN: '',
    TURNBACK_AGENT_TOKEN: '',
  };
  await mkdir(path.join(root, 'home', 'project', '.git'), { recursive: true });
});

afterEach(async () => {
  try {
    const { pid } = JSON.parse(await readFile(path.join(state(), 'service.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 400; i++) {
      process.kill(pid, 0);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } catch {
    // not running, or gone
  }
  await rm(root, { recursive: true, force: true });
});

it(`${HOOKS} cold hooks at once: one service starts, and every prompt is recorded`, async () => {
  const repo = path.join(root, 'home', 'project');
  const hook = await installShHook(path.join(root, 'install', 'bin'));
  const sessionIds = Array.from({ length: HOOKS }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  const results = await Promise.all(
    sessionIds.map((sessionId, i) => runShHook(hook, p.userPromptSubmit({ cwd: repo, sessionId }, `prompt ${i}`), env)),
  );
  for (const result of results) expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });

  // Spooled prompts are taken in once the service is up: wait for them (generously), then count.
  let sessions: Session[] = [];
  for (let i = 0; i < 600 && sessions.length < HOOKS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    sessions = (await api<{ sessions: Session[] }>('/api/sessions')).sessions;
  }
  const titles: string[] = [];
  for (const sessionId of sessionIds) {
    const { turns } = await api<{ turns: Turn[] }>(`/api/sessions/${sessionId}/turns`);
    titles.push(...(turns ?? []).map((turn) => turn.title));
  }
  expect(titles.sort()).toEqual(sessionIds.map((_, i) => `prompt ${i}`).sort());
  const log = await readFile(path.join(state(), 'service.log'), 'utf8');
  expect(log.match(/^turnback listening on /gm)).toHaveLength(1);
}, 600_000);
