import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'rollback-1';

test('select two of three files, roll them back, and only those change on disk', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Set up the project', async () => {
    await agent.write(SESSION, 'a.txt', 'a original\n');
    await agent.write(SESSION, 'c.txt', 'c original\n');
  });
  await agent.turn(SESSION, 'Change three files', async () => {
    await agent.write(SESSION, 'a.txt', 'a changed by the agent\n');
    await agent.write(SESSION, 'b.txt', 'b created by the agent\n');
    await agent.write(SESSION, 'c.txt', 'c changed by the agent\n');
  });

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  await console.fileCheckbox('a.txt').check();
  await console.fileCheckbox('b.txt').check();
  await expect(console.detail.getByText(/^2 of 3 selected/)).toBeVisible();
  await saveScreenshot(page, 'console-files-selected');

  const dialog = await console.action(/^Undo 2 selected files$/);
  await expect(dialog.group('Restore to their earlier content')).toContainText('a.txt');
  await expect(dialog.group('Delete (did not exist before)')).toContainText('b.txt');
  await expect(dialog.root).not.toContainText('c.txt');
  await dialog.confirm('Undo 2 files');
  await expect(dialog.group('Restored')).toContainText('a.txt');
  await expect(dialog.group('Deleted')).toContainText('b.txt');
  await saveScreenshot(page, 'console-rollback-result');
  await dialog.close();

  expect(await turnback.read('a.txt')).toBe('a original\n');
  expect(await turnback.read('b.txt')).toBeNull();
  expect(await turnback.read('c.txt')).toBe('c changed by the agent\n');
  await expect(console.turn(2)).toContainText('partly undone');
  await expect(console.turn(3)).toContainText('undo of #2');
});

test("rollback with chat removes the turn's messages in the UI and through the API", async ({ page, turnback }) => {
  const { agent } = turnback;
  const turnId = await agent.turn(
    SESSION,
    'Write the changelog',
    () => agent.write(SESSION, 'CHANGELOG.md', '# 1.0\n'),
    'I wrote CHANGELOG.md with the 1.0 entry.',
  );
  expect((await turnback.api.messagesOfTurn(SESSION, turnId)).map((message) => message.content)).toEqual([
    'Write the changelog',
    'I wrote CHANGELOG.md with the 1.0 entry.',
  ]);

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  await console.tab('Chat').click();
  const chat = console.detail.getByRole('list', { name: 'Chat messages of this turn' });
  await expect(chat).toContainText('I wrote CHANGELOG.md with the 1.0 entry.');

  const dialog = await console.action('Undo turn and its chat');
  const doomed = dialog.group('Messages to delete');
  await expect(doomed).toContainText('Write the changelog');
  await expect(doomed).toContainText('I wrote CHANGELOG.md with the 1.0 entry.');
  await saveScreenshot(page, 'console-rollback-with-chat');
  await dialog.confirm('Undo turn and its chat');
  await expect(dialog.root).toContainText("2 chat messages removed from turnback's record of the chat");
  await dialog.close();

  await console.selectTurn(1);
  await console.tab('Chat').click();
  await expect(console.detail.getByText('No chat messages belong to this turn.')).toBeVisible();
  expect(await turnback.api.messagesOfTurn(SESSION, turnId)).toEqual([]);
  expect(await turnback.read('CHANGELOG.md')).toBeNull();
});

test('a conflict dialog appears when a later turn changed the file, and "overwrite anyway" works', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('config.json', '{"version": 0}\n');
  await agent.turn(SESSION, 'Bump to version 1', () => agent.write(SESSION, 'config.json', '{"version": 1}\n'));
  await agent.turn(SESSION, 'Bump to version 2', () => agent.write(SESSION, 'config.json', '{"version": 2}\n'));

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  const dialog = await console.action('Undo turn');
  await expect(dialog.group('Changed since the turn (conflicts)')).toContainText('config.json');
  const confirm = dialog.root.getByRole('button', { name: 'Undo turn', exact: true });
  await expect(confirm).toBeDisabled();
  await saveScreenshot(page, 'console-conflict-dialog');

  await dialog.overwrite.check();
  await dialog.confirm('Undo turn');
  await expect(dialog.group('Restored')).toContainText('config.json');
  await dialog.close();
  expect(await turnback.read('config.json')).toBe('{"version": 0}\n');
});

test("Undo after a rollback restores the agent's version", async ({ page, turnback }) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('notes.md', 'my notes\n');
  await agent.turn(SESSION, 'Rewrite my notes', async () => {
    await agent.write(SESSION, 'notes.md', 'notes rewritten by the agent\n');
    await agent.write(SESSION, 'todo.md', '- ship it\n');
  });

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  const dialog = await console.action('Undo turn');
  await dialog.confirm('Undo turn');
  expect(await turnback.read('notes.md')).toBe('my notes\n');
  expect(await turnback.read('todo.md')).toBeNull();

  await dialog.undo();
  await saveScreenshot(page, 'console-undo');
  await dialog.close();
  expect(await turnback.read('notes.md')).toBe('notes rewritten by the agent\n');
  expect(await turnback.read('todo.md')).toBe('- ship it\n');
  await expect(console.turn(1)).not.toContainText('undone');
});
