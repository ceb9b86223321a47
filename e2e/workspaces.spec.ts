// One console for every workspace of the service: two workspaces with sessions, switching
// between them, a deep link to a turn of the second, and one that is not recording.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Workspace } from '../server/protocol';
import { workspaceIdOf } from '../server/state-dir';
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const extraDirs: string[] = [];
test.afterEach(async () => {
  await Promise.all(extraDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function newFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  extraDirs.push(dir);
  return dir;
}

test('two workspaces in one console: switching, a deep link to a turn of the second, and one that is not recording', async ({
  page,
  turnback,
}) => {
  const { agent, api } = turnback;
  // The default workspace (serve --workspace) and a second one registered beside it.
  await agent.turn('first-1', 'Write the first readme', () => agent.write('first-1', 'README.md', '# first\n'));
  const second = await newFolder('turnback-e2e-second-');
  const { workspace: other } = await api.post<{ workspace: Workspace }>('/api/workspaces', { path: second });
  const { turnId: begun } = await agent.post<{ turnId: string }>('/api/agent/input', {
    sessionId: 'second-1',
    platform: 'claude-code',
    sessionType: 'cli',
    content: 'Write the second notes',
    cwd: second,
  });
  await agent.write('second-1', 'notes.md', 'notes of the second workspace\n');
  await agent.turnEnd('second-1');
  await agent.turn('second-1', 'Extend the second notes', () =>
    agent.write('second-1', 'notes.md', 'notes of the second workspace\nand more\n'),
  );

  // A third whose store cannot be made: a file stands where its data dir goes.
  const broken = await newFolder('turnback-e2e-broken-');
  // Its data folder is a file before it is registered: the service's background index build opens
  // a workspace's engine as soon as it is registered, so breaking it afterwards would race that open.
  await writeFile(path.join(turnback.dataDir, workspaceIdOf(await realpath(broken))), 'not a folder\n');
  const { workspace: third } = await api.post<{ workspace: Workspace }>('/api/workspaces', { path: broken });
  await api.get(`/api/workspaces/${third.id}/sessions`).catch(() => undefined);

  await turnback.open(page);
  const console = new ConsolePage(page);
  const workspaces = page.getByRole('list', { name: 'Workspaces' });
  const item = (name: string) => workspaces.getByRole('button', { name: new RegExp(`^Workspace ${name},`) });
  const first = item(path.basename(turnback.workspace));
  const secondItem = item(other.name);
  const thirdItem = item(third.name);
  await expect(first).toHaveAttribute('aria-current', 'true');
  await expect(first).toContainText(turnback.workspace);
  await expect(secondItem).toContainText(second);
  await expect(thirdItem).toContainText(/Not recording: .+/);
  await expect(console.session('first-1')).toBeVisible();
  await expect(page.getByLabel(`Workspace ${path.basename(turnback.workspace)}`, { exact: true })).toBeVisible();
  await saveScreenshot(page, 'workspaces-1400-default');

  // Switching: the second workspace's sessions and turns, and the address names it.
  await secondItem.click();
  await expect(console.session('second-1')).toBeVisible();
  await expect(console.session('first-1')).toHaveCount(0);
  await expect(console.turn(2)).toContainText('Extend the second notes');
  await expect.poll(() => new URL(page.url()).searchParams.get('workspace')).toBe(other.id);
  await expect(page.getByLabel(`Workspace ${other.name}`, { exact: true })).toContainText(second);
  await saveScreenshot(page, 'workspaces-1400-second');

  // A deep link to the second workspace's first turn, opened in a fresh tab (signed in by the printed URL first).
  const link = `?workspace=${encodeURIComponent(other.id)}&session=second-1&turn=${encodeURIComponent(begun)}`;
  const tab = await page.context().newPage();
  await turnback.open(tab, link);
  const linked = new ConsolePage(tab);
  await expect(linked.turn(1)).toHaveAttribute('aria-selected', 'true');
  await expect(linked.detail.getByRole('heading', { level: 2 })).toHaveText('Write the second notes');
  await expect(await linked.showDiff('notes.md')).toContainText('notes of the second workspace');
  await tab.close();

  // The one that is not recording says so, in the sidebar and in the header once chosen.
  await thirdItem.click();
  await expect(page.getByLabel(`Workspace ${third.name}`, { exact: true })).toContainText('Not recording');
  await expect(page.getByRole('alert')).toContainText('This workspace is not recording');
  await expect(thirdItem).toHaveAttribute('aria-current', 'true');
  await saveScreenshot(page, 'workspaces-1400-not-recording');
});
