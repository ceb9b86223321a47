// Another local user (`nobody`) against a person's service (issue 36 S3, S4, S5; docs/reliability.md
// "Local attacker"): what turnback keeps is private at rest, its lock cannot be taken from
// outside, and a state dir or data dir someone else could have planted is refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { nobody, runTsAs, type User } from './as-nobody.testutil.js';
import { exited, kill, spawnTs, waitForLine } from './child.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('local attacker (as nobody)', tally));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const user = nobody();
const LISTENING = /^turnback listening on http:\/\/127\.0\.0\.1:(\d+)\//;
const SECRET = 'API_KEY=sk-live-4f9a1c0ffee0ddba11';

/** A base others may walk into (as a home or /srv would be), with a workspace holding a private .env. */
async function setUp(): Promise<{
  base: string;
  workspace: string;
  stateHome: string;
  stateDir: string;
  data: string;
}> {
  const base = await mkdtemp(join(tmpdir(), 'turnback-attacker-'));
  cleanups.push(() => rm(base, { recursive: true, force: true }));
  await chmod(base, 0o755);
  const workspace = join(base, 'project');
  await mkdir(workspace, { mode: 0o755 });
  await writeFile(join(workspace, '.env'), `${SECRET}\n`, { mode: 0o600 });
  await writeFile(join(workspace, 'app.js'), 'console.log(1);\n', { mode: 0o644 });
  const stateHome = join(base, 'state');
  await mkdir(stateHome, { mode: 0o755 });
  return { base, workspace, stateHome, stateDir: join(stateHome, 'turnback'), data: join(base, 'data') };
}

function serve(stateHome: string, args: string[]): ChildProcess {
  const child = spawnTs('server/cli.ts', ['serve', '--port', '0', ...args], { XDG_STATE_HOME: stateHome });
  cleanups.push(() => kill(child));
  return child;
}

