// `turnback init gemini|opencode`, run as a process: where each writes, that a second run
// changes nothing, that --remove takes out turnback's only, and that another plugin of the
// same name is never overwritten.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../testkit/spawn.js';
import { PLUGIN_SOURCE } from '../adapters/opencode/plugin.js';

let root: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-hosts-'));
  workspace = join(root, 'project');
  await mkdir(workspace);
  env = {
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CONFIG_HOME: join(root, 'config'),
    GEMINI_CLI_HOME: '',
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('turnback init gemini', { timeout: 60_000 }, () => {
  it('merges the hooks into the project settings, once, keeping the rest, and removes them', async () => {
    const file = join(workspace, '.gemini', 'settings.json');
    await mkdir(join(workspace, '.gemini'));
    await writeFile(file, JSON.stringify({ model: { name: 'gemini-2.5-pro' } }));
    const first = await runCli(['init', 'gemini', '--no-start', '--workspace', workspace], { env });
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain(`Added the turnback hooks to ${file}`);
    expect(first.stdout).toContain('trusted folder');
    const settings = JSON.parse(await readFile(file, 'utf8'));
    expect(settings.model).toEqual({ name: 'gemini-2.5-pro' });
    expect(Object.keys(settings.hooks).sort()).toEqual([
      'AfterAgent',
      'AfterTool',
      'BeforeAgent',
      'BeforeTool',
      'SessionEnd',
    ]);
    expect(settings.hooks.BeforeAgent[0].hooks[0].command).toMatch(/turnback-hook'? gemini$/);
    expect((await runCli(['init', 'gemini', '--no-start', '--workspace', workspace], { env })).stdout).toContain(
      'already in',
    );
    expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(settings, null, 2)}\n`);
    expect((await runCli(['init', 'gemini', '--no-start', '--workspace', workspace, '--remove'], { env })).code).toBe(
      0,
    );
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ model: { name: 'gemini-2.5-pro' } });
  });

  it('writes the user settings with --global, and refuses a file that is no JSON object', async () => {
    await mkdir(join(root, 'home'));
    expect((await runCli(['init', 'gemini', '--no-start', '--global', '--workspace', workspace], { env })).code).toBe(
      0,
    );
    expect(existsSync(join(root, 'home', '.gemini', 'settings.json'))).toBe(true);
    expect(existsSync(join(workspace, '.gemini'))).toBe(false);
    await mkdir(join(workspace, '.gemini'));
    await writeFile(join(workspace, '.gemini', 'settings.json'), '[1]');
    const refused = await runCli(['init', 'gemini', '--no-start', '--workspace', workspace], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('does not hold a JSON object');
    expect(await readFile(join(workspace, '.gemini', 'settings.json'), 'utf8')).toBe('[1]');
  });
});

describe('turnback init --quiet-agent', { timeout: 60_000 }, () => {
  it("turns telling the host's agent what was undone off for that host, and init without it on again", async () => {
    const settings = () => readFile(join(root, 'state', 'turnback', 'agent-notices.json'), 'utf8').then(JSON.parse);
    const quiet = await runCli(['init', 'gemini', '--no-start', '--quiet-agent', '--workspace', workspace], { env });
    expect(quiet).toMatchObject({ code: 0 });
    expect(quiet.stdout).toContain('The gemini agent is not told what you undo');
    expect(await settings()).toEqual({ tellAgents: true, quietHosts: ['gemini'] });
    const again = await runCli(['init', 'gemini', '--no-start', '--workspace', workspace], { env });
    expect(again.stdout).toContain('The gemini agent is told again');
    expect(await settings()).toEqual({ tellAgents: true, quietHosts: [] });
  });
});

describe('turnback init opencode', { timeout: 60_000 }, () => {
  it('writes the plugin into the project, once, removes it, and never overwrites another plugin', async () => {
    const file = join(workspace, '.opencode', 'plugins', 'turnback.js');
    expect((await runCli(['init', 'opencode', '--no-start', '--workspace', workspace], { env })).stdout).toContain(
      `Added the turnback hooks to ${file}`,
    );
    expect(await readFile(file, 'utf8')).toBe(PLUGIN_SOURCE);
    expect((await runCli(['init', 'opencode', '--no-start', '--workspace', workspace], { env })).stdout).toContain(
      'already',
    );
    expect((await runCli(['init', 'opencode', '--no-start', '--workspace', workspace, '--remove'], { env })).code).toBe(
      0,
    );
    expect(existsSync(file)).toBe(false);
    await writeFile(file, 'export const Mine = async () => ({});\n');
    const refused = await runCli(['init', 'opencode', '--no-start', '--workspace', workspace], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("not turnback's");
    expect((await runCli(['init', 'opencode', '--no-start', '--workspace', workspace, '--remove'], { env })).code).toBe(
      2,
    );
    expect(await readFile(file, 'utf8')).toBe('export const Mine = async () => ({});\n');
  });

  it('writes the user config with --global', async () => {
    await mkdir(join(root, 'home'));
    expect((await runCli(['init', 'opencode', '--no-start', '--global', '--workspace', workspace], { env })).code).toBe(
      0,
    );
    expect(await readFile(join(root, 'config', 'opencode', 'plugins', 'turnback.js'), 'utf8')).toBe(PLUGIN_SOURCE);
  });

  it('answers bad arguments with its usage', async () => {
    const bad = await runCli(['init', 'opencode', '--no-start', '--bogus'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/usage: turnback init <[^>]*gemini\|opencode>/);
  });
});
