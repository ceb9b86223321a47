// Item 13: the workspace index built in the background (docs/design.md "Index build"). On a tree
// of 100,000 files (quick: 5,000): the build's time and peak RSS, how long a request waits for
// the event loop while it runs (a hook's prompt, answered as usual), then the first command of
// a session after it (nothing changed) and the one after that, beside the first command of a
// store with no build (the first before scan then reads every file). The engine runs as the
// service runs it, with its filesystem watcher: a turn's start is scanned in full in the
// background (a command that comes at once waits for it), and a command's scans look at what
// the watcher named. One more line takes the
// same command on an engine opened without a watcher (a library use), whose every command
// pays two full stat scans.
import type { Engine } from '../../server/engine/api.js';
import { fsTreeWatcher } from '../../server/engine/index.js';
import type { BenchContext } from '../context.js';
import { flushFilesystem } from '../fs-tools.js';
import { startRssWindow, rssSupported } from '../rss.js';
import { summarize } from '../stats.js';
import { generateWorkload } from '../workloads.js';

export const INDEX_BUILD_SECTION = '13';
/** A file younger than the index's racy window is read again by the next scan: the tree is older, as a real one is. */
const RACY_WINDOW_MS = 2_100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function indexBuildScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const files = ctx.config.indexBuildFiles;
  const label = `${files.toLocaleString('en-US')} files`;
  const workspace = ctx.path('index-build', 'workspace');
  await generateWorkload({ name: 'I', files, bytes: files * 1000 }, workspace, 0x1d3);
  await flushFilesystem(workspace);
  await pause(RACY_WINDOW_MS);

  const engine = await ctx.openEngine({
    workspace,
    dataDir: ctx.path('index-build', 'data'),
    scopes: ['*'],
    watcher: fsTreeWatcher,
  } as Parameters<NonNullable<BenchContext['openEngine']>>[0]);
  const s = { sessionId: 'bench-index' };
  try {
    // A request every 20 ms while the build runs: how long each waits (the build yields every 8 ms).
    const waits: number[] = [];
    let building = true;
    const probe = (async () => {
      while (building) {
        const asked = performance.now();
        await engine.message({ ...s, role: 'system', content: 'probe' });
        waits.push(performance.now() - asked);
        await pause(20);
      }
    })();
    const rss = rssSupported() ? startRssWindow() : null;
    const started = performance.now();
    const status = await engine.buildIndex();
    const buildMs = performance.now() - started;
    const peak = rss?.finish();
    building = false;
    await probe;
    if (status.state !== 'whole') throw new Error(`the build ended ${status.state}: ${status.reason ?? ''}`);
    ctx.results.figure(INDEX_BUILD_SECTION, 'index.build', `${label}: the build`, 'turnback', 'ms', buildMs);
    if (peak)
      ctx.results.figure(
        INDEX_BUILD_SECTION,
        'index.build-rss',
        `${label}: peak RSS growth during the build`,
        'turnback',
        'bytes',
        peak.growthBytes,
      );
    if (waits.length > 0)
      ctx.results.figure(
        INDEX_BUILD_SECTION,
        'index.request-during',
        `${label}: a request during the build`,
        'turnback',
        'ms',
        summarize(waits),
      );

    await engine.input({ ...s, platform: 'bench', sessionType: 'chat', content: 'first command' });
    const firstAfter = await firstCommand(engine, s);
    ctx.results.figure(
      INDEX_BUILD_SECTION,
      'index.first-command',
      `${label}: the first command after the build (exec + execEnd, nothing changed; watcher on, as the service runs; it waits for the turn start's full scan)`,
      'turnback',
      'ms',
      firstAfter,
    );
    // The next command, as every later one costs: the first paid nothing more when the two are alike.
    const next = await firstCommand(engine, s);
    ctx.results.figure(
      INDEX_BUILD_SECTION,
      'index.next-command',
      `${label}: the command after it (the same scans)`,
      'turnback',
      'ms',
      next,
    );
    await engine.turnEnd(s);
    ctx.results.note(
      INDEX_BUILD_SECTION,
      `build ${(buildMs / 1000).toFixed(1)} s for ${status.filesIndexed.toLocaleString('en-US')} files, ` +
        `${(status.bytesStored / 1e6).toFixed(0)} MB stored` +
        (peak
          ? `, peak RSS ${(peak.peakBytes / 2 ** 20).toFixed(0)} MiB (+${(peak.growthBytes / 2 ** 20).toFixed(0)} MiB)`
          : '') +
        (waits.length > 0 ? `; ${waits.length} requests during it, slowest ${Math.max(...waits).toFixed(0)} ms` : '') +
        `; first command after it ${firstAfter.toFixed(0)} ms, the next ${next.toFixed(0)} ms (watcher on, as the service runs)`,
    );
  } finally {
    await engine.close();
  }

  // The same built index, opened without a watcher (the engine as a library): each command's two scans are full ones.
  const bare = await ctx.openEngine({ workspace, dataDir: ctx.path('index-build', 'data'), scopes: ['*'] });
  try {
    await bare.input({ ...s, platform: 'bench', sessionType: 'chat', content: 'no watcher' });
    ctx.results.figure(
      INDEX_BUILD_SECTION,
      'index.command-no-watcher',
      `${label}: a command after the build on an engine without a watcher (exec + execEnd, nothing changed: two full scans)`,
      'turnback',
      'ms',
      await firstCommand(bare, s),
    );
    await bare.turnEnd(s);
  } finally {
    await bare.close();
  }

  // The same first command with no build before it: today's first before scan reads every file.
  const unbuilt = await ctx.openEngine({ workspace, dataDir: ctx.path('index-build', 'data-unbuilt'), scopes: ['*'] });
  try {
    await unbuilt.input({ ...s, platform: 'bench', sessionType: 'chat', content: 'first command' });
    ctx.results.figure(
      INDEX_BUILD_SECTION,
      'index.first-command-unbuilt',
      `${label}: the first command with no build before it`,
      'turnback',
      'ms',
      await firstCommand(unbuilt, s),
    );
    await unbuilt.turnEnd(s);
  } finally {
    await unbuilt.close();
  }
}

async function firstCommand(engine: Engine, s: { sessionId: string }): Promise<number> {
  const started = performance.now();
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
  await engine.execEnd({ ...s, execId: execId! });
  return performance.now() - started;
}
