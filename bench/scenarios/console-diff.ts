// Item 7, the diff half: how long a 3,000-line diff takes to open in Chromium, from the click on
// "Show the diff" (large diffs are folded until asked) to its rows painted.
import type { Browser } from '@playwright/test';
import type { Engine } from '../../server/engine/api.js';

export const DIFF_SESSION = 'diff-3000';
const LINES = 3000;
const PATH = 'src/generated-steps.ts';

/** 3,000 lines of code; `edited` changes every 75th line, as an agent's sweeping edit would. */
function steps(edited: boolean): string {
  const lines = Array.from(
    { length: LINES },
    (_, i) =>
      `export const step${i + 1} = (value: number): number => value ${edited && (i + 1) % 75 === 0 ? '*' : '+'} ${i + 1};`,
  );
  return `${lines.join('\n')}\n`;
}

export async function seedLargeDiff(engine: Engine): Promise<void> {
  const session = { sessionId: DIFF_SESSION, platform: 'webui', sessionType: 'chat' };
  for (const [content, edited] of [
    ['Generate the steps module', false],
    ['Change every 75th step', true],
  ] as const) {
    await engine.input({ ...session, content });
    await engine.storage.writeFile(`workspace:/${PATH}`, steps(edited), { sessionId: DIFF_SESSION });
    await engine.turnEnd({ sessionId: DIFF_SESSION });
  }
}

// A plain string, not a function: the page must not receive code transformed for Node.
// `readFirstMs`: how long the person looks at the folded panel before clicking (the viewer's
// code arrives meanwhile); 0 clicks at once, so the figure includes loading that code.
const openAndTime = (readFirstMs: number) => `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const region = () => document.querySelector('[aria-label="Diff of ${PATH}"]');
  const button = () => region() && [...region().querySelectorAll('button')].find((b) => b.textContent === 'Show the diff');
  for (const waited = performance.now(); !button() && performance.now() - waited < 30000;) await frame();
  await new Promise((resolve) => setTimeout(resolve, ${readFirstMs}));
  const started = performance.now();
  button().click();
  const ready = () => !region().querySelector('[role="status"]')
    && [...region().querySelectorAll('td')].some((cell) => cell.textContent.includes('step75 ') && cell.getBoundingClientRect().height > 0);
  while (!ready() && performance.now() - started < 30000) await frame();
  return performance.now() - started;
})()`;

/** One page load of the session, then the timed opening of its large diff (ms). */
export async function openLargeDiff(
  browser: Browser,
  loginUrl: string,
  origin: string,
  readFirstMs: number,
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.goto(`${origin}/?session=${DIFF_SESSION}`);
    return (await page.evaluate(openAndTime(readFirstMs))) as number;
  } finally {
    await context.close();
  }
}
