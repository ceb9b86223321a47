import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, saveScreenshot, test } from './fixtures';

test('the 401 page appears when the URL carries a bad token', async ({ page, turnback }) => {
  const response = await page.goto(`${turnback.origin}/?token=not-the-token`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'This console is not signed in' })).toBeVisible();
  await expect(page.getByText(/Reopen the tokenized URL/)).toBeVisible();
  await saveScreenshot(page, 'console-401');
});

test('a tab holding the session of an earlier run of the server stops and says to open turnback url', async ({
  page,
  turnback,
}) => {
  await page.goto(`${turnback.origin}/`);
  await page.evaluate(() =>
    window.sessionStorage.setItem('turnback.session', JSON.stringify({ salt: 'an-earlier-run', key: 'its-key' })),
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'turnback restarted elsewhere' })).toBeVisible();
  await expect(page.getByText('turnback url', { exact: true })).toBeVisible();

  // Reopening the tokenized URL signs the tab in.
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('heading', { name: 'No sessions yet' })).toBeVisible();
  await saveScreenshot(page, 'console-empty');
});

test('without a token the console says to open the URL turnback printed', async ({ page, turnback }) => {
  await page.goto(`${turnback.origin}/`);
  await expect(page.getByRole('heading', { name: 'Open the URL turnback printed' })).toBeVisible();
  await expect(page.getByText(`turnback listening on ${turnback.origin}/?token=<token>`)).toBeVisible();
  await saveScreenshot(page, 'console-no-token');
});

/** A page on another local port, as a dev server an agent starts would serve. */
async function otherPortPage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>another local server</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('no credential is ever a cookie: a reload keeps working, and a page on another local port gets nothing', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn('auth-1', 'Write the notes', () => agent.write('auth-1', 'notes.md', 'notes\n'));
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('listbox', { name: 'Turns' }).getByRole('option', { name: /^#1 / })).toBeVisible();
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  expect(await page.context().cookies()).toEqual([]);

  await page.reload();
  await expect(page.getByRole('listbox', { name: 'Turns' }).getByRole('option', { name: /^#1 / })).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);

  const other = await otherPortPage();
  try {
    const stranger = await page.context().newPage();
    await stranger.goto(other.origin);
    expect(await stranger.evaluate(() => document.cookie)).toBe('');
    expect(await page.context().cookies(other.origin)).toEqual([]);
    // A request from there carries no credential (no cookie exists to send): 401.
    const answered = stranger.waitForResponse((response) =>
      response.url().startsWith(`${turnback.origin}/api/sessions`),
    );
    await stranger.evaluate(
      (url) =>
        fetch(url, { mode: 'no-cors', credentials: 'include' }).then(
          () => 'sent',
          () => 'failed',
        ),
      `${turnback.origin}/api/sessions`,
    );
    expect((await answered).status()).toBe(401);
    // And a page of its own cannot read anything from turnback's origin either.
    const read = await stranger.evaluate(
      (url) =>
        fetch(url, { credentials: 'include' }).then(
          (r) => r.text(),
          () => 'refused',
        ),
      `${turnback.origin}/api/sessions`,
    );
    expect(read).toBe('refused');
    await stranger.close();
  } finally {
    await new Promise((resolve) => other.server.close(resolve));
  }
});
