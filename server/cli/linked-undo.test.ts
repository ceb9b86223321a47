// `turnback undo` of a turn whose prompt also changed another project (issue 37 G2): the linked
// turn goes back with it, the preview lists both projects' files, `turnback redo` brings both
// back, and `--only-here` undoes one project alone. Through the real service and the hook route.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import * as p from '../adapters/claude-code/test/payloads.js';
import { treeAsText } from '../testkit/tree.js';
import { startRealService, type TestService } from './test/real-service.js';
import { runTerminal } from './test/run-terminal.js';

const SESSION = '55555555-5555-4555-8555-555555555555';
let base: string;
let service: TestService;
const repo = (name: 'alpha' | 'beta') => path.join(base, 'home', name);

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-linked-undo-')));
  service = await startRealService(base);
  for (const name of ['alpha', 'beta'] as const) {
    await mkdir(repo(name), { recursive: true });
    execFileSync('git', ['init', '-q', repo(name)]);
    await writeFile(path.join(repo(name), 'app.txt'), `${name} v1\n`);
    await writeFile(path.join(repo(name), 'run.sh'), `#!/bin/sh\necho ${name}\n`, { mode: 0o755 });
  }
}, 40_000);
afterEach(async () => {
  await service?.close();
  await rm(base, { recursive: true, force: true });
});

const hook = (event: { cwd: string }) => service.agent('hook/claude-code', event, event.cwd);
const trees = async () => ({ alpha: await treeAsText(repo('alpha')), beta: await treeAsText(repo('beta')) });

/** A prompt and a command in A, then (resumed in B) a command and a Write there, then Stop. */
async function spanTwoProjects(): Promise<void> {
  const a = { cwd: repo('alpha'), sessionId: SESSION };
  const b = { cwd: repo('beta'), sessionId: SESSION };
  await hook(p.userPromptSubmit(a, 'change both projects'));
  const inA = p.bash(a, 'change a');
  await hook(inA);
  await writeFile(path.join(repo('alpha'), 'app.txt'), 'alpha v2\n');
  await chmod(path.join(repo('alpha'), 'run.sh'), 0o644);
  await hook(p.postToolUse(inA));
  const inB = p.bash(b, 'change b');
  await hook(inB);
  await writeFile(path.join(repo('beta'), 'app.txt'), 'beta v2\n');
  await chmod(path.join(repo('beta'), 'run.sh'), 0o700);
  await hook(p.postToolUse(inB));
  await hook(p.write(b, path.join(repo('beta'), 'new.txt'), 'new\n'));
  await writeFile(path.join(repo('beta'), 'new.txt'), 'new\n');
  await hook(p.stop(b));
}

it('undo takes back both projects, redo brings both back, --only-here one alone', async () => {
  const start = await trees();
  await spanTwoProjects();
  const end = await trees();
  const run = (command: 'show' | 'undo' | 'redo', ...args: string[]) =>
    runTerminal(command, args, { cwd: repo('alpha'), env: service.env });

  const shown = await run('show', '1');
  expect(shown.stdout).toContain(`also     changed ${repo('beta')}`);

  const undo = await run('undo', '--yes');
  expect(undo.code, undo.stderr).toBe(0);
  expect(undo.stdout).toContain(`With its linked turn in ${repo('beta')}:`);
  expect(undo.stdout).toContain('new.txt');
  expect(await trees()).toEqual(start);

  const redo = await run('redo', '--yes');
  expect(redo.code, redo.stderr).toBe(0);
  expect(await trees()).toEqual(end);

  const alone = await run('undo', '--yes', '--only-here');
  expect(alone.code, alone.stderr).toBe(0);
  expect(await trees()).toEqual({ alpha: start.alpha, beta: end.beta });
}, 60_000);
