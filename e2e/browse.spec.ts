import { rename } from 'node:fs/promises';
import path from 'node:path';
import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'browse-1';

test('browse to a turn and see its diff', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Create the greeting module', () =>
    agent.write(SESSION, 'src/greet.ts', 'export function greet(name: string) {\n  return "Hello " + name;\n}\n'),
  );
  await agent.turn(
    SESSION,
    'Greet politely and add a README',
    async () => {
      await agent.write(
        SESSION,
        'src/greet.ts',
        'export function greet(name: string) {\n  return `Good morning, ${name}!`;\n}\n',
      );
      await agent.write(SESSION, 'README.md', '# Greeter\n');
    },
    'Updated the greeting and added a README.',
  );

  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.session(SESSION)).toHaveAttribute('aria-current', 'true');
  await expect(console.turn(2)).toContainText('Greet politely and add a README');
  await expect(console.turn(2)).toContainText('2 files');

  await console.selectTurn(2);
  const diff = await console.showDiff('src/greet.ts');
  await expect(diff.getByText('Before #2')).toBeVisible();
  await expect(diff).toContainText('return "Hello " + name;');
  await expect(diff).toContainText('Good morning, ${name}!');
  await saveScreenshot(page, 'console-diff-split');

  await diff.getByRole('button', { name: 'Unified' }).click();
  await expect(diff.getByRole('button', { name: 'Unified' })).toHaveAttribute('aria-pressed', 'true');
  await expect(diff).toContainText('Good morning, ${name}!');
  await saveScreenshot(page, 'console-diff-unified');

  const created = await console.showDiff('README.md');
  await expect(created.getByText('Did not exist before the turn')).toBeVisible();
  await expect(created).toContainText('# Greeter');

  await console.selectTurn(1);
  await expect(console.detail.getByRole('heading', { name: 'Create the greeting module' })).toBeVisible();
  await expect(console.diff('src/greet.ts')).toContainText('return "Hello " + name;');
});

test('the exec badges: a quiet mark where the commands were captured, a warning where they were not', async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Edit only', () => agent.write(SESSION, 'a.txt', 'a\n'));
  await agent.turn(SESSION, 'Install and migrate', async () => {
    await agent.write(SESSION, 'b.txt', 'b\n');
    const { execId } = await agent.exec(SESSION, 'npm install && npm run migrate');
    await turnback.writeOnDisk('db/schema.sql', 'create table todo (id int);\n');
    await agent.execEnd(SESSION, execId!);
  });
  // Two sessions' commands at once: what changed meanwhile is said to be theirs both, not captured alone.
  await agent.turn(SESSION, 'Build while another session runs', async () => {
    await agent.input('browse-2', 'the other session');
    const other = await agent.exec('browse-2', 'npm run watch');
    const { execId } = await agent.exec(SESSION, 'npm run build');
    await turnback.writeOnDisk('dist/app.js', 'built\n');
    await agent.execEnd(SESSION, execId!);
    await agent.execEnd('browse-2', other.execId!);
    await agent.turnEnd('browse-2');
  });

  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  const warning = console.turn(3).getByText('partially unprotected');
  await expect(warning).toBeVisible();
  await expect(warning).toHaveAttribute('title', /shell commands.*not covered/i);
  const quiet = console.turn(2).getByText('shell changes captured');
  await expect(quiet).toBeVisible();
  await expect(quiet).toHaveAttribute('title', /scanned before and after/i);
  await expect(console.turn(2).getByText('partially unprotected')).toHaveCount(0);
  await expect(console.turn(1).getByText(/partially unprotected|shell changes captured/)).toHaveCount(0);

  await console.selectTurn(2);
  await console.tab('Steps').click();
  const commands = console.detail.getByRole('list', { name: 'Shell commands of this turn' });
  await expect(commands).toContainText('npm install && npm run migrate');
  await commands.getByText('Changed 2 paths').click();
  await expect(commands.getByRole('list', { name: /Paths changed by/ })).toContainText('db/schema.sql');
  await saveScreenshot(page, 'console-exec-commands');
});

