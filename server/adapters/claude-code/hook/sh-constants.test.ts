// bin/turnback-hook repeats what the Node side defines (it cannot import it): the route, the
// size past which the Node hook slims an event, the default wait, the state dir rule, the
// files it reads and service.json's one-line shape. Checked here against the Node side.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceSocketPath, writeServiceEntry } from '../../../service/service-file.js';
import { STATE_FILES, statePath, turnbackStateDir } from '../../../state-dir.js';
import { CLAUDE_CODE_HOOK_PATH } from '../event.js';
import * as p from '../test/payloads.js';
import { listenOnServiceSocket } from '../test/service-entry.js';
import { installShHook, runShHook } from '../test/sh-hook.js';
import { HOOK_TIMEOUT_MS, SLIM_ABOVE_BYTES } from './run.js';

const script = fileURLToPath(new URL('../../../../bin/turnback-hook', import.meta.url));
let root: string;
let hookBin: string;
const stubs: Server[] = [];
const received: IncomingMessage[] = [];

/** A stand-in for the service on the socket of the state dir under `stateHome`. */
async function stubService(stateHome: string): Promise<void> {
  const stub = createServer((req, res) => {
    received.push(req);
    req.resume();
    res.end('{"ok":true,"outcome":"forwarded","calls":1}');
  });
  stubs.push(stub);
  await listenOnServiceSocket(stub, stateHome);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-sh-constants-'));
  hookBin = await installShHook(join(root, 'bin'));
});
afterAll(async () => {
  for (const stub of stubs) stub.close();
  await rm(root, { recursive: true, force: true });
});

describe('bin/turnback-hook and the Node side agree', () => {
  it('on the route, the slimming size, the default wait and the state files', async () => {
    const text = await readFile(script, 'utf8');
    expect(text).toContain('\nROUTE=/api/agent/hook/$host\n');
    expect(text).toContain('\nhost=claude-code\n');
    expect(CLAUDE_CODE_HOOK_PATH).toBe('/api/agent/hook/claude-code');
    expect(text).toContain(`[ "\${#input}" -gt ${SLIM_ABOVE_BYTES} ]`);
    expect(text).toContain(`\nmax_time=${HOOK_TIMEOUT_MS / 1000}\n`);
    for (const file of [STATE_FILES.service, STATE_FILES.agentToken, STATE_FILES.hookLog])
      expect(text).toContain(`$state/${file}`);
    expect(text).toContain(`socket=$state/${basename(serviceSocketPath({ XDG_STATE_HOME: '/s' }))}\n`);
    expect(text).toContain('state=$XDG_STATE_HOME/turnback');
    expect(text).toContain('state=$HOME/.local/state/turnback');
  });

  it.each([
    ['an absolute XDG_STATE_HOME', (home: string) => ({ HOME: home, XDG_STATE_HOME: join(home, 'xdg') })],
    ['a relative XDG_STATE_HOME (ignored)', (home: string) => ({ HOME: home, XDG_STATE_HOME: 'relative/state' })],
    ['no XDG_STATE_HOME', (home: string) => ({ HOME: home, XDG_STATE_HOME: '' })],
  ])('on the state dir with %s, and service.json as the service writes it', async (_label, makeEnv) => {
    const home = join(root, `home-${received.length}`);
    await mkdir(home, { recursive: true });
    const env = makeEnv(home);
    await stubService(dirname(turnbackStateDir(env)));
    const port = 1;
    writeServiceEntry(
      {
        pid: process.pid,
        port,
        version: '1.2.3',
        startedAt: new Date().toISOString(),
        url: `http://127.0.0.1:${port}/`,
      },
      env,
    );
    await writeFile(statePath('agentToken', env), 'agent-token-for-the-sh-constants\n');
    const seen = received.length;
    const result = await runShHook(hookBin, p.userPromptSubmit({ cwd: home }, 'x'), {
      ...env,
      TURNBACK_NODE: '/nonexistent/node',
    });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(received).toHaveLength(seen + 1);
    expect(received[seen].url).toBe(CLAUDE_CODE_HOOK_PATH);
    expect(received[seen].headers.authorization).toBe('Bearer agent-token-for-the-sh-constants');
    // Another host names its own route.
    const other = await runShHook(
      hookBin,
      p.userPromptSubmit({ cwd: home }, 'x'),
      { ...env, TURNBACK_NODE: '/nonexistent/node' },
      ['gemini', '--max-time', '5'],
    );
    expect(other.code).toBe(0);
    expect(received[seen + 1].url).toBe('/api/agent/hook/gemini');
    expect(turnbackStateDir(env)).toBe(
      env.XDG_STATE_HOME?.startsWith('/')
        ? join(env.XDG_STATE_HOME, 'turnback')
        : join(home, '.local', 'state', 'turnback'),
    );
  });
});
