import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from './settings.js';
import { runCli } from '../../testkit/spawn.js';

const hookBin = shellQuote(fileURLToPath(new URL('../../../bin/turnback-hook', import.meta.url)));
const nodeHook = `${process.execPath} ${fileURLToPath(new URL('../../../bin/turnback.js', import.meta.url))} hook claude-code`;

let root: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-'));
  workspace = join(root, 'my project');
  await mkdir(workspace);
  env = { XDG_STATE_HOME: join(root, 'state') };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const scanHook = `${hookBin} --max-time 120`;
const EVENTS = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'StopFailure',
  'SessionEnd',
];
const OURS: Record<string, string[]> = {
  UserPromptSubmit: [hookBin],
  PreToolUse: [hookBin, scanHook],
  PostToolUse: [scanHook],
  PostToolUseFailure: [scanHook],
  SubagentStart: [hookBin],
  SubagentStop: [hookBin],
  Stop: [hookBin],
  StopFailure: [hookBin],
  SessionEnd: [hookBin],
};
const settingsFile = () => join(workspace, '.claude', 'settings.local.json');
const readSettings = async () => JSON.parse(await readFile(settingsFile(), 'utf8'));
const commandsOf = (
  settings: { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> },
  event: string,
) => settings.hooks[event].flatMap((group) => group.hooks.map((hook) => hook.command));

