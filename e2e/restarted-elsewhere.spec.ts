// Issue 36 S1: the person's tab must never hand its token, or anything that opens the service,
// to another user's listener on the port the service left. A real tab on a real service; the
// service stops; a recorder takes its port while the service comes back on another port; every
// request the recorder got is replayed against that service.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect, saveScreenshot, test } from './fixtures';
import { startServer, type ServerHandle } from './turnback-server';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** Another user's listener on `port`: records every request, answers like a server would. */
async function recorder(port: number): Promise<{ server: Server; seen: Recorded[] }> {
  const seen: Recorded[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? 'GET', url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"ok":true,"sessions":[]}');
  });
  // The port is free once the stopped service's last connection closed.
  for (let tries = 0; ; tries++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      return { server, seen };
    } catch (error) {
      if (tries > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

test('a tab never gives the listener on its old port anything that opens the service', async ({ page, turnback }) => {
  test.setTimeout(120_000);
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('heading', { name: 'No sessions yet' })).toBeVisible();
  const { port, token, agentToken } = turnback;

  await turnback.stop();
  const listener = await recorder(port);
  let restarted: ServerHandle | undefined;
  try {
    // The same tokens (the kept files), on another port: the old one is taken.
    restarted = await startServer({ token, agentToken });
    expect(restarted.port).not.toBe(port);

    await expect(page.getByRole('heading', { name: 'turnback restarted elsewhere' })).toBeVisible({
      timeout: 30_000,
    });
    await saveScreenshot(page, 'console-restarted-elsewhere');
    // The same page at 800 px and in dark, beside the 1400 px light one, for people to look at.
    for (const [width, scheme] of [
      [800, 'light'],
      [800, 'dark'],
      [1400, 'dark'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.getByRole('heading', { name: 'turnback restarted elsewhere' })).toBeVisible();
      await saveScreenshot(page, `${width}-${scheme}-restarted-elsewhere`);
    }
    expect(listener.seen.length).toBeGreaterThan(0);

    // Nothing it got carries the token.
    for (const request of listener.seen) expect(JSON.stringify(request)).not.toContain(token);
    // Nothing it got opens the service that runs now: each request replayed there, with the
    // credentials it carried (Authorization, ?session=, ?token=), is refused.
    for (const request of listener.seen) {
      const url = new URL(request.url, restarted.origin);
      if (url.pathname === '/api/hello') {
        // Public, and it carried nothing but the tab's nonce.
        expect([...url.searchParams.keys()]).toEqual(['nonce']);
        expect(request.headers.authorization).toBeUndefined();
        continue;
      }
      const replay = await fetch(url, {
        method: request.method,
        headers: request.headers.authorization ? { Authorization: request.headers.authorization } : {},
      });
      expect(replay.status, `${request.method} ${request.url}`).toBe(401);
      await replay.body?.cancel();
    }

    // The tab stopped: it asks the listener nothing more.
    const count = listener.seen.length;
    await page.waitForTimeout(5_000);
    expect(listener.seen.length).toBe(count);
  } finally {
    listener.server.closeAllConnections();
    listener.server.close();
    await restarted?.stop();
  }
});

test('a tab finds its service again when it comes back on the same port', async ({ page, turnback }) => {
  test.setTimeout(120_000);
  const { agent } = turnback;
  await agent.turn('back-1', 'Before the restart', () => agent.write('back-1', 'a.txt', 'a\n'));
  await page.goto(turnback.loginUrl);
  await expect(page.getByRole('option', { name: /^#1 / })).toBeVisible();
  const { port, token, agentToken } = turnback;
  await turnback.stop();
  // The same tokens and the same port, as the service's last-port makes it.
  let again: ServerHandle | undefined;
  for (let tries = 0; !again; tries++) {
    try {
      again = await startServer({ token, agentToken, port });
    } catch (error) {
      if (tries > 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await expect(page.getByRole('heading', { name: 'No sessions yet' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'turnback restarted elsewhere' })).toHaveCount(0);
  } finally {
    await again.stop();
  }
});
