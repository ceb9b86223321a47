import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findServerFor, readLiveServers, type ServerEntry } from './registry.js';

let state: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'turnback-registry-'));
  env = { XDG_STATE_HOME: state };
  await mkdir(join(state, 'turnback', 'servers'), { recursive: true });
});
afterEach(async () => { await rm(state, { recursive: true, force: true }); });

const register = (entry: ServerEntry) =>
  writeFile(join(state, 'turnback', 'servers', `${entry.port}.json`), JSON.stringify(entry));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('server registry', () => {
  it('lists live servers and leaves out dead ones and broken files', async () => {
    await register({ workspace: '/w/live', port: 4001, agentToken: 'a', pid: process.pid });
    await register({ workspace: '/w/dead', port: 4002, agentToken: 'b', pid: deadPid() });
    await writeFile(join(state, 'turnback', 'servers', '4003.json'), '{not json');
    await writeFile(join(state, 'turnback', 'servers', '4004.json'), JSON.stringify({ workspace: '/w/x', port: '1' }));
    expect(readLiveServers(env).map((s) => s.port)).toEqual([4001]);
  });

  it('has no servers when the registry folder does not exist', () => {
    expect(readLiveServers({ XDG_STATE_HOME: join(state, 'nowhere') })).toEqual([]);
  });

  it('picks the deepest workspace that contains the cwd', () => {
    const servers = [
      { workspace: '/w/repo', port: 1, agentToken: '', pid: 1 },
      { workspace: '/w/repo/packages/app', port: 2, agentToken: '', pid: 1 },
      { workspace: '/w/repo-other', port: 3, agentToken: '', pid: 1 },
    ];
    expect(findServerFor('/w/repo/packages/app/src', servers)?.port).toBe(2);
    expect(findServerFor('/w/repo/packages/lib', servers)?.port).toBe(1);
    expect(findServerFor('/w/repo', servers)?.port).toBe(1);
    expect(findServerFor('/w/repo-other2', servers)).toBeNull();
    expect(findServerFor('/w', servers)).toBeNull();
  });

  it('matches a cwd reached through a symlink', async () => {
    const real = join(state, 'real');
    await mkdir(join(real, 'src'), { recursive: true });
    await symlink(real, join(state, 'link'));
    const servers = [{ workspace: real, port: 7, agentToken: '', pid: 1 }];
    expect(findServerFor(join(state, 'link', 'src'), servers)?.port).toBe(7);
  });
});
