// The service's umask 077 keeps its own files private; a folder it makes inside a project still
// gets the person's umask, as the agent's own tools would make it.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EngineFs } from './fs.js';
import { setProjectUmask } from './project-umask.js';

let ws: string;
let saved: number;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'turnback-project-umask-'));
  // As the service does at start: narrow its own umask, remember the person's.
  saved = process.umask(0o077);
  setProjectUmask(0o022);
});
afterEach(async () => {
  process.umask(saved);
  setProjectUmask(saved);
  await rm(ws, { recursive: true, force: true });
});

it("makes a project's new folders with the person's umask, not the service's", async () => {
  const fs = new EngineFs();
  fs.addRoot(ws);
  await fs.mkdirp(join(ws, 'a', 'b'));
  expect((await stat(join(ws, 'a'))).mode & 0o777).toBe(0o755);
  expect((await stat(join(ws, 'a', 'b'))).mode & 0o777).toBe(0o755);
});
