// `turnback init cursor [--global] [--remove]`, as a process: `.cursor/hooks.json` (version 1)
// gets turnback's hook for every event it maps, by absolute path, keeping every other hook.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../claude-code/settings.js';
import { runCli } from '../../testkit/spawn.js';
import { CURSOR_EVENTS, CURSOR_SCAN_EVENTS } from './event.js';

const hook = `${shellQuote(fileURLToPath(new URL('../../../bin/turnback-hook', import.meta.url)))} cursor`;

let root: string;
let workspace: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-cursor-'));
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

describe('turnback init cursor', { timeout: 60_000 }, () => {
  it('writes .cursor/hooks.json with version 1 and every event, keeping other hooks; twice changes nothing; --remove restores it', async () => {
    const file = join(workspace, '.cursor', 'hooks.json');
    await mkdir(join(workspace, '.cursor'));
    const existing = {
      version: 1,
      hooks: { afterFileEdit: [{ command: './format.sh' }], sessionStart: [{ command: 'echo hi' }] },
    };
    await writeFile(file, JSON.stringify(existing));
    expect(await runCli(['init', 'cursor', '--no-start', '--workspace', workspace], { env })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Added'),
    });
    const merged = await read(file);
    expect(merged.version).toBe(1);
    expect(merged.hooks.sessionStart).toEqual(existing.hooks.sessionStart);
    expect(merged.hooks.afterFileEdit[0]).toEqual({ command: './format.sh' });
    for (const event of CURSOR_EVENTS) {
      expect(
        merged.hooks[event].filter((entry: { command: string }) => entry.command.includes('turnback-hook')),
        event,
      ).toEqual([{ command: CURSOR_SCAN_EVENTS.has(event) ? `${hook} --max-time 120` : hook }]);
    }
    const text = await readFile(file, 'utf8');
    expect((await runCli(['init', 'cursor', '--no-start', '--workspace', workspace], { env })).stdout).toContain(
      'already in',
    );
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await runCli(['init', 'cursor', '--no-start', '--remove', '--workspace', workspace], { env })).code).toBe(
      0,
    );
    expect(await read(file)).toEqual(existing);
  });

  it('--global writes ~/.cursor/hooks.json, created with version 1', async () => {
    expect((await runCli(['init', 'cursor', '--no-start', '--global'], { env, cwd: workspace })).code).toBe(0);
    const created = await read(join(home, '.cursor', 'hooks.json'));
    expect(created.version).toBe(1);
    expect(Object.keys(created.hooks)).toEqual([...CURSOR_EVENTS]);
  });

  it('leaves a hooks file whose hooks are not an object untouched, exit 2', async () => {
    const file = join(workspace, '.cursor', 'hooks.json');
    await mkdir(join(workspace, '.cursor'));
    await writeFile(file, '{"version": 1, "hooks": []}');
    expect((await runCli(['init', 'cursor', '--no-start', '--workspace', workspace], { env })).code).toBe(2);
    expect(await readFile(file, 'utf8')).toBe('{"version": 1, "hooks": []}');
  });
});
