// The soak's world (soak.test.ts): a temp HOME with git repositories in it, the installed sh
// hook of the source tree, the person's service it starts, and the console API of that
// service. Nothing here is the person's: every path is under one temp folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, chmod, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installShHook, runShHook } from '../../server/adapters/claude-code/test/sh-hook.js';

export interface World {
  root: string;
  home: string;
  state: string;
  env: NodeJS.ProcessEnv;
  hook: string;
  repos: string[];
}

export async function makeWorld(repos: number): Promise<World> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-soak-')));
  const home = path.join(root, 'home');
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    XDG_STATE_HOME: path.join(root, 'state'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    TURNBACK_PORT: '0',
    TURNBACK_TOKEN: '',
    TURNBACK_AGENT_TOKEN: '',
  };
  const paths: string[] = [];
  for (let i = 0; i < repos; i++) {
    const repo = path.join(home, `project-${i}`);
    await mkdir(path.join(repo, 'src'), { recursive: true });
    await mkdir(path.join(repo, 'docs'), { recursive: true });
    try {
      execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    } catch {
      await mkdir(path.join(repo, '.git'), { recursive: true });
    }
    for (let f = 0; f < 8; f++) await writeFile(path.join(repo, 'src', `file-${f}.txt`), `project ${i} file ${f}\n`);
    await writeFile(path.join(repo, 'README.md'), `# project ${i}\n`);
    await writeFile(path.join(repo, 'docs', 'notes.md'), 'notes\n');
    await chmod(path.join(repo, 'src', 'file-0.txt'), 0o755);
    paths.push(repo);
  }
  const hook = await installShHook(path.join(root, 'install', 'bin'));
  return { root, home, state: path.join(root, 'state', 'turnback'), env, hook, repos: paths };
}

/** One hook call as the host makes it: the event on stdin, the answer awaited. */
export async function hook(world: World, host: string, payload: unknown): Promise<{ told: boolean }> {
  const result = await runShHook(world.hook, payload, world.env, host === 'claude-code' ? [] : [host]);
  return { told: result.stdout.includes('systemMessage') };
}

export async function servicePid(world: World): Promise<number | null> {
  try {
    const entry = JSON.parse(await readFile(path.join(world.state, 'service.json'), 'utf8')) as { pid: number };
    return entry.pid;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL of the service now running, if any; true when one was killed. */
export async function killService(world: World): Promise<boolean> {
  const pid = await servicePid(world);
  if (pid === null || !alive(pid)) return false;
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

export async function stopService(world: World): Promise<void> {
  const pid = await servicePid(world);
  if (pid === null || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The console API of the live service (console token). */
export async function api<T>(world: World, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const { port } = JSON.parse(await readFile(path.join(world.state, 'service.json'), 'utf8')) as { port: number };
  const token = (await readFile(path.join(world.state, 'console-token'), 'utf8')).trim();
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A path's state as the soak compares it: a file's sha256 and mode (its bytes kept to put it back), or a folder. */
export type Kept = { type: 'file'; sha: string; mode: number; bytes: Buffer } | { type: 'dir'; mode: number };
export type Snapshot = Map<string, Kept>;

export async function snapshot(repo: string): Promise<Snapshot> {
  const out: Snapshot = new Map();
  async function walk(dir: string, rel: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      if (rel === '' && name === '.git') continue;
      const abs = path.join(dir, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = await lstat(abs);
      if (st.isDirectory()) {
        out.set(r, { type: 'dir', mode: st.mode & 0o7777 });
        await walk(abs, r);
      } else if (st.isFile()) {
        const bytes = await readFile(abs);
        out.set(r, {
          type: 'file',
          sha: createHash('sha256').update(bytes).digest('hex'),
          mode: st.mode & 0o7777,
          bytes,
        });
      }
    }
  }
  await walk(repo, '');
  return out;
}

/** The paths whose state differs between two snapshots (a file's sha256 or mode, a folder's presence). */
export function differing(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (!x || !y || x.type !== y.type) out.push(key);
    else if (x.type === 'file' && y.type === 'file' && (x.sha !== y.sha || x.mode !== y.mode)) out.push(key);
  }
  return out.sort();
}

/** Puts `repo` back to `want` by hand (after a miss, so the turns before it can still be checked). */
export async function putBack(repo: string, want: Snapshot): Promise<void> {
  const now = await snapshot(repo);
  for (const [rel, kept] of [...now].reverse()) {
    if (want.get(rel)?.type === kept.type) continue;
    await rm(path.join(repo, rel), { recursive: true, force: true });
  }
  for (const [rel, kept] of want) {
    const abs = path.join(repo, rel);
    if (kept.type === 'dir') await mkdir(abs, { recursive: true });
    else {
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, kept.bytes);
      await chmod(abs, kept.mode);
    }
  }
}
