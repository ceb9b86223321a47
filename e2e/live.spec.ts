import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'live-1';

test('the timeline updates live while an agent works', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'First', () => agent.write(SESSION, 'one.txt', '1\n'));
  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(1)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  await agent.input(SESSION, 'Second, still working');
  await expect(console.turn(2)).toContainText('live');
  await expect(console.session(SESSION)).toHaveAccessibleName(/turn in progress/);
  await agent.write(SESSION, 'two.txt', '2\n');
  await console.selectTurn(2);
  await expect(console.detail.getByRole('list', { name: 'Operations recorded so far' })).toContainText('two.txt');
  await saveScreenshot(page, 'console-live-turn');
  await agent.turnEnd(SESSION);
  await expect(console.turn(2)).toContainText('1 file');
  await expect(console.turn(2)).not.toContainText('live');
  await expect(console.fileButton('two.txt')).toBeVisible();
});