/** Every entry below `dir` whose mode is not 0700 (folders) or 0600 (files), as `path mode`. */
function notPrivate(dir: string): string[] {
  const wrong: string[] = [];
  const walk = (at: string) => {
    const st = lstatSync(at);
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o7777) !== want) wrong.push(`${at} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(at)) walk(join(at, name));
  };
  walk(dir);
  return wrong;
}

interface Read {
  found: string[];
  readable: string[];
  refused: string[];
}

describe.skipIf(!user)('a local attacker (as nobody)', () => {
  it('S3: finds no secret of a deleted .env in serve --data D, running or stopped; every entry there and in the state dir is 0700/0600', async () => {
    const { workspace, stateHome, stateDir, data } = await setUp();
    const child = serve(stateHome, ['--workspace', workspace, '--data', data]);
    const port = Number(LISTENING.exec(await waitForLine(child, LISTENING, 60_000))![1]);
    // A self-contained serve keeps its own files (tokens too) in D.
    const agentToken = (await readFile(join(data, 'agent-token'), 'utf8')).trim();
    const kept = [data, stateDir].filter((dir) => existsSync(dir));
    const agent = async (route: string, body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/agent/${route}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${agentToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    };
    await agent('input', { sessionId: 'agent-1', platform: 'webui', sessionType: 'chat', content: 'clean up' });
    await agent('fs/delete', { sessionId: 'agent-1', uri: 'workspace:/.env' });
    await agent('turn-end', { sessionId: 'agent-1' });

    const running = runTsAs<Read>(user!, 'tests/reliability/secret-reader.ts', [SECRET, ...kept]);
    tally.cases++;
    expect(running.found).toEqual([]);
    expect(running.readable).toEqual([]);
    expect(kept.flatMap(notPrivate)).toEqual([]);

    await kill(child, 'SIGTERM');
    const stopped = runTsAs<Read>(user!, 'tests/reliability/secret-reader.ts', [SECRET, ...kept]);
    tally.cases++;
    expect(stopped.found).toEqual([]);
    expect(stopped.readable).toEqual([]);
    expect(kept.flatMap(notPrivate)).toEqual([]);
    // The store did keep it (for the undo): the person, and only the person, can read it.
    const asPerson = JSON.parse(
      (
        await new Promise<string>((done) => {
          let out = '';
          const reader = spawnTs('tests/reliability/secret-reader.ts', [SECRET, data]);
          reader.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
          reader.once('exit', () => done(out));
        })
      ).trim(),
    ) as Read;
    expect(asPerson.found.length).toBeGreaterThan(0);
  }, 120_000);

  it('S4: binding the old, computable lock name does not keep the service from starting; a held lock names its pid', async () => {
    const { stateHome, stateDir } = await setUp();
    const hash = createHash('sha256').update(resolve(stateDir)).digest('hex').slice(0, 32);
    const squatter = spawn(
      'setpriv',
      [
        `--reuid=${user!.uid}`,
        `--regid=${user!.gid}`,
        '--clear-groups',
        process.execPath,
        '-e',
        `require('node:net').createServer().listen({ path: '\\0turnback-service-' + process.argv[1] }, () => console.log('bound'))`,
        hash,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => kill(squatter));
    await waitForLine(squatter, /^bound$/, 60_000);

    const first = serve(stateHome, []);
    tally.cases++;
    expect(await waitForLine(first, LISTENING, 60_000)).toMatch(LISTENING);
    const second = await exited(serve(stateHome, []));
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(`pid ${first.pid}`);
  }, 120_000);

  it("S5: a 0777 state dir of another user's, holding its 0644 token files, is refused", async () => {
    const { stateHome, stateDir } = await setUp();
    await mkdir(stateDir);
    await chmod(stateDir, 0o777);
    for (const file of ['console-token', 'agent-token']) {
      await writeFile(join(stateDir, file), `${'ab'.repeat(32)}${file.length}\n`, { mode: 0o644 });
      await chown(join(stateDir, file), user!.uid, user!.gid);
    }
    await chown(stateDir, user!.uid, user!.gid);
    const refused = await exited(serve(stateHome, []));
    tally.cases++;
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the state dir ${stateDir} is owned by uid ${user!.uid}`);
  }, 60_000);

  it('S5: a state dir of the person that others can write is refused, and so is a data dir of another user', async () => {
    const { workspace, stateHome, stateDir, data } = await setUp();
    await mkdir(stateDir);
    await chmod(stateDir, 0o777);
    const open = await exited(serve(stateHome, []));
    tally.cases++;
    expect(open.code).toBe(2);
    expect(open.stderr.trim()).toBe(
      `turnback: the state dir ${stateDir} can be written by group or others (mode 0777): run chmod 700 on it`,
    );

    await chmod(stateDir, 0o700);
    await mkdir(data, { mode: 0o700 });
    await chown(data, user!.uid, user!.gid);
    const foreign = await exited(serve(stateHome, ['--workspace', workspace, '--data', data]));
    tally.cases++;
    expect(foreign.code).toBe(2);
    expect(foreign.stderr.trim().split('\n')).toHaveLength(1);
    expect(foreign.stderr).toContain(`the data dir ${data} is owned by uid ${user!.uid}`);
  }, 60_000);

  it('S5: a service.lock planted as a link to a file outside is replaced, never written through', async () => {
    const { base, stateHome, stateDir } = await setUp();
    await mkdir(stateDir, { mode: 0o700 });
    const outside = join(base, 'outside.txt');
    await writeFile(outside, 'precious\n');
    await symlink(outside, join(stateDir, 'service.lock'));
    const child = serve(stateHome, []);
    await waitForLine(child, LISTENING, 60_000);
    tally.cases++;
    expect(await readFile(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(stateDir, 'service.lock')).isSymbolicLink()).toBe(false);
    expect(() => readlinkSync(join(stateDir, 'service.lock'))).toThrow();
  }, 60_000);
});

// Not a user switch: a test of the dir check itself, on any machine.
describe('the state dir check', () => {
  it('narrows a state dir of the person that others could only read to 0700', async () => {
    const { stateHome, stateDir } = await setUp();
    await mkdir(stateDir, { mode: 0o755 });
    await chmod(stateDir, 0o755);
    const child = serve(stateHome, []);
    await waitForLine(child, LISTENING, 60_000);
    expect(lstatSync(stateDir).mode & 0o777).toBe(0o700);
  }, 60_000);
});

export type { User };
