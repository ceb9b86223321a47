import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { seedProject } from './seed';

const SESSION = 'look-1';

/**
 * Every visible piece of text whose colour on its background is under WCAG AA (4.5:1, or 3:1
 * for large text), and every one under 12 px. Disabled controls are exempt, as WCAG says.
 */
const AUDIT = `(() => {
  const parse = (value) => { const m = value.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const [r, g, b, a = 1] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return { r, g, b, a }; };
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ({ r, g, b }) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const blend = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
  const backgroundOf = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg && bg.a > 0) { layers.push(bg); if (bg.a >= 1) break; }
    }
    let colour = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) colour = blend(layer, colour);
    return colour;
  };
  const problems = [];
  let checked = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const element = text.parentElement;
    if (!element || !text.textContent.trim()) continue;
    if (element.closest('[disabled], [aria-disabled="true"], [aria-hidden="true"]')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.bottom < 0 || box.top > innerHeight) continue;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    checked++;
    const size = parseFloat(style.fontSize);
    const fg = parse(style.color);
    const bg = backgroundOf(element);
    const shown = blend(fg, bg);
    const [hi, lo] = [luminance(shown), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const label = text.textContent.trim().slice(0, 40);
    if (ratio < (large ? 3 : 4.5)) problems.push(label + ': contrast ' + ratio.toFixed(2) + ' (' + style.color + ' on rgb(' + [bg.r, bg.g, bg.b].map(Math.round) + '))');
    if (size < 12) problems.push(label + ': ' + size + ' px');
  }
  return { checked, problems, base: parseFloat(getComputedStyle(document.documentElement).fontSize) };
})()`;

async function audit(page: Page): Promise<string[]> {
  const result = (await page.evaluate(AUDIT)) as { checked: number; problems: string[]; base: number };
  expect(result.checked, 'text nodes checked').toBeGreaterThan(30);
  expect(result.base, 'base font size').toBeGreaterThanOrEqual(13);
  return result.problems;
}

async function showEverything(page: Page, console: ConsolePage) {
  await console.selectTurn(2);
  await expect(await console.showDiff('src/lib/greet.ts')).toContainText('Good morning');
  // Colours come a moment after the rows: wait for the highlighter.
  await expect(console.diff('src/lib/greet.ts').locator('span[style*="color"]').first()).toBeVisible();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`all text meets WCAG AA contrast and is 12 px or more (${scheme})`, async ({ page, turnback }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await seedProject(turnback.agent, SESSION);
    await turnback.open(page, `?session=${SESSION}`);
    const console = new ConsolePage(page);
    await showEverything(page, console);
    expect(await audit(page)).toEqual([]);
    const dialog = await console.action('Undo turn');
    await dialog
      .group('Restore to their earlier content')
      .getByRole('listitem')
      .filter({ hasText: 'greet.ts' })
      .getByRole('button', { name: 'Show diff' })
      .click();
    await expect(dialog.root).toContainText('Now → After the restore');
    expect(await audit(page)).toEqual([]);
  });
}

test('the dark theme follows the system and the toggle overrides it, across a reload', async ({ page, turnback }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await seedProject(turnback.agent, SESSION);
  await turnback.open(page, `?session=${SESSION}`);
  await expect(new ConsolePage(page).detail).toBeVisible();
  const background = () =>
    page.evaluate(() => {
      const detail = document.querySelector('.detail');
      return detail ? getComputedStyle(detail).backgroundColor : null;
    });
  await expect.poll(background).toBe('rgb(13, 17, 23)');
  const settings = page.getByRole('button', { name: 'Settings' });
  await settings.click();
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('button', { name: 'Auto' })).toHaveAttribute('aria-pressed', 'true');
  await theme.getByRole('button', { name: 'Light' }).click();
  await expect.poll(background).toBe('rgb(255, 255, 255)');
  await page.reload();
  await expect.poll(background).toBe('rgb(255, 255, 255)');
  await settings.click();
  await theme.getByRole('button', { name: 'Dark' }).click();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe('rgb(13, 17, 23)');
});

test('under 900 px the console is one column and the diff takes the full width, unified', async ({
  page,
  turnback,
}) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await seedProject(turnback.agent, SESSION);
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  const diff = await console.showDiff('src/lib/greet.ts');
  await expect(diff).toContainText('Good morning');
  await expect(diff.getByRole('button', { name: 'Unified' })).toHaveAttribute('aria-pressed', 'true');
  const sessions = (await console.sessions.boundingBox())!;
  const timeline = (await page.getByRole('region', { name: 'Turn timeline' }).boundingBox())!;
  const detail = (await console.detail.boundingBox())!;
  const diffBox = (await diff.boundingBox())!;
  // Stacked, each the page's width.
  expect(timeline.y).toBeGreaterThanOrEqual(sessions.y + sessions.height - 1);
  expect(detail.y).toBeGreaterThanOrEqual(timeline.y + timeline.height - 1);
  for (const box of [sessions, timeline, detail]) expect(box.width).toBeGreaterThan(790);
  expect(diffBox.width).toBeGreaterThan(790);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
  await saveScreenshot(page, 'console-narrow');
});

test("the header's counts and buttons never break inside, at 1400 and 800 px", async ({ page, turnback }) => {
  await seedProject(turnback.agent, SESSION);
  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await turnback.open(page, `?session=${SESSION}`);
    await expect(page.getByRole('button', { name: 'Commits' })).toBeVisible();
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('.store-usage > *, .app-header button, .live-status, .agent-notice-toggle')]
        .filter((element) => element.getClientRects().length > 0)
        .filter((element) => {
          const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || 20;
          return element.getBoundingClientRect().height > lineHeight * 1.6 + 12;
        })
        .map((element) => element.textContent),
    );
    expect(broken, `${width} px`).toEqual([]);
    // Nothing in the header is cut off at the window's edge, nor pushed past it.
    const header = page.locator('.app-header');
    const past = await header.evaluate(
      (element, right) =>
        [...element.querySelectorAll('button, .live-status, .store-usage > *')]
          .filter((child) => child.getClientRects().length > 0 && child.getBoundingClientRect().right > right + 0.5)
          .map((child) => child.textContent),
      width,
    );
    expect(past, `${width} px`).toEqual([]);
    // At 1400 px it all stands on one line.
    if (width === 1400) expect((await header.boundingBox())!.height).toBeLessThan(50);
    // The settings open under their button, whole inside the window.
    await page.getByRole('button', { name: 'Settings' }).click();
    const panel = page.getByRole('group', { name: 'Settings' });
    await expect(panel.getByRole('checkbox', { name: 'Tell the agent what I undo' })).toBeVisible();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await saveScreenshot(page, `header-settings-${width}`);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
  }
});
