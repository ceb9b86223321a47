// Screenshots of the main views at 1400 and 800 px, light and dark, into e2e/artifacts/ for
// people to look at. The assertions only make sure each view is the one named.
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { seedProject } from './seed';

const SESSION = 'shots-1';

for (const width of [1400, 800]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`screenshots at ${width} px, ${scheme}`, async ({ page, turnback }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await seedProject(turnback.agent, SESSION);
      await turnback.agent.turn('shots-2', 'Write the changelog for the 1.0 release', () =>
        turnback.agent.write('shots-2', 'CHANGELOG.md', '# 1.0\n'),
      );
      await turnback.open(page, `?session=${SESSION}`);
      const console = new ConsolePage(page);
      const name = `${width}-${scheme}`;

      await console.selectTurn(2);
      await expect(await console.showDiff('src/lib/greet.ts')).toContainText('Good morning');
      await saveScreenshot(page, `${name}-turn`);
      await console.showDiff('assets/logo.png');
      await expect(page.getByRole('group', { name: 'Image diff' })).toBeVisible();
      await saveScreenshot(page, `${name}-image`);

      await console.selectTurn(4);
      await expect(page.getByRole('button', { name: 'Show the diff' })).toBeVisible();
      await saveScreenshot(page, `${name}-large-folded`);
      await page.getByRole('button', { name: 'Show the diff' }).click();
      await expect(console.diff('src/steps.ts')).toContainText('step75');
      await saveScreenshot(page, `${name}-large-open`);

      await console.selectTurn(2);
      const dialog = await console.action('Undo turn');
      await dialog
        .group('Restore to their earlier content')
        .getByRole('listitem')
        .filter({ hasText: 'greet.ts' })
        .getByRole('button', { name: 'Show diff' })
        .click();
      await expect(dialog.root.getByText('Now → After the restore')).toBeVisible();
      await saveScreenshot(page, `${name}-preview`);
    });
  }
}
