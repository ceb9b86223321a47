// Screenshots of the finer undo points at 1400 and 800 px, light and dark, into e2e/artifacts/:
// the Steps tab, a step's conflict and its keep-both plan, pinning, rewinding to a pin, and
// the compare view. The assertions only make sure each view is the one named.
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { seedSteps } from './seed-steps';

const SESSION = 'points-shots';

for (const width of [1400, 800]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`undo points at ${width} px, ${scheme}`, async ({ page, turnback }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await seedSteps(turnback.agent, SESSION);
      await turnback.open(page, `?session=${SESSION}`);
      const console = new ConsolePage(page);
      const dialog = console.dialog();
      const name = `${width}-${scheme}`;

      await console.selectTurn(2);
      await console.tab('Steps').click();
      const steps = console.detail.getByRole('list', { name: 'Steps of this turn' });
      await expect(steps.getByRole('listitem').filter({ hasText: 'Write(a.txt)' })).toBeVisible();
      await saveScreenshot(page, `${name}-steps`);

      await steps.getByRole('button', { name: 'Undo step 1: Edit(a.txt)' }).click();
      await expect(dialog.group('Changed since the turn (conflicts)')).toContainText('step 3');
      await saveScreenshot(page, `${name}-step-conflict`);
      await dialog
        .group('Changed since the turn (conflicts)')
        .getByRole('button', { name: /^Keep both/ })
        .click();
      await expect(dialog.group('Keep both')).toContainText('a.txt.turnback-2');
      await saveScreenshot(page, `${name}-keep-both`);
      await dialog.root.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('banner').getByRole('button', { name: 'Pin this point' }).click();
      await dialog.root.getByLabel('Name').fill('Before the refactor');
      await saveScreenshot(page, `${name}-pin`);
      await dialog.root.getByRole('button', { name: 'Pin', exact: true }).click();
      await expect(dialog.root).toBeHidden();
      await turnback.agent.turn(SESSION, 'Refactor', () => turnback.agent.write(SESSION, 'b.txt', 'b refactored\n'));
      await page.getByRole('region', { name: 'Pins' }).getByRole('button', { name: 'Pin Before the refactor' }).click();
      await expect(console.turn(1)).toHaveAttribute('aria-selected', 'true');
      await saveScreenshot(page, `${name}-pins`);
      await console.detail.getByRole('button', { name: 'Rewind to this pin' }).click();
      await expect(dialog.group('Restore to their earlier content')).toContainText('b.txt');
      await saveScreenshot(page, `${name}-pin-rewind`);
      await dialog.root.getByRole('button', { name: 'Cancel' }).click();

      await console.detail.getByRole('button', { name: 'Compare with…' }).click();
      await dialog.root.getByLabel('From (the end of)').selectOption({ label: 'pin “Before the refactor”' });
      await dialog.root.getByLabel('To (the end of)').selectOption({ index: 0 });
      await expect(dialog.root.getByRole('list', { name: 'Paths that differ' })).toBeVisible();
      await expect(dialog.root.getByRole('region', { name: /^Diff of / })).toContainText('refactored');
      await saveScreenshot(page, `${name}-compare`);
    });
  }
}
