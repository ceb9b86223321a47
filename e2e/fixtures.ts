// Each test gets its own real server on a fresh temp workspace and data dir, an agent client
// to seed turns, and helpers to read and change files on disk.
import { test as base, expect, type Page } from '@playwright/test';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentClient } from './agent-client';
import { startServer, type ServerHandle } from './turnback-server';

export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

export interface Turnback extends ServerHandle {
  agent: AgentClient;
  /** The console token opens the console API too. */
  api: AgentClient;
  read(relativePath: string): Promise<string | null>;
  /** A change made outside turnback (the person's editor): makes drift. */
  writeOnDisk(relativePath: string, content: string): Promise<void>;
  /** Opens the printed (tokenized) URL, then `search` (e.g. `?session=…`) in the same tab. */
  open(page: Page, search?: string): Promise<void>;
}

export const test = base.extend<{ turnback: Turnback; pageProblems: string[] }>({
  // Uncaught errors and Content-Security-Policy violations fail the test that caused them.
  // It takes `turnback` so the check runs before the server stops: a request still in flight
  // when the test ends (a lazily loaded chunk) would otherwise fail and be blamed on the test.
  pageProblems: [
    async ({ turnback: _server, page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
          problems.push(`console: ${message.text()}`);
      });
      await use(problems);
      expect(problems, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  turnback: async ({}, use) => {
    const server = await startServer();
    const turnback: Turnback = {
      ...server,
      agent: new AgentClient(server.origin, server.agentToken),
      api: new AgentClient(server.origin, server.token),
      async read(relativePath) {
        try {
          return await readFile(path.join(server.workspace, relativePath), 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
          throw error;
        }
      },
      async writeOnDisk(relativePath, content) {
        const target = path.join(server.workspace, relativePath);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      },
      async open(page, search = '') {
        await page.goto(server.loginUrl);
        await expect(page.getByRole('banner')).toBeVisible();
        if (search) await page.goto(`${server.origin}/${search}`);
      },
    };
    try {
      await use(turnback);
    } finally {
      await server.stop();
    }
  },
});

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

export { expect };
