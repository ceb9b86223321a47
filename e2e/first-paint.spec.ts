import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

test("the timeline paints from the first answer, and the console's code comes compressed", async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn('paint-1', 'First request', () => agent.write('paint-1', 'a.txt', 'a\n'));
  await agent.turn('paint-1', 'Second request', () => agent.write('paint-1', 'b.txt', 'b\n'));
  // Opened from the printed URL; the reload below then signs in with the session key the tab kept.
  await page.goto(turnback.loginUrl);
  await expect(new ConsolePage(page).turn(2)).toBeVisible();

  const api: string[] = [];
  const encodings = new Map<string, string | undefined>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/events') api.push(`${url.pathname}${url.search}`);
  });
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/'))
      encodings.set(response.url(), (await response.allHeaders())['content-encoding']);
  });
  await page.reload();
  const console = new ConsolePage(page);
  await expect(console.turn(2)).toBeVisible();
  // One answer carries the sessions and the newest session's turns: no request for the turns.
  expect(api.filter((path) => /^\/api\/sessions\/[^/]+\/turns/.test(path))).toEqual([]);
  expect(api.some((path) => path.startsWith('/api/sessions?turns='))).toBe(true);

  await expect(console.detail.getByRole('heading', { name: 'Second request' })).toBeVisible();
  // The first file's diff comes from a lazily loaded chunk: it arrives compressed too.
  await expect(console.diff('b.txt')).toContainText('b');
  const scripts = [...encodings.entries()].filter(([url]) => url.endsWith('.js') || url.endsWith('.css'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const [url, encoding] of scripts) expect(encoding, url).toBe('br');
});
