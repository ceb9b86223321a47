// `turnback forget` as a process against a real service (temp HOME and state dir, port 0): by
// root or id, its store kept unless --delete-store, an unknown workspace told (exit 2); and
// `init --allow`, the person's yes to a dot-folder of HOME the service otherwise refuses.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './test/spawn-cli.js';

let root: string;
let env: NodeJS.ProcessEnv;

async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-forget-')));
  for (const name of ['alpha', 'beta']) await mkdir(path.join(root, 'home', name, '.git'), { recursive: true });
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state'), TURNBACK_PORT: '0' };
});
afterEach(async () => {
  await cli('stop');
  await rm(root, { recursive: true, force: true });
});

describe('turnback forget', { timeout: 120_000 }, () => {
  it('forgets a workspace by root or id, keeping its store unless --delete-store', async () => {
    expect((await cli('start')).code).toBe(0);
    const token = (await readFile(path.join(root, 'state', 'turnback', 'console-token'), 'utf8')).trim();
    const { port } = JSON.parse(await readFile(path.join(root, 'state', 'turnback', 'service.json'), 'utf8'));
    const register = async (dir: string) =>
      (
        await (
          await fetch(`http://127.0.0.1:${port}/api/workspaces`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ path: dir }),
          })
        ).json()
      ).workspace;
    const alpha = await register(path.join(root, 'home', 'alpha'));
    const beta = await register(path.join(root, 'home', 'beta'));
    const status = JSON.parse((await cli('status', '--json')).stdout);
    expect(status.workspaces.map((w: { id: string }) => w.id)).toEqual([alpha.id, beta.id]);

    const byRoot = await cli('forget', path.join(root, 'home', 'alpha'));
    expect(byRoot).toMatchObject({ code: 0, stderr: '' });
    expect(byRoot.stdout).toContain(`Forgot ${alpha.root} (${alpha.id})`);
    expect(byRoot.stdout).toContain('its store is kept');

    const byId = await cli('forget', beta.id, '--delete-store', '--json');
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.stdout)).toMatchObject({ ok: true, storeDeleted: true, workspace: { id: beta.id } });
    expect(existsSync(path.join(root, 'state', 'turnback', beta.id))).toBe(false);
    expect(JSON.parse((await cli('status', '--json')).stdout).workspaces).toEqual([]);

    expect(await cli('forget', 'nope-000000000000')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'turnback forget: no workspace nope-000000000000 is registered (turnback status lists them)\n',
    });
    expect((await cli('forget')).code).toBe(2);
  });

  it('registers a dot-folder of HOME only with init --allow', async () => {
    const settings = path.join(root, 'home', '.config', 'tool');
    await mkdir(settings, { recursive: true });
    const refused = await cli('init', 'claude-code', '--workspace', settings);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toMatch(
      /Not registered with the turnback service: .*settings folder of your home folder.*--allow/,
    );
    const allowed = await cli('init', 'claude-code', '--workspace', settings, '--allow');
    expect(allowed.stdout).toContain(`Registered ${settings} with your turnback service`);
    expect(JSON.parse((await cli('status', '--json')).stdout).workspaces.map((w: { root: string }) => w.root)).toEqual([
      settings,
    ]);
  });
});
