import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { PNG_BLUE, PNG_RED, largeSource, rename, writeBase64 } from './seed';

const SESSION = 'diffs-1';

// The time from the click on "Show the diff" to its rows painted, taken in the page.
const OPEN_AND_TIME = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Show the diff');
  const started = performance.now();
  button.click();
  const ready = () => {
    const region = document.querySelector('[aria-label="Diff of src/steps.ts"]');
    if (!region || region.querySelector('[role="status"]')) return false;
    return [...region.querySelectorAll('td')].some((cell) => cell.textContent.includes('step75') && cell.getBoundingClientRect().height > 0);
  };
  while (!ready() && performance.now() - started < 10000) await frame();
  return performance.now() - started;
})()`;

test('a 3,000-line diff opens folded, then virtualized in under 300 ms', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Add the steps', () => agent.write(SESSION, 'src/steps.ts', largeSource(3000, 0)));
  await agent.turn(SESSION, 'Tweak the steps', () => agent.write(SESSION, 'src/steps.ts', largeSource(3000, 1)));
  await turnback.open(page);
  const console = new ConsolePage(page);
  const diff = console.diff('src/steps.ts');
  await expect(diff.getByText(/This diff is large: 3,001 lines/)).toBeVisible();
  // The viewer's code is loaded once by a first, small diff; then the large one is timed.
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    if (run > 0) {
      await console.selectTurn(1);
      await console.selectTurn(2);
      await expect(diff.getByRole('button', { name: 'Show the diff' })).toBeVisible();
    }
    times.push((await page.evaluate(OPEN_AND_TIME)) as number);
  }
  await expect(diff).toContainText('step75');
  const rows = await diff.locator('tr').count();
  expect(rows, 'rows in the DOM').toBeLessThan(400);
  const median = [...times].sort((a, b) => a - b)[2];
  test
    .info()
    .annotations.push({ type: '3,000-line diff open (ms)', description: times.map((t) => t.toFixed(0)).join(', ') });
  expect(median).toBeLessThan(300);
});

test('images show side by side, a pure rename says so, and long lines can wrap or not', async ({ page, turnback }) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('docs/guide.md', 'A guide that stays the same.\n');
  await agent.turn(SESSION, 'Draw the logo', async () => {
    await writeBase64(agent, SESSION, 'logo.png', PNG_RED);
    await agent.write(SESSION, 'notes.txt', `${'a long line of notes '.repeat(30)}\n`);
  });
  await agent.turn(SESSION, 'Recolour the logo and move the guide', async () => {
    await writeBase64(agent, SESSION, 'logo.png', PNG_BLUE);
    await rename(agent, SESSION, 'docs/guide.md', 'docs/handbook.md');
    await agent.write(SESSION, 'notes.txt', `${'a long line of notes '.repeat(31)}\n`);
  });
  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(2);

  const image = await console.showDiff('logo.png');
  const pictures = image.getByRole('group', { name: 'Image diff' }).getByRole('img');
  await expect(pictures).toHaveCount(2);
  await expect(pictures.first()).toHaveAttribute('src', `data:image/png;base64,${PNG_RED}`);
  await expect(pictures.last()).toHaveAttribute('src', `data:image/png;base64,${PNG_BLUE}`);
  expect(await pictures.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
  await saveScreenshot(page, 'console-image-diff');

  // One row for the rename, none for its origin, and no empty hunk bar.
  await expect(console.fileButton('docs/handbook.md')).toBeVisible();
  await expect(console.fileButton('docs/guide.md')).toHaveCount(0);
  const renamed = await console.showDiff('docs/handbook.md');
  await expect(renamed.getByText('Renamed from docs/guide.md, content unchanged.')).toBeVisible();
  await expect(renamed).not.toContainText('@@');

  const notes = await console.showDiff('notes.txt');
  const wrap = notes.getByRole('button', { name: 'Wrap lines' });
  await expect(wrap).toHaveAttribute('aria-pressed', 'true');
  const cell = notes.locator('[class*="content-text"]').filter({ hasText: 'a long line' }).first();
  const wrappedHeight = (await cell.boundingBox())!.height;
  await wrap.click();
  await expect(wrap).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await cell.boundingBox())!.height).toBeLessThan(wrappedHeight);
});