describe('turnback init claude-code', { timeout: 60_000 }, () => {
  it('merges the hooks into existing settings, keeping every key and hook, and adds nothing twice', async () => {
    const existing = {
      permissions: { allow: ['Bash(npm run lint)'], deny: [] },
      env: { FOO: 'bar' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo check', timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo start' }] }],
      },
    };
    await mkdir(join(workspace, '.claude'));
    await writeFile(settingsFile(), JSON.stringify(existing, null, 2));

    const first = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Added the turnback hooks');
    expect(first.stdout).toMatch(/first hook starts your turnback service/);
    expect(first.stdout).toMatch(/Sharing them with your team is your choice: .* share on/);
    expect(first.stdout).toMatch(/turnback\.js'? url\n/);

    const merged = await readSettings();
    expect(merged.permissions).toEqual(existing.permissions);
    expect(merged.env).toEqual(existing.env);
    expect(merged.hooks.SessionStart).toEqual(existing.hooks.SessionStart);
    expect(merged.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    expect(merged.hooks.PreToolUse.map((group: { matcher: string }) => group.matcher)).toEqual([
      'Bash',
      'Write|Edit|MultiEdit|NotebookEdit',
      'Bash|mcp__.*',
    ]);
    for (const event of EVENTS) {
      const ours = commandsOf(merged, event).filter((c) => c.includes('turnback'));
      // An absolute path to this installation's sh hook, so the hook works from any cwd.
      expect(ours).toEqual(OURS[event]);
    }
    expect(commandsOf(merged, 'Stop')).toContain('say done');

    const before = await readFile(settingsFile(), 'utf8');
    const second = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('already in');
    expect(await readFile(settingsFile(), 'utf8')).toBe(before);
  });

  it('replaces the Node hook an earlier version installed, adding nothing', async () => {
    const hook = [{ type: 'command', command: nodeHook }];
    await mkdir(join(workspace, '.claude'));
    await writeFile(
      settingsFile(),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: hook }],
          PreToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash', hooks: hook }],
          Stop: [{ hooks: hook }],
        },
      }),
    );
    const result = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env });
    expect(result.code).toBe(0);
    const upgraded = await readSettings();
    for (const event of EVENTS) expect(commandsOf(upgraded, event)).toEqual(OURS[event]);
  });

  it('creates .claude/settings.local.json in the current folder by default', async () => {
    const result = await runCli([`init`, 'claude-code', '--no-start'], { env, cwd: workspace });
    expect(result.code).toBe(0);
    expect(Object.keys((await readSettings()).hooks)).toEqual(EVENTS);
  });

  it("--remove takes turnback's hooks out again and keeps everything else", async () => {
    const existing = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } };
    await mkdir(join(workspace, '.claude'));
    await writeFile(settingsFile(), JSON.stringify(existing, null, 2));
    expect((await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env })).code).toBe(0);
    const removed = await runCli(['init', 'claude-code', '--no-start', '--remove', '--workspace', workspace], { env });
    expect(removed).toMatchObject({ code: 0, stdout: expect.stringContaining('Removed the turnback hooks') });
    expect(await readSettings()).toEqual(existing);
    const again = await runCli(['init', 'claude-code', '--no-start', '--remove', '--workspace', workspace], { env });
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining('No turnback hooks') });
  });

  it('--remove takes away the settings file and folder init made, when nothing else is in them', async () => {
    expect((await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env })).code).toBe(0);
    expect(
      (await runCli(['init', 'claude-code', '--no-start', '--remove', '--workspace', workspace], { env })).code,
    ).toBe(0);
    expect(existsSync(settingsFile())).toBe(false);
    expect(existsSync(join(workspace, '.claude'))).toBe(false);
  });

  it('names the console command as a person types it when turnback is on the PATH', async () => {
    const bin = join(root, 'bin');
    await mkdir(bin);
    await symlink(fileURLToPath(new URL('../../../bin/turnback.js', import.meta.url)), join(bin, 'turnback'));
    const onPath = { ...env, PATH: `${bin}:${process.env.PATH}` };
    const result = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env: onPath });
    expect(result.stdout).toContain('\n  turnback url\n');
  });

  it('leaves a settings file it cannot parse untouched and exits 2', async () => {
    await mkdir(join(workspace, '.claude'));
    await writeFile(settingsFile(), '{ "model": "opus", ');
    const result = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('settings.local.json');
    expect(await readFile(settingsFile(), 'utf8')).toBe('{ "model": "opus", ');
  });

  it('refuses a missing workspace or an unknown agent with exit code 2', async () => {
    expect((await runCli(['init', 'claude-code', '--no-start', '--workspace', join(root, 'nope')], { env })).code).toBe(
      2,
    );
    expect((await runCli(['init', 'nonesuch', '--no-start'], { env })).code).toBe(2);
    expect((await runCli(['init', 'claude-code', '--no-start', '--globally'], { env })).code).toBe(2);
  });

  it('--global writes ~/.claude/settings.json, keeping what is there, once; --global --remove takes it out', async () => {
    const home = join(root, 'home');
    const userSettings = join(home, '.claude', 'settings.json');
    await mkdir(join(home, '.claude'), { recursive: true });
    const existing = {
      theme: 'dark',
      hooks: { Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] },
    };
    await writeFile(userSettings, JSON.stringify(existing));
    const homeEnv = { ...env, HOME: home };
    expect(
      await runCli(['init', 'claude-code', '--no-start', '--global'], { env: homeEnv, cwd: workspace }),
    ).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(userSettings),
    });
    const merged = JSON.parse(await readFile(userSettings, 'utf8'));
    expect(merged).toMatchObject(existing);
    for (const event of EVENTS)
      expect(
        commandsOf(merged, event).filter((c) => c.includes('turnback')),
        event,
      ).toEqual(OURS[event]);
    const text = await readFile(userSettings, 'utf8');
    expect((await runCli(['init', 'claude-code', '--no-start', '--global'], { env: homeEnv })).stdout).toContain(
      'already in',
    );
    expect(await readFile(userSettings, 'utf8')).toBe(text);
    // The project's settings are not touched by --global.
    await expect(readFile(settingsFile(), 'utf8')).rejects.toThrow();
    expect((await runCli(['init', 'claude-code', '--no-start', '--global', '--remove'], { env: homeEnv })).code).toBe(
      0,
    );
    expect(JSON.parse(await readFile(userSettings, 'utf8'))).toEqual(existing);
  });
});
