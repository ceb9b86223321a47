import { expect, saveScreenshot, test } from './fixtures';

test('the 401 page appears when the URL carries a bad token', async ({ page, turnback }) => {
  const response = await page.goto(`${turnback.origin}/?token=not-the-token`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'This console is not signed in' })).toBeVisible();
  await expect(page.getByText(/Reopen the tokenized URL/)).toBeVisible();
  await saveScreenshot(page, 'console-401');
});

test('the 401 page appears with a stale token cookie and says to reopen the printed URL', async ({ page, turnback }) => {
  // A browser that holds a token from an earlier launch of the server.
  await page.context().addCookies([{ name: `turnback_${turnback.port}`, value: 'not-the-token', url: turnback.origin }]);
  await page.goto(`${turnback.origin}/`);
  await expect(page.getByRole('heading', { name: 'This console is not signed in' })).toBeVisible();
  await expect(page.getByText(/Reopen the tokenized URL/)).toBeVisible();
  await expect(page.getByText(`turnback listening on ${turnback.origin}/?token=<token>`)).toBeVisible();

  // Reopening the tokenized URL signs the browser in.
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('heading', { name: 'No sessions yet' })).toBeVisible();
  await saveScreenshot(page, 'console-empty');
});

test('without a cookie the console shows the 401 page too', async ({ page, turnback }) => {
  await page.goto(`${turnback.origin}/`);
  await expect(page.getByRole('heading', { name: 'This console is not signed in' })).toBeVisible();
});
