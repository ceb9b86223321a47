// Five things a newcomer found wrong in the console, each pinned where a person sees it.
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'defects-1';

/** A line long enough to wrap several times in the diff column. */
const longLine = (n: number, word: string) => `${n}: ${`${word} `.repeat(12).trim()}`;

for (const width of [1400, 1100, 800])
  test(`a wrapped diff shows its last line without scrolling inside the diff at ${width} px`, async ({
    page,
    turnback,
  }) => {
    const { agent } = turnback;
    await page.setViewportSize({ width, height: 900 });
    const before = Array.from({ length: 7 }, (_, i) => longLine(i + 1, 'before'));
    const after = before.map((line, i) => (i % 2 === 0 ? longLine(i + 1, 'after') : line));
    after[6] = 'the very last line';
    await agent.turn(SESSION, 'Write the notes', () => agent.write(SESSION, 'notes.md', `${before.join('\n')}\n`));
    await agent.turn(SESSION, 'Rewrite the notes', () => agent.write(SESSION, 'notes.md', `${after.join('\n')}\n`));
    await turnback.open(page);
    const console = new ConsolePage(page);
    await console.selectTurn(2);
    const diff = await console.showDiff('notes.md');
    await expect(diff.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'true');
    const last = diff.locator('[class*="content-text"]').filter({ hasText: 'the very last line' }).first();
    await expect(last).toBeVisible();
    // The page or pane may scroll (one column under 900 px, a header on two lines): bring the diff's
    // end into view, no more; a box scrolling inside the diff would still hide the last line.
    await diff.evaluate((region) => region.scrollIntoView({ block: 'end' }));
    // In view means not clipped by any box that scrolls: the diff grows with its wrapped rows.
    await expect(last).toBeInViewport({ ratio: 1 });
    const innerScroll = await diff.evaluate((region) =>
      [...region.querySelectorAll<HTMLElement>('*')].some((el) => {
        const style = getComputedStyle(el);
        return /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1 && el.clientHeight < 400;
      }),
    );
    expect(innerScroll, 'a small box scrolling inside the diff').toBe(false);
  });

test('a mode change reads "mode 755 → 644", with or without a content change', async ({ page, turnback }) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('run.sh', '#!/bin/sh\necho run\n');
  await turnback.writeOnDisk('build.sh', '#!/bin/sh\necho build\n');
  await chmod(path.join(turnback.workspace, 'run.sh'), 0o755);
  await chmod(path.join(turnback.workspace, 'build.sh'), 0o755);
  await agent.turn(SESSION, 'Make the scripts plain files', async () => {
    const { execId } = await agent.exec(
      SESSION,
      'chmod -x run.sh && sed -i s/build/make/ build.sh && chmod -x build.sh',
    );
    await chmod(path.join(turnback.workspace, 'run.sh'), 0o644);
    await turnback.writeOnDisk('build.sh', '#!/bin/sh\necho make\n');
    await chmod(path.join(turnback.workspace, 'build.sh'), 0o644);
    await agent.execEnd(SESSION, execId!);
  });
  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  const row = (name: string) =>
    console.files.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Show diff of ${name}` }) });
  await expect(row('run.sh')).toContainText('mode 755 → 644');
  await expect(row('build.sh')).toContainText('mode 755 → 644');
  await expect(row('build.sh')).toContainText('modified');
});

test('badges are never cut in the turn list at 1400 px', async ({ page, turnback }) => {
  const { agent } = turnback;
  await page.setViewportSize({ width: 1400, height: 900 });
  await agent.turn(SESSION, 'Set up', () => agent.write(SESSION, 'a.txt', 'a\n'));
  const second = await agent.turn(SESSION, 'Change a, add b and run the tests', async () => {
    await agent.write(SESSION, 'a.txt', 'a changed\n');
    await agent.write(SESSION, 'b.txt', 'b\n');
    const { execId } = await agent.exec(SESSION, 'npm test');
    await agent.execEnd(SESSION, execId!);
  });
  await turnback.api.post(`/api/turns/${second}/rollback`, { uris: ['workspace:/b.txt'] });
  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(2)).toContainText('partly undone');
  await expect(console.turn(2)).toContainText('shell changes captured');
  const badges = console.timeline.locator('.badge');
  expect(await badges.count()).toBeGreaterThan(2);
  for (const badge of await badges.all()) {
    const cut = await badge.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const row = el.closest('[role="option"]')!.getBoundingClientRect();
      const outside = box.right > row.right + 0.5 || box.bottom > row.bottom + 0.5;
      let clipped = el.scrollWidth > el.clientWidth + 1;
      for (
        let parent = el.parentElement;
        parent && parent.getAttribute('role') !== 'option';
        parent = parent.parentElement
      ) {
        const area = parent.getBoundingClientRect();
        if (
          getComputedStyle(parent).overflow !== 'visible' &&
          (box.right > area.right + 0.5 || box.bottom > area.bottom + 0.5)
        )
          clipped = true;
      }
      return outside || clipped;
    });
    expect(cut, `badge "${await badge.textContent()}" is cut`).toBe(false);
  }
});

test('the selective-restore preview lists the folder it creates, counts as the file list does, and reads plainly', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Write the notes', async () => {
    await agent.write(SESSION, 'notes/a.txt', 'a\n');
    await agent.write(SESSION, 'notes/b.txt', 'b\n');
    await agent.write(SESSION, 'todo.txt', 'one\n');
  });
  await agent.turn(SESSION, 'Drop the notes and update the list', async () => {
    await agent.post('/api/agent/fs/delete', { sessionId: SESSION, uri: 'workspace:/notes', recursive: true });
    await agent.write(SESSION, 'todo.txt', 'two\n');
  });
  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  await expect(console.detail.getByRole('tabpanel').getByText('3 files · 1 folder', { exact: true })).toBeVisible();
  await console.fileCheckbox('notes/a.txt').check();
  await expect(console.detail.getByText(/^1 of 3 files · 0 of 1 folder selected/)).toBeVisible();

  const dialog = await console.action(/^Undo 1 selected file$/);
  await expect(dialog.group('Restore to their earlier content')).toContainText('notes/a.txt');
  await expect(dialog.group('Folders created')).toContainText('notes/');
  await dialog.confirm('Undo 1 file');
  await expect(dialog.root.getByText('Done: 1 path is back to its state before the turn')).toBeVisible();
  await dialog.close();
  expect(await turnback.read('notes/a.txt')).toBe('a\n');
});

test('an undo is called an undo', async ({ page, turnback }) => {
  const { agent } = turnback;
  const first = await agent.turn(SESSION, 'Write the readme', () => agent.write(SESSION, 'README.md', '# hi\n'));
  const rollback = await turnback.api.post<{ rollbackTurnId: string }>(`/api/turns/${first}/rollback`, {});
  await turnback.api.post(`/api/turns/${rollback.rollbackTurnId}/rollback`, {});
  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(2)).toContainText('Undo of #1');
  await expect(console.turn(2)).toContainText('undo of #1');
  await expect(console.turn(3)).toContainText('Redo of #1');
  // The badge names the undo it takes back.
  await expect(console.turn(3)).toContainText('takes back #2');
  await console.selectTurn(3);
  await expect(console.detail.getByRole('heading', { level: 2 })).toHaveText('Redo of #1');
  expect(await turnback.read('README.md')).toBe('# hi\n');
});
