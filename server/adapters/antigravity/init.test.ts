// `turnback init antigravity [--global] [--remove]`, as a process: one named entry, "turnback", in
// `.agents/hooks.json`, by absolute path, keeping every other named hook; whole-number timeouts.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../claude-code/settings.js';
import { runCli } from '../../testkit/spawn.js';

const hook = `${shellQuote(fileURLToPath(new URL('../../../bin/turnback-hook', import.meta.url)))} antigravity`;

let root: string;
let workspace: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-agy-'));
  workspace = join(root, 'project');
  home = join(root, 'home');
  await mkdir(workspace);
  await mkdir(home);
  env = { XDG_STATE_HOME: join(root, 'state'), HOME: home };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const init = (...args: string[]) => runCli(['init', 'antigravity', '--no-start', ...args], { env, cwd: workspace });

describe('turnback init antigravity', { timeout: 60_000 }, () => {
  it('adds the "turnback" entry to .agents/hooks.json, keeping other hooks; twice changes nothing; --remove restores it', async () => {
    const file = join(workspace, '.agents', 'hooks.json');
    await mkdir(join(workspace, '.agents'));
    const existing = { 'lint-on-stop': { Stop: [{ command: 'make lint' }] } };
    await writeFile(file, JSON.stringify(existing));
    expect(await init('--workspace', workspace)).toMatchObject({ code: 0, stdout: expect.stringContaining('Added') });
    const merged = await read(file);
    expect(merged['lint-on-stop']).toEqual(existing['lint-on-stop']);
    const scan = { type: 'command', command: `${hook} --max-time 120`, timeout: 130 };
    const plain = { type: 'command', command: hook, timeout: 10 };
    expect(merged.turnback).toEqual({
      PreInvocation: [plain],
      PreToolUse: [{ matcher: '*', hooks: [scan] }],
      PostToolUse: [{ matcher: '*', hooks: [scan] }],
      Stop: [plain],
    });
    const text = await readFile(file, 'utf8');
    expect((await init('--workspace', workspace)).stdout).toContain('already in');
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await init('--workspace', workspace, '--remove')).code).toBe(0);
    expect(await read(file)).toEqual(existing);
  });

  it('--global writes ~/.agents/hooks.json; --remove deletes a file that held turnback alone', async () => {
    expect((await init('--global')).code).toBe(0);
    const file = join(home, '.agents', 'hooks.json');
    expect(Object.keys(await read(file))).toEqual(['turnback']);
    expect((await init('--global', '--remove')).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves a hooks file that is not a JSON object untouched, exit 2', async () => {
    const file = join(workspace, '.agents', 'hooks.json');
    await mkdir(join(workspace, '.agents'));
    await writeFile(file, '[1]');
    expect((await init('--workspace', workspace)).code).toBe(2);
    expect(await readFile(file, 'utf8')).toBe('[1]');
  });
});
