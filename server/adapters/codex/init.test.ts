import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../claude-code/settings.js';
import { runCli } from '../../testkit/spawn.js';

const hookBin = shellQuote(fileURLToPath(new URL('../../../bin/turnback-hook', import.meta.url)));
const theirs = { type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5 };

let root: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-codex-'));
  workspace = join(root, 'my project');
  await mkdir(workspace);
  await mkdir(join(root, 'home'));
  env = { XDG_STATE_HOME: join(root, 'state'), HOME: join(root, 'home'), CODEX_HOME: '' };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const projectFile = () => join(workspace, '.codex', 'hooks.json');
const read = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const commands = (file: { hooks: Record<string, { hooks: { command: string }[] }[]> }) =>
  Object.entries(file.hooks).flatMap(([event, groups]) =>
    groups.flatMap((group) => group.hooks.map((hook) => `${event} ${hook.command}`)),
  );

describe('turnback init codex', { timeout: 60_000 }, () => {
  it("writes the project's .codex/hooks.json keeping other hooks, says how to trust them, and adds nothing twice", async () => {
    await mkdir(join(workspace, '.codex'));
    await writeFile(projectFile(), JSON.stringify({ hooks: { Stop: [{ hooks: [theirs] }] } }));
    const first = await runCli(['init', 'codex', '--no-start', '--workspace', workspace], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Added the turnback hooks to ${projectFile()}`);
    expect(first.stdout).toContain('type /hooks');
    expect(first.stdout).toContain('a project you trust');
    const written = await read(projectFile());
    expect(written.hooks.Stop[0]).toEqual({ hooks: [theirs] });
    expect(commands(written)).toContain(`PreToolUse ${hookBin} codex --max-time 120`);
    expect(commands(written)).toContain(`Stop ${hookBin} codex`);

    const second = await runCli(['init', 'codex', '--no-start', '--workspace', workspace], { env });
    expect(second.stdout).toContain('already in');
    expect(await read(projectFile())).toEqual(written);
  });

  it('removes its hooks and nothing else', async () => {
    await mkdir(join(workspace, '.codex'));
    await writeFile(projectFile(), JSON.stringify({ hooks: { Stop: [{ hooks: [theirs] }] } }));
    await runCli(['init', 'codex', '--no-start', '--workspace', workspace], { env });
    const removed = await runCli(['init', 'codex', '--no-start', '--workspace', workspace, '--remove'], { env });
    expect(removed).toMatchObject({ code: 0, stdout: expect.stringContaining('Removed the turnback hooks') });
    expect(await read(projectFile())).toEqual({ hooks: { Stop: [{ hooks: [theirs] }] } });
  });

  it('with --global, writes $CODEX_HOME/hooks.json, else ~/.codex/hooks.json', async () => {
    const global = await runCli(['init', 'codex', '--no-start', '--global'], { env });
    expect(global.code).toBe(0);
    expect(commands(await read(join(root, 'home', '.codex', 'hooks.json')))).toContain(
      `UserPromptSubmit ${hookBin} codex`,
    );
    const elsewhere = join(root, 'codex-home');
    const moved = await runCli(['init', 'codex', '--no-start', '--global'], { env: { ...env, CODEX_HOME: elsewhere } });
    expect(moved.stdout).toContain(join(elsewhere, 'hooks.json'));
    expect(moved.stdout).not.toContain('a project you trust');
  });

  it('leaves a hooks file it cannot read as it was, and refuses unknown flags', async () => {
    await mkdir(join(workspace, '.codex'));
    await writeFile(projectFile(), '{"hooks": []}');
    const bad = await runCli(['init', 'codex', '--no-start', '--workspace', workspace], { env });
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('"hooks" is not an object') });
    expect(await readFile(projectFile(), 'utf8')).toBe('{"hooks": []}');
    const unknown = await runCli(['init', 'codex', '--no-start', '--everywhere'], { env });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/usage: turnback init <.*codex.*> \[--workspace DIR\] \[--global\] \[--remove\]/),
    });
  });
});
