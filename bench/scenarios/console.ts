// Item 7: how long until a session's timeline is first rendered and scrollable in Chromium,
// for a long session vs a short one, against the real server on a store seeded through the
// library API; then how fast the timeline answers a jump to its end, and its frames while
// scrolling; then how long a 3,000-line diff takes to open (./console-diff).
import { chromium, type Browser } from '@playwright/test';
import type { BenchContext } from '../context.js';
import { removeTree } from '../fs-tools.js';
import { startServe } from '../server-process.js';
import type { BuiltApp } from './build.js';
import { summarize } from '../stats.js';
import { openLargeDiff, seedLargeDiff } from './console-diff.js';
import { seedTurns } from './seed.js';
import { seededStore } from './seeded-store.js';

export const CONSOLE_SECTION = '7';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Plain strings, not functions: the page must not receive code transformed for Node.
const WATCH_FIRST_RENDER = `
  window.__timelineReadyAt = null;
  const check = () => {
    const list = document.querySelector('[role="listbox"][aria-label="Turns"]');
    const row = list && list.querySelector('[role="option"]');
    if (row && row.getBoundingClientRect().height > 0 && list.scrollHeight > list.clientHeight) {
      window.__timelineReadyAt = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
`;

const JUMP_AND_SCROLL = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const list = document.querySelector('[role="listbox"][aria-label="Turns"]');
  const visibleRow = () => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[role="option"]')].some((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
  };
  const jumpStart = performance.now();
  list.scrollTop = list.scrollHeight;
  do { await frame(); } while (!visibleRow() && performance.now() - jumpStart < 10000);
  const jumpMs = performance.now() - jumpStart;
  list.scrollTop = 0;
  await frame(); await frame();
  const gaps = [];
  let last = performance.now();
  for (let i = 0; i < 60; i++) {
    list.scrollTop += 400;
    await frame();
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  return { jumpMs, maxFrameMs: Math.max(...gaps) };
})()`;

interface Load {
  readyMs: number;
  jumpMs: number;
  maxFrameMs: number;
}

async function loadTimeline(browser: Browser, loginUrl: string, origin: string, sessionId: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(loginUrl); // the page keeps the token in this tab's sessionStorage
    await page.addInitScript(WATCH_FIRST_RENDER);
    await page.goto(`${origin}/?session=${encodeURIComponent(sessionId)}`, { waitUntil: 'commit' });
    // Polled from here: the console's CSP forbids the eval a string predicate would need in
    // the page. The time itself is taken in the page, so the polling step does not blur it.
    let readyMs: number | null = null;
    for (const deadline = Date.now() + 60_000; readyMs === null && Date.now() < deadline;) {
      readyMs = (await page.evaluate('window.__timelineReadyAt')) as number | null;
      if (readyMs === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (readyMs === null) throw new Error(`the timeline of ${sessionId} was not rendered and scrollable within 60 s`);
    const scroll = (await page.evaluate(JUMP_AND_SCROLL)) as { jumpMs: number; maxFrameMs: number };
    return { readyMs, ...scroll };
  } finally {
    await context.close();
  }
}

export async function consoleScenario(ctx: BenchContext, app: BuiltApp): Promise<void> {
  const { config, results } = ctx;
  if (!ctx.openEngine) return;
  const base = ctx.path('console');
  const workload = await ctx.workload(config.w1);
  const sessions = config.timelineTurns.map((turns) => ({ turns, sessionId: `timeline-${turns}` }));
  const { workspace, dataDir } = await seededStore(ctx, 'console', workload, async (engine) => {
    for (const { turns, sessionId } of sessions) {
      await seedTurns(engine, sessionId, workload, turns, 700_000 + turns, (done, total) =>
        ctx.log(`item 7: seeded ${done} of ${total}`),
      );
    }
    await seedLargeDiff(engine);
  });

  const server = await startServe({
    cli: app.cli,
    workspace,
    dataDir,
    stateDir: `${base}/state`,
    token: 'bench-console-token-0123456789',
    agentToken: 'bench-agent-token-0123456789',
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const { turns, sessionId } of sessions) {
      const loads: Load[] = [];
      for (let run = 0; run <= config.runs; run++) {
        let load: Load;
        try {
          load = await loadTimeline(browser, server.loginUrl, server.origin, sessionId);
        } catch (error) {
          // One retry: a single stuck page load should not cost the whole item.
          ctx.log(`item 7: a load of ${sessionId} failed (${(error as Error).message.split('\n')[0]}); retrying once`);
          load = await loadTimeline(browser, server.loginUrl, server.origin, sessionId);
        }
        if (run > 0) loads.push(load); // the first load warms the server and Chromium's cache
      }
      const label = `${turns.toLocaleString('en-US')}-turn session`;
      results.figure(
        CONSOLE_SECTION,
        `console.${turns}.ready`,
        `${label}: navigation → timeline rendered and scrollable`,
        'turnback',
        'ms',
        summarize(loads.map((l) => l.readyMs)),
      );
      results.figure(
        CONSOLE_SECTION,
        `console.${turns}.jump`,
        `${label}: jump to the end → rows shown`,
        'turnback',
        'ms',
        summarize(loads.map((l) => l.jumpMs)),
      );
      results.figure(
        CONSOLE_SECTION,
        `console.${turns}.frame`,
        `${label}: longest frame scrolling 60 × 400 px`,
        'turnback',
        'ms',
        summarize(loads.map((l) => l.maxFrameMs)),
      );
      ctx.log(`item 7: ${label} ready median ${summarize(loads.map((l) => l.readyMs)).median.toFixed(0)} ms`);
    }
    for (const [id, readFirstMs, label] of [
      ['open', 1000, '3,000-line diff: click 1 s after it shows folded → rows painted (virtualized)'],
      ['cold', 0, "3,000-line diff: click at once, the viewer's code still loading → rows painted"],
    ] as const) {
      const opens: number[] = [];
      for (let run = 0; run <= config.runs; run++) {
        const ms = await openLargeDiff(browser, server.loginUrl, server.origin, readFirstMs);
        if (run > 0) opens.push(ms); // the first load warms the server and Chromium's cache
      }
      results.figure(CONSOLE_SECTION, `console.diff3000.${id}`, label, 'turnback', 'ms', summarize(opens));
      ctx.log(`item 7: ${label}: median ${summarize(opens).median.toFixed(0)} ms`);
    }
    const [short, long] = config.timelineTurns;
    results.ratio(
      CONSOLE_SECTION,
      `rendered and scrollable, ${long} / ${short} turns`,
      `console.${long}.ready`,
      `console.${short}.ready`,
    );
    results.note(
      CONSOLE_SECTION,
      'headless Chromium, viewport 1400×900, page cache warm; the console loads turns in pages as the list scrolls',
    );
  } finally {
    await browser.close();
    await server.stop();
    await removeTree(ctx.path('store-console'));
    await removeTree(base);
  }
}