test('a deep link survives reload, and back/forward restore the view', async ({ page, turnback }) => {
  const { agent } = turnback;
  const first = await agent.turn(SESSION, 'First turn', () => agent.write(SESSION, 'one.txt', 'first file\n'));
  await agent.turn(SESSION, 'Second turn', async () => {
    await agent.write(SESSION, 'two.txt', 'second file\n');
    await agent.write(SESSION, 'three.txt', 'third file\n');
  });

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  await console.showDiff('two.txt');
  const link = page.url();
  expect(new URL(link).searchParams.get('file')).toBe('workspace:/two.txt');

  await page.reload();
  await expect(console.turn(2)).toHaveAttribute('aria-selected', 'true');
  await expect(console.fileButton('two.txt')).toHaveAttribute('aria-current', 'true');
  await expect(console.diff('two.txt')).toContainText('second file');

  // A link opens the same view in a fresh tab opened from the printed URL (the token stays per tab).
  const other = await page.context().newPage();
  await other.goto(`${link}&token=${encodeURIComponent(turnback.token)}`);
  await expect(new ConsolePage(other).diff('two.txt')).toContainText('second file');
  await other.close();

  await console.selectTurn(1);
  await expect(page).toHaveURL(new RegExp(`turn=${first}`));
  await page.goBack();
  await expect(console.turn(2)).toHaveAttribute('aria-selected', 'true');
  await expect(console.diff('two.txt')).toBeVisible();
  await page.goForward();
  await expect(console.turn(1)).toHaveAttribute('aria-selected', 'true');
});

test('arrow keys and j/k move through turns and files', async ({ page, turnback }) => {
  const { agent } = turnback;
  for (const n of [1, 2, 3]) await agent.turn(SESSION, `Turn ${n}`, () => agent.write(SESSION, `f${n}.txt`, `${n}\n`));
  await agent.turn(SESSION, 'Two files', async () => {
    await agent.write(SESSION, 'x.txt', 'x\n');
    await agent.write(SESSION, 'y.txt', 'y\n');
  });

  await turnback.open(page);
  const console = new ConsolePage(page);
  await expect(console.turn(4)).toHaveAttribute('aria-selected', 'true');
  await console.timeline.focus();
  await page.keyboard.press('ArrowDown');
  await expect(console.turn(3)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(console.turn(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  await expect(console.turn(4)).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('ArrowRight');
  await expect(console.fileButton('x.txt')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(console.fileButton('y.txt')).toHaveAttribute('aria-current', 'true');
  await expect(console.diff('y.txt')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(console.timeline).toBeFocused();
});

test('a long command shows its first characters, and the whole kept text once opened', async ({ page, turnback }) => {
  const { agent } = turnback;
  const heredoc = `cat > notes.md <<'EOF'\n${'a line of the heredoc\n'.repeat(5_000)}EOF`;
  await agent.turn(SESSION, 'Write the notes by heredoc', async () => {
    const { execId } = await agent.exec(SESSION, heredoc);
    await turnback.writeOnDisk('notes.md', 'a line of the heredoc\n');
    await agent.execEnd(SESSION, execId!);
  });
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  await console.tab('Steps').click();
  const commands = console.detail.getByRole('list', { name: 'Shell commands of this turn' });
  await expect(commands.locator('.command__text')).toHaveText(/^cat > notes\.md <<'EOF'[\s\S]*…$/);
  const open = commands.getByRole('button', { name: /Show the whole command \(107/ });
  await open.click();
  await expect(commands.getByText(/Only its first 64 KiB are kept/)).toBeVisible();
  expect((await commands.locator('.command__text').textContent())!.length).toBeGreaterThan(60_000);
  await saveScreenshot(page, 'console-exec-long-command');
  await commands.getByRole('button', { name: 'Show less' }).click();
  await expect(commands.getByRole('button', { name: /Show the whole command/ })).toBeVisible();
});

test('a shell mv is one renamed row, counted as one file', async ({ page, turnback }) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('src/old-name.ts', 'export const name = "old";\n');
  await agent.turn(SESSION, 'Rename the module with mv', async () => {
    const { execId } = await agent.exec(SESSION, 'mv src/old-name.ts src/new-name.ts');
    await rename(path.join(turnback.workspace, 'src/old-name.ts'), path.join(turnback.workspace, 'src/new-name.ts'));
    await agent.execEnd(SESSION, execId!);
  });
  await turnback.open(page, `?session=${SESSION}`);
  const console = new ConsolePage(page);
  await expect(console.turn(1)).toContainText('1 file');
  await console.selectTurn(1);
  await expect(console.detail.getByText('Files (1)')).toBeVisible();
  await expect(console.files).toContainText('from src/old-name.ts');
  await expect(console.files).toContainText(/renamed/i);
  await expect(console.files).not.toContainText(/deleted|created/i);
  await saveScreenshot(page, 'console-shell-mv');
});
