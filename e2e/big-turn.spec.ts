// A command that writes 5,000 files: its preview and its Steps tab sum the paths up by folder with
// counts. Screenshots of the Steps tab, the split diff and the big turn's preview at 1400 and 800 px,
// light and dark, go to e2e/artifacts/ for people to look at.
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'big-1';
const PROSE =
  'The quick brown fox jumps over the lazy dog while the configuration loader reads every environment variable, ';

test('a 5,000-file command turn: the preview and the Steps tab sum its paths up by folder', async ({
  page,
  turnback,
}) => {
  test.setTimeout(300_000);
  const { agent } = turnback;
  await agent.turn(SESSION, 'Write the notes', () =>
    agent.write(SESSION, 'docs/notes.md', `# Notes\n\n${PROSE.repeat(3)}\n`),
  );
  await agent.turn(SESSION, 'Reword the notes', () =>
    agent.write(SESSION, 'docs/notes.md', `# Notes\n\n${PROSE.repeat(3).replace('quick brown', 'slow grey')}\n`),
  );
  await agent.turn(SESSION, 'Generate the fixtures', async () => {
    const { execId } = await agent.exec(SESSION, 'node scripts/generate-fixtures.js --count 5000');
    for (let i = 0; i < 5000; i++) {
      await turnback.writeOnDisk(`fixtures/${i < 3000 ? 'users' : 'orders'}/f${i}.json`, `{"id":${i}}\n`);
    }
    await agent.execEnd(SESSION, execId!);
  });

  // The service may still be reading the 5,000 new files: the first sessions list can take a while.
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('banner')).toBeVisible({ timeout: 120_000 });
  await page.goto(`${turnback.origin}/?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(3);
  await console.tab('Steps').click();
  const commands = console.detail.getByRole('list', { name: 'Shell commands of this turn' });
  await expect(commands).toContainText('node scripts/generate-fixtures.js --count 5000');
  // The step and the command each sum up their 5,000 files and the 3 folders made for them.
  const step = console.detail.getByRole('list', { name: 'Steps of this turn' });
  await expect(step.getByText('5,003 paths in 4 folders')).toBeVisible();
  await expect(step.getByRole('list', { name: 'Folders changed by step 1' }).getByRole('listitem')).toHaveText([
    'fixtures/users/ 3,000',
    'fixtures/orders/ 2,000',
    'fixtures/ 2',
    './ 1',
  ]);
  await commands.getByText('Changed 5003 paths').click();
  await expect(commands.getByText('5,003 paths in 4 folders')).toBeVisible();
  const folders = commands.getByRole('list', { name: /^Folders changed by/ });
  await expect(folders.getByRole('listitem')).toHaveText([
    'fixtures/users/ 3,000',
    'fixtures/orders/ 2,000',
    'fixtures/ 2',
    './ 1',
  ]);

  const shots: { name: string; show: () => Promise<void> }[] = [
    {
      name: 'steps',
      show: async () => {
        await console.selectTurn(3);
        await console.tab('Steps').click();
        await expect(step.getByText('5,003 paths in 4 folders')).toBeVisible();
      },
    },
    {
      name: 'split-diff',
      show: async () => {
        await console.selectTurn(2);
        await console.tab('Files').click();
        const diff = await console.showDiff('docs/notes.md');
        await expect(diff).toContainText('slow grey');
        // A wrapped line breaks between words, not in the middle of one.
        const cell = diff.locator('[class*="content-text"]').filter({ hasText: 'slow grey' }).first();
        await expect(cell).toBeVisible();
        expect(await cell.evaluate((el) => getComputedStyle(el).lineBreak)).toBe('auto');
      },
    },
    {
      name: 'big-preview',
      show: async () => {
        await console.selectTurn(3);
        const dialog = await console.action('Undo turn');
        const deleted = dialog.group('Delete (did not exist before)');
        await expect(deleted.getByText('5,000 paths in 2 folders')).toBeVisible();
        await expect(deleted.getByRole('list', { name: /folders$/ }).getByRole('listitem')).toHaveText([
          'fixtures/users/ 3,000',
          'fixtures/orders/ 2,000',
        ]);
        await expect(dialog.group('Shell commands of this turn').getByText('5,003 paths in 4 folders')).toBeVisible();
      },
    },
  ];
  for (const width of [1400, 800]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      for (const shot of shots) {
        await shot.show();
        await saveScreenshot(page, `${width}-${scheme}-big-turn-${shot.name}`);
        if (shot.name === 'big-preview') await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
    }
  }
});
