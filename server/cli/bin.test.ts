// bin/turnback.js runs the compiled build/ and nothing else; without it, it says what to do.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/turnback.js', import.meta.url));
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-bin-'));
  await mkdir(path.join(root, 'bin'));
  await copyFile(BIN, path.join(root, 'bin', 'turnback.js'));
  await writeFile(path.join(root, 'package.json'), '{"type":"module"}');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('asks for npm run build when build/ is missing, exit code 2', () => {
  const result = spawnSync(process.execPath, [path.join(root, 'bin', 'turnback.js'), 'serve'], { encoding: 'utf8' });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('run npm run build first');
});

it('runs build/cli.js with plain node', async () => {
  await mkdir(path.join(root, 'build'));
  await writeFile(
    path.join(root, 'build', 'cli.js'),
    "process.stdout.write('compiled cli ' + process.argv.slice(2).join(' '));",
  );
  const result = spawnSync(process.execPath, [path.join(root, 'bin', 'turnback.js'), 'demo', '--port', '0'], {
    encoding: 'utf8',
  });
  expect(result.stdout).toBe('compiled cli demo --port 0');
  expect(result.status).toBe(0);
});
