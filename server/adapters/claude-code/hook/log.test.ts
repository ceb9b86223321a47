import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logHookProblem } from './log.js';

let state: string;
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'turnback-hooklog-'));
});
afterEach(async () => {
  await rm(state, { recursive: true, force: true });
});

describe('logHookProblem', () => {
  it('appends one line per problem, newlines flattened', async () => {
    logHookProblem('first\nproblem', { XDG_STATE_HOME: state });
    logHookProblem('second', { XDG_STATE_HOME: state });
    const lines = (await readFile(join(state, 'turnback', 'hook.log'), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.* claude-code first problem$/);
  });

  it('moves a full log aside instead of growing it forever', async () => {
    await mkdir(join(state, 'turnback'));
    await writeFile(join(state, 'turnback', 'hook.log'), 'x'.repeat(1024 * 1024 + 1));
    logHookProblem('fresh', { XDG_STATE_HOME: state });
    expect((await stat(join(state, 'turnback', 'hook.log.1'))).size).toBe(1024 * 1024 + 1);
    expect(await readFile(join(state, 'turnback', 'hook.log'), 'utf8')).toMatch(/fresh\n$/);
  });

  it('never throws when the state dir cannot be written', () => {
    expect(() => logHookProblem('x', { XDG_STATE_HOME: '/proc/turnback-cannot-write' })).not.toThrow();
  });
});
