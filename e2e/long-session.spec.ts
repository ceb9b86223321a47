import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'long-1';
const TURNS = 1500; // more than one page of the timeline (1,000 turns per request)

test('a long session stays a short DOM and reaches its first turn across pages', async ({ page, turnback }) => {
  test.setTimeout(180_000);
  // A new input commits the turn before it, so one request per turn seeds the session.
  for (let n = 1; n <= TURNS; n++) await turnback.agent.input(SESSION, `Request number ${n}`);
  await turnback.agent.turnEnd(SESSION);

  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(TURNS)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: `Turns ${TURNS}` })).toBeVisible();
  expect(await console.timeline.getByRole('option').count()).toBeLessThan(60);

  await console.timeline.focus();
  await page.keyboard.press('End');
  await expect(console.turn(1)).toHaveAttribute('aria-selected', 'true');
  await expect(console.turn(1)).toBeInViewport();
  await expect(console.detail.getByRole('heading', { name: 'Request number 1' })).toBeVisible();
  expect(await console.timeline.getByRole('option').count()).toBeLessThan(60);
});
