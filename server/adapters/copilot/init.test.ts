// `turnback init copilot [--global] [--remove]`, as a process: turnback's own hooks file
// `.github/hooks/turnback.json` (version 1, command hooks with `bash` and `timeoutSec`), by
// absolute path; the person's other hooks files, and other hooks in this one, are kept.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../claude-code/settings.js';
import { runCli } from '../../testkit/spawn.js';
import { COPILOT_EVENTS, COPILOT_SCAN_EVENTS } from './event.js';

const hook = `${shellQuote(fileURLToPath(new URL('../../../bin/turnback-hook', import.meta.url)))} copilot`;

let root: string;
let workspace: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-copilot-'));
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
const init = (...args: string[]) => runCli(['init', 'copilot', '--no-start', ...args], { env, cwd: workspace });

describe('turnback init copilot', { timeout: 60_000 }, () => {
  it('writes .github/hooks/turnback.json with every event; twice changes nothing; --remove takes it away, other hooks files untouched', async () => {
    const hooksDir = join(workspace, '.github', 'hooks');
    await mkdir(hooksDir, { recursive: true });
    const theirs = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './audit.sh' }] } });
    await writeFile(join(hooksDir, 'audit.json'), theirs);
    const first = await init('--workspace', workspace);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining('Added') });
    expect(first.stdout).toContain('trust');
    const file = join(hooksDir, 'turnback.json');
    const written = await read(file);
    expect(written.version).toBe(1);
    expect(Object.keys(written.hooks)).toEqual([...COPILOT_EVENTS]);
    for (const event of COPILOT_EVENTS)
      expect(written.hooks[event], event).toEqual([
        COPILOT_SCAN_EVENTS.has(event)
          ? { type: 'command', bash: `${hook} --max-time 120`, timeoutSec: 130 }
          : { type: 'command', bash: hook, timeoutSec: 10 },
      ]);
    const text = await readFile(file, 'utf8');
    expect((await init('--workspace', workspace)).stdout).toContain('already in');
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await init('--workspace', workspace, '--remove')).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(await readFile(join(hooksDir, 'audit.json'), 'utf8')).toBe(theirs);
  });

  it("keeps the person's own hooks and keys in turnback.json, and only takes turnback's out", async () => {
    const file = join(workspace, '.github', 'hooks', 'turnback.json');
    await mkdir(join(workspace, '.github', 'hooks'), { recursive: true });
    const existing = {
      version: 1,
      note: 'mine',
      hooks: { agentStop: [{ type: 'command', bash: 'echo done', timeoutSec: 5 }] },
    };
    await writeFile(file, JSON.stringify(existing));
    expect((await init('--workspace', workspace)).code).toBe(0);
    const merged = await read(file);
    expect(merged.note).toBe('mine');
    expect(merged.hooks.agentStop[0]).toEqual(existing.hooks.agentStop[0]);
    expect(merged.hooks.agentStop).toHaveLength(2);
    expect((await init('--workspace', workspace, '--remove')).code).toBe(0);
    expect(await read(file)).toEqual(existing);
  });

  it('--global writes $COPILOT_HOME/hooks/turnback.json (~/.copilot by default)', async () => {
    expect((await init('--global')).code).toBe(0);
    const created = await read(join(home, '.copilot', 'hooks', 'turnback.json'));
    expect(Object.keys(created.hooks)).toEqual([...COPILOT_EVENTS]);
    const elsewhere = join(root, 'copilot-home');
    expect(
      (await runCli(['init', 'copilot', '--no-start', '--global'], { env: { ...env, COPILOT_HOME: elsewhere } })).code,
    ).toBe(0);
    expect(existsSync(join(elsewhere, 'hooks', 'turnback.json'))).toBe(true);
  });

  it('leaves a hooks file whose hooks are not an object untouched, exit 2', async () => {
    const file = join(workspace, '.github', 'hooks', 'turnback.json');
    await mkdir(join(workspace, '.github', 'hooks'), { recursive: true });
    await writeFile(file, '{"version": 1, "hooks": []}');
    expect((await init('--workspace', workspace)).code).toBe(2);
    expect(await readFile(file, 'utf8')).toBe('{"version": 1, "hooks": []}');
  });
});
