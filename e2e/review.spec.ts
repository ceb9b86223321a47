import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'review-1';

test("the preview shows each path's diff, names the later turn behind a conflict, and lists commands and folders", async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('config.json', '{"version": 0}\n');
  await agent.turn(SESSION, 'Bump the version and add assets', async () => {
    await agent.write(SESSION, 'config.json', '{"version": 1}\n');
    await agent.write(SESSION, 'assets/logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    await agent.write(SESSION, 'assets/icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    await agent.write(SESSION, 'notes.md', 'notes\n');
    await agent.exec(SESSION, 'npm run build');
  });
  await agent.turn(SESSION, 'Bump to version 2', () => agent.write(SESSION, 'config.json', '{"version": 2}\n'));

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  const dialog = await console.action('Undo turn');

  const conflicts = dialog.group('Changed since the turn (conflicts)');
  await expect(conflicts).toContainText('config.json — changed since by #2 “Bump to version 2”');
  await conflicts.getByRole('button', { name: "Show #2's change" }).click();
  await expect(conflicts).toContainText('Before #2 → After #2');
  await expect(conflicts).toContainText('"version": 2');

  const restore = dialog.group('Restore to their earlier content');
  await restore
    .getByRole('listitem')
    .filter({ hasText: 'config.json' })
    .getByRole('button', { name: 'Show diff' })
    .click();
  await expect(restore).toContainText('Now → After the restore');
  await expect(restore).toContainText('"version": 0');

  await expect(dialog.group('Folders removed')).toContainText('assets/');
  await expect(dialog.group('Shell commands of this turn')).toContainText('npm run build');
  await saveScreenshot(page, 'console-preview-conflict');

  // Files and chat: the same dialog, now listing the messages it deletes.
  await dialog.root.getByRole('radio', { name: 'Files and chat' }).check();
  await expect(dialog.group('Messages to delete')).toContainText('Bump the version and add assets');
  await dialog.root.getByRole('radio', { name: 'Files only' }).check();
  await expect(dialog.group('Messages to delete')).toHaveCount(0);
});

test('a selective restore names the folder it removes', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Add assets and code', async () => {
    await agent.write(SESSION, 'assets/a.svg', '<svg/>\n');
    await agent.write(SESSION, 'assets/b.svg', '<svg/>\n');
    await agent.write(SESSION, 'src/a.ts', 'a\n');
    await agent.write(SESSION, 'src/b.ts', 'b\n');
  });
  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.fileCheckbox('assets/a.svg').check();
  await console.fileCheckbox('assets/b.svg').check();
  const dialog = await console.action(/^Undo 2 selected files$/);
  await expect(dialog.group('Folders removed')).toContainText('assets/ (the turn created it for the chosen files)');
  await expect(dialog.root).not.toContainText('src/a.ts');
  await dialog.confirm('Undo 2 files');
  await dialog.close();
  expect(await turnback.read('assets/a.svg')).toBeNull();
  expect(await turnback.read('src/a.ts')).toBe('a\n');
});

test('"Redo" stays on the undo turn and on the turn it undid', async ({ page, turnback }) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('notes.md', 'my notes\n');
  await agent.turn(SESSION, 'Rewrite my notes', () => agent.write(SESSION, 'notes.md', 'agent notes\n'));
  await turnback.open(page);
  const console = new ConsolePage(page);
  const dialog = await console.action('Undo turn');
  await dialog.confirm('Undo turn');
  await dialog.close();
  expect(await turnback.read('notes.md')).toBe('my notes\n');

  // Long after the result dialog is gone, both turns still offer the undo.
  await console.selectTurn(2);
  await expect(console.detail.getByRole('button', { name: 'Redo' })).toBeVisible();
  await console.selectTurn(1);
  const undo = await console.action('Redo');
  await expect(undo.root.getByRole('heading', { name: 'Redo: take back undo #2' })).toBeVisible();
  await expect(undo.group('Restore to their earlier content')).toContainText('notes.md');
  await undo.confirm('Redo');
  await undo.close();
  expect(await turnback.read('notes.md')).toBe('agent notes\n');
  await expect(console.turn(1)).not.toContainText('undone');
  await expect(console.detail.getByRole('button', { name: 'Redo' })).toHaveCount(0);
});
