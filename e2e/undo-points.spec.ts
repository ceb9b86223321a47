// Finer undo points from the console: one step of a turn, a pin rewound to, two turns
// compared, and both sides of a conflict kept.
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { seedSteps } from './seed-steps';

const SESSION = 'points-1';

test('undo one step from the Steps tab: its path goes back, the rest stays; a later step of the turn is a named conflict', async ({
  page,
  turnback,
}) => {
  await seedSteps(turnback.agent, SESSION);
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  await console.tab('Steps').click();
  const steps = console.detail.getByRole('list', { name: 'Steps of this turn' });
  await expect(steps.getByRole('listitem').filter({ hasText: 'Edit(b.txt)' })).toContainText('b.txt');
  await expect(console.tab('Steps')).toHaveText('Steps (3)');

  await steps.getByRole('button', { name: 'Undo step 2: Edit(b.txt)' }).click();
  const dialog = console.dialog();
  await expect(dialog.root.getByRole('heading', { name: 'Undo step 2 of turn #2' })).toBeVisible();
  await expect(dialog.group('Restore to their earlier content')).toContainText('b.txt');
  await expect(dialog.root).not.toContainText('a.txt');
  await dialog.confirm('Undo step 2');
  await expect(dialog.group('Restored')).toContainText('b.txt');
  await dialog.close();
  expect(await turnback.read('b.txt')).toBe('b original\n');
  expect(await turnback.read('a.txt')).toBe('a second edit\n');

  await steps.getByRole('button', { name: 'Undo step 1: Edit(a.txt)' }).click();
  await expect(dialog.group('Changed since the turn (conflicts)')).toContainText(
    'a.txt — changed again by step 3 “Write(a.txt)” of this turn',
  );
  await expect(dialog.root.getByRole('button', { name: 'Undo step 1' })).toBeDisabled();
  await dialog.overwrite.check();
  await dialog.confirm('Undo step 1');
  await dialog.close();
  expect(await turnback.read('a.txt')).toBe('a original\n');
  await expect(console.turn(2)).toContainText('partly undone');
});

test('pin this point, let a turn change things, then rewind to the pin through its preview', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Write the good version', () => agent.write(SESSION, 'p.txt', 'known good\n'));
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await page.getByRole('banner').getByRole('button', { name: 'Pin this point' }).click();
  const dialog = console.dialog();
  await dialog.root.getByLabel('Name').fill('Known good');
  await dialog.root.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(dialog.root).toBeHidden();
  await expect(console.turn(1)).toContainText('Known good');
  await expect(console.turn(1)).toContainText('pin');

  await agent.turn(SESSION, 'Break it', async () => {
    await agent.write(SESSION, 'p.txt', 'broken\n');
    await agent.write(SESSION, 'extra.txt', 'made after the pin\n');
  });
  await page.getByRole('region', { name: 'Pins' }).getByRole('button', { name: 'Pin Known good' }).click();
  await console.detail
    .getByRole('toolbar', { name: 'Turn actions' })
    .getByRole('button', { name: 'Rewind to this pin' })
    .click();
  await expect(dialog.root.getByRole('heading', { name: 'Rewind to pin “Known good”' })).toBeVisible();
  await expect(dialog.group('Restore to their earlier content')).toContainText('p.txt');
  await expect(dialog.group('Delete (did not exist before)')).toContainText('extra.txt');
  await dialog.confirm('Rewind to the pin');
  await dialog.close();
  expect(await turnback.read('p.txt')).toBe('known good\n');
  expect(await turnback.read('extra.txt')).toBeNull();
});

test('compare two turns: each path that differs, through the diff viewer', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'First', () => agent.write(SESSION, 'notes.md', 'alpha\n'));
  await agent.turn(SESSION, 'Second', () => agent.write(SESSION, 'notes.md', 'alpha\nbeta\n'));
  await agent.turn(SESSION, 'Third', async () => {
    await agent.write(SESSION, 'notes.md', 'alpha\nbeta\ngamma\n');
    await agent.write(SESSION, 'todo.md', 'ship it\n');
  });
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(3);
  await console.detail
    .getByRole('toolbar', { name: 'Turn actions' })
    .getByRole('button', { name: 'Compare with…' })
    .click();
  const dialog = console.dialog();
  await dialog.root.getByLabel('From (the end of)').selectOption({ label: '#1 First' });
  const paths = dialog.root.getByRole('list', { name: 'Paths that differ' });
  await expect(paths.getByRole('listitem')).toHaveCount(2);
  await paths.getByRole('button', { name: 'Compare notes.md' }).click();
  const diff = dialog.root.getByRole('region', { name: 'Diff of notes.md' });
  await expect(diff.getByLabel('At #1 First')).toBeVisible();
  await expect(diff).toContainText('gamma');
  await paths.getByRole('button', { name: 'Compare todo.md' }).click();
  await expect(dialog.root.getByRole('region', { name: 'Diff of todo.md' })).toContainText(
    'Does not exist at #1 First',
  );
  await saveScreenshot(page, 'console-compare');
});

test('keep both on a conflict row: the later version stays, the restored one is written beside it', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Write the config', () => agent.write(SESSION, 'config.json', '{"v": 1}\n'));
  await agent.turn(SESSION, 'Change the config', () => agent.write(SESSION, 'config.json', '{"v": 2}\n'));
  await turnback.writeOnDisk('config.json', '{"v": 3, "mine": true}\n');
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  const dialog = await console.action('Undo turn');
  const conflicts = dialog.group('Changed since the turn (conflicts)');
  await expect(conflicts).toContainText('config.json');
  await conflicts.getByRole('button', { name: /^Keep both/ }).click();
  await expect(dialog.group('Keep both')).toContainText('config.json — restored version to config.json.turnback-2');
  await expect(dialog.group('Changed since the turn (conflicts)')).toHaveCount(0);
  await dialog.confirm('Undo turn');
  await expect(dialog.group('Kept both')).toContainText('config.json.turnback-2');
  await dialog.close();
  expect(await turnback.read('config.json')).toBe('{"v": 3, "mine": true}\n');
  expect(await turnback.read('config.json.turnback-2')).toBe('{"v": 1}\n');
});
