// The service's background index builds with real engines on temp trees: a registered workspace
// is built at once and its progress listed; a service stopped mid-build resumes it on its next
// start; a whole one is not opened again at a start.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from '../engine/paths/fs.js';
import { openEngine, type OpenEngineOptions } from '../engine/index.js';
import { WorkspaceHost } from './host.js';

let root: string;
let env: NodeJS.ProcessEnv;
let repo: string;
let hosts: WorkspaceHost[];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-builds-')));
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state') };
  repo = path.join(root, 'home', 'alpha');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  for (let i = 0; i < 30; i++) {
    await mkdir(path.join(repo, `d${i % 3}`), { recursive: true });
    await writeFile(path.join(repo, `d${i % 3}`, `f${i}.txt`), `file ${i}\n`);
  }
  hosts = [];
});
afterEach(async () => {
  for (const host of hosts) await host.close(2_000);
  await rm(root, { recursive: true, force: true });
});

/** A host whose engines read each file `delayMs` slowly; `opened` counts the engines it opened. */
function makeHost(delayMs = 0) {
  const opened: string[] = [];
  const open = (options: OpenEngineOptions) => {
    opened.push(options.workspace);
    const fs = new EngineFs({
      beforeOp: async (op) => {
        if (delayMs > 0 && (op === 'read' || op === 'readFile')) await pause(delayMs);
      },
    });
    return openEngine({ ...options, fs });
  };
  const host = new WorkspaceHost({ env, engineOptions: {}, open, indexInBackground: true });
  hosts.push(host);
  return { host, opened };
}

describe('background index builds in the service', () => {
  it('builds a registered workspace at once, its progress in the list, and keeps how it ended', async () => {
    const { host } = makeHost(5);
    const registered = host.register(repo);
    expect(registered.index).toBeUndefined();
    const deadline = Date.now() + 5_000;
    while ((host.list()[0].index?.filesIndexed ?? 0) === 0 && Date.now() < deadline) await pause(5);
    const during = host.list()[0].index!;
    expect(during).toMatchObject({ state: 'building', filesFound: 30 });
    expect(during.percent).toBeLessThan(100);

    await host.indexBuildsSettled();
    expect(host.list()[0].index).toMatchObject({ state: 'whole', filesIndexed: 30, percent: 100 });
    await host.close();

    // A new service: the registry tells it whole, and the engine is not opened for it.
    const again = makeHost();
    again.host.resumeIndexBuilds();
    await again.host.indexBuildsSettled();
    expect(again.opened).toEqual([]);
    expect(again.host.list()[0]).toMatchObject({ open: false, index: { state: 'whole', filesIndexed: 30 } });
  });

  it('resumes on the next start a build the service stopped part-way', async () => {
    const first = makeHost(20);
    first.host.register(repo);
    const deadline = Date.now() + 5_000;
    while ((first.host.list()[0].index?.filesIndexed ?? 0) < 3 && Date.now() < deadline) await pause(5);
    await first.host.close();
    await first.host.indexBuildsSettled();

    const second = makeHost();
    expect(second.host.list()[0].index?.state).toBe('partial');
    second.host.resumeIndexBuilds();
    await second.host.indexBuildsSettled();
    expect(second.opened).toEqual([repo]);
    expect(second.host.list()[0].index).toMatchObject({ state: 'whole', filesIndexed: 30 });
  });

  it('builds on its first event a workspace the agent brings', async () => {
    const { host } = makeHost();
    const { engine } = await host.agentEngine({ sessionKey: 'agent:s1', cwd: path.join(repo, 'd1') });
    await host.indexBuildsSettled();
    expect(engine.indexStatus().state).toBe('whole');
  });
});
