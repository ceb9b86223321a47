// Screenshots of what the workspaces and the console fixes changed, at 1400 and 800 px, light
// and dark, into e2e/artifacts/ for people to look at. The assertions only make sure each view
// is the one named.
import { chmod, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Workspace } from '../server/protocol';
import { workspaceIdOf } from '../server/state-dir';
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'shots-ws-1';

for (const width of [1400, 800]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`workspace screenshots at ${width} px, ${scheme}`, async ({ page, turnback }) => {
      test.setTimeout(120_000);
      const { agent, api } = turnback;
      const made: string[] = [];
      try {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await turnback.writeOnDisk('run.sh', '#!/bin/sh\necho run\n');
        await chmod(path.join(turnback.workspace, 'run.sh'), 0o755);
        await agent.turn(SESSION, 'Write the notes and the list', async () => {
          await agent.write(SESSION, 'notes/a.txt', 'a\n');
          await agent.write(SESSION, 'notes/b.txt', 'b\n');
          await agent.write(SESSION, 'todo.txt', 'one\n');
        });
        const second = await agent.turn(
          SESSION,
          'Drop the notes, update the list, make run.sh plain and run the tests',
          async () => {
            await agent.post('/api/agent/fs/delete', { sessionId: SESSION, uri: 'workspace:/notes', recursive: true });
            await agent.write(SESSION, 'todo.txt', 'two\n');
            const { execId } = await agent.exec(SESSION, 'chmod -x run.sh && npm test');
            await chmod(path.join(turnback.workspace, 'run.sh'), 0o644);
            await agent.execEnd(SESSION, execId!);
          },
        );
        await api.post(`/api/turns/${second}/rollback`, { uris: ['workspace:/todo.txt'] });
        const other = await mkdtemp(path.join(tmpdir(), 'turnback-e2e-shots-second-'));
        const broken = await mkdtemp(path.join(tmpdir(), 'turnback-e2e-shots-broken-'));
        made.push(other, broken);
        await api.post<{ workspace: Workspace }>('/api/workspaces', { path: other });
        // Its data folder is a file before it is registered: the service's background index build opens
        // a workspace's engine as soon as it is registered, so breaking it afterwards would race that open.
        await writeFile(path.join(turnback.dataDir, workspaceIdOf(await realpath(broken))), 'not a folder\n');
        const { workspace: third } = await api.post<{ workspace: Workspace }>('/api/workspaces', { path: broken });
        await api.get(`/api/workspaces/${third.id}/sessions`).catch(() => undefined);

        await turnback.open(page);
        const console = new ConsolePage(page);
        const name = `ws-${width}-${scheme}`;
        await console.selectTurn(2);
        await expect(console.turn(2)).toContainText('partly undone');
        await expect(console.files).toContainText('mode 755 → 644');
        await saveScreenshot(page, `${name}-turn`);

        await console.fileCheckbox('notes/a.txt').check();
        const dialog = await console.action(/^Undo 1 selected file$/);
        await expect(dialog.group('Folders created')).toContainText('notes/');
        await saveScreenshot(page, `${name}-preview`);
        await dialog.root.getByRole('button', { name: 'Cancel' }).click();

        await page
          .getByRole('list', { name: 'Workspaces' })
          .getByRole('button', { name: new RegExp(`^Workspace ${third.name},`) })
          .click();
        await expect(page.getByRole('alert')).toContainText('This workspace is not recording');
        await saveScreenshot(page, `${name}-not-recording`);
      } finally {
        await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
      }
    });
  }
}
