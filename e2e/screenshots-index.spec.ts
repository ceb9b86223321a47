// Screenshots of a workspace whose index is being built and of one whose build failed, at 1400
// and 800 px, light and dark, into e2e/artifacts/ for people to look at. The service's list is
// patched in the browser (a real build of a big tree would be over before the shot): the
// assertions only make sure each view shows what the patch says.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IndexBuildStatus, Workspace } from '../server/protocol';
import { expect, saveScreenshot, test } from './fixtures';

const BUILDING: IndexBuildStatus = {
  state: 'building',
  filesFound: 41_200,
  filesIndexed: 25_956,
  bytesStored: 0,
  percent: 63,
};
const FAILED: IndexBuildStatus = {
  state: 'failed',
  filesFound: 0,
  filesIndexed: 0,
  bytesStored: 0,
  percent: 0,
  reason: 'the folder /srv/monorepo/vendor cannot be listed (EACCES)',
};

for (const width of [1400, 800]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`index build screenshots at ${width} px, ${scheme}`, async ({ page, turnback }) => {
      const { api } = turnback;
      const made = await Promise.all([1, 2].map(() => mkdtemp(path.join(tmpdir(), 'turnback-e2e-shots-index-'))));
      try {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const ids: string[] = [];
        for (const dir of made)
          ids.push((await api.post<{ workspace: Workspace }>('/api/workspaces', { path: dir })).workspace.id);
        await page.route('**/api/workspaces', async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { workspaces: Workspace[] };
          for (const w of body.workspaces) {
            if (w.id === ids[0]) w.index = BUILDING;
            if (w.id === ids[1]) w.index = FAILED;
          }
          await route.fulfill({ response, json: body });
        });
        await turnback.open(page);
        const list = page.getByRole('list', { name: 'Workspaces' });
        await expect(list).toContainText('Indexing 41,200 files… 63%');
        await expect(list).toContainText('Index not built: the folder /srv/monorepo/vendor cannot be listed');
        await saveScreenshot(page, `index-${width}-${scheme}-list`);
        await list.getByRole('button', { name: new RegExp(`^Workspace ${path.basename(made[0])},`) }).click();
        await expect(page.getByText('Indexing 63%')).toBeVisible();
        await saveScreenshot(page, `index-${width}-${scheme}-building`);
      } finally {
        await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
      }
    });
  }
}
