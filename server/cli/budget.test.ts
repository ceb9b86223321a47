// `turnback start --store-budget` reaches the service it starts; `turnback budget` reads and sets a
// workspace's own budget, kept in its store across a restart (docs/api.md "Store budget"); and
// `--person-budget` / `turnback budget --person` the person's budget over all the workspaces.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './test/spawn-cli.js';

const MIB = 1024 * 1024;
let root: string;
let project: string;
let env: NodeJS.ProcessEnv;

async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

async function budget(...args: string[]) {
  const answer = await cli('budget', ...args, '--workspace', project, '--json');
  expect(answer).toMatchObject({ code: 0 });
  return JSON.parse(answer.stdout).budget;
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-budget-')));
  project = path.join(root, 'home', 'project');
  await mkdir(path.join(project, '.git'), { recursive: true });
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state'), TURNBACK_PORT: '0' };
});
afterEach(async () => {
  await cli('stop');
  await rm(root, { recursive: true, force: true });
});

describe('turnback budget and start --store-budget', { timeout: 180_000 }, () => {
  it("start's --store-budget reaches the service; a workspace's own budget outlives a restart; default clears it", async () => {
    expect(await cli('start', '--store-budget', '5MiB')).toMatchObject({ code: 0 });
    expect(await budget()).toMatchObject({ bytes: 5 * MIB, source: 'service' });
    // Given again to a running service, it is said not to apply.
    expect((await cli('start', '--store-budget', '7MiB')).stderr).toMatch(/already running/);

    const set = await cli('budget', '8MiB', '--workspace', project);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe(`${project}: store budget (contents 0 B of a 8.0 MiB budget), this workspace's own\n`);

    expect(await cli('stop')).toMatchObject({ code: 0 });
    expect(await cli('start')).toMatchObject({ code: 0 });
    expect(await budget()).toMatchObject({ bytes: 8 * MIB, source: 'workspace' });
    expect(await budget('default')).toMatchObject({ bytes: 2 * 1024 * MIB, source: 'default' });

    const bad = await cli('budget', 'lots', '--workspace', project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/the budget must be a positive number of bytes/);
  });

  it('--person: start --person-budget reaches the service, a setting goes over it and outlives a restart, default clears it', async () => {
    expect(await cli('start', '--person-budget', '40MiB')).toMatchObject({ code: 0 });
    const shown = await cli('budget', '--person', '--json');
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(shown.stdout)).toEqual({
      personBudget: { bytes: 40 * MIB, source: 'service', used: 0, workspaces: 0, prunedForPersonBudget: 0 },
    });

    const set = await cli('budget', '--person', '50MiB');
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe(
      'person budget: contents 0 B of 50.0 MiB over 0 workspaces, 0 sessions pruned for it, set by turnback budget --person\n',
    );
    expect(await cli('stop')).toMatchObject({ code: 0 });
    expect(await cli('start')).toMatchObject({ code: 0 });
    expect(JSON.parse((await cli('budget', '--person', '--json')).stdout).personBudget).toMatchObject({
      bytes: 50 * MIB,
      source: 'setting',
    });
    expect((await cli('status')).stdout).toMatch(
      /\nperson budget: contents 0 B of 50\.0 MiB over 0 workspaces, 0 sessions pruned for it\n$/,
    );
    const cleared = await cli('budget', '--person', 'default', '--json');
    expect(JSON.parse(cleared.stdout).personBudget).toMatchObject({ bytes: null, source: 'none' });
    expect((await cli('budget', '--person')).stdout).toBe('person budget: none (contents 0 B over 0 workspaces)\n');
    // With none set, status has no person budget line.
    expect((await cli('status')).stdout).not.toContain('person budget');

    const bad = await cli('budget', '--person', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'turnback budget: the budget must be a positive number of bytes, of MiB or GiB (as 512MiB or 4GiB), or default\n',
    );
  });
});
