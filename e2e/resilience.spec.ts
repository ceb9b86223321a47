import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'resilience-1';

test('when the server stops, the console says so within 2 s, keeps what it showed and disables actions', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Write the plan', () => agent.write(SESSION, 'plan.md', 'v1\n'));
  await agent.turn(SESSION, 'Revise the plan', () => agent.write(SESSION, 'plan.md', 'v2\n'));
  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await expect(console.diff('plan.md')).toContainText('v2');

  await turnback.stop();
  const stoppedAt = Date.now();
  await expect(page.getByRole('alert').filter({ hasText: 'The server is not answering' })).toBeVisible({
    timeout: 2_000,
  });
  expect(Date.now() - stoppedAt).toBeLessThan(2_000);
  await expect(console.turn(2)).toBeVisible();
  await expect(console.turn(1)).toBeVisible();
  await expect(console.diff('plan.md')).toContainText('v2');
  const actions = console.detail.getByRole('toolbar', { name: 'Turn actions' });
  await expect(actions.getByRole('button', { name: 'Undo turn', exact: true })).toBeDisabled();
  await expect(actions.getByRole('button', { name: 'Rewind to here' })).toBeDisabled();
  await expect(page.getByText('Could not load turns')).toHaveCount(0);
});

test('a live turn arriving does not move a reader further down the timeline', async ({ page, turnback }) => {
  test.setTimeout(120_000);
  const { agent } = turnback;
  for (let n = 1; n <= 120; n++) await agent.input(SESSION, `Request number ${n}`);
  await agent.turnEnd(SESSION);
  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(120)).toBeVisible();
  await console.timeline.evaluate((list) => {
    list.scrollTop = 58 * 60;
  });
  await console.turn(58).click();
  await expect(console.turn(58)).toHaveAttribute('aria-selected', 'true');
  const before = (await console.turn(58).boundingBox())!.y;

  await agent.turn(SESSION, 'A new request while the reader reads', () => agent.write(SESSION, 'x.txt', 'x\n'));
  await agent.turn(SESSION, 'And another', () => agent.write(SESSION, 'y.txt', 'y\n'));
  await expect(page.getByRole('heading', { name: 'Turns 122' })).toBeVisible();
  await expect.poll(async () => Math.round((await console.turn(58).boundingBox())!.y)).toBe(Math.round(before));
  expect(await console.timeline.evaluate((list) => list.scrollTop)).toBeGreaterThan(0);
});

test('a session that no longer exists says so and offers the others', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn('kept-1', 'Keep this one', () => agent.write('kept-1', 'a.txt', 'a\n'));
  await turnback.open(page, '?session=pruned-long-ago');
  const gone = page.getByRole('alert').filter({ hasText: 'This session no longer exists' });
  await expect(gone).toBeVisible();
  await expect(gone).toContainText('pruned-long-ago');
  await gone.getByRole('button', { name: 'Keep this one' }).click();
  await expect(new ConsolePage(page).turn(1)).toContainText('Keep this one');
});
