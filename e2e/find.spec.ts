import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';
import { rename } from './seed';

const SESSION = 'find-1';

test('the timeline filters by prompt text and by path, searched by the server', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(SESSION, 'Add the login form', () => agent.write(SESSION, 'src/auth/Login.tsx', 'form\n'));
  await agent.turn(SESSION, 'Write the docs', () => agent.write(SESSION, 'docs/intro.md', '# Intro\n'));
  await agent.turn(SESSION, 'Polish the header', () => agent.write(SESSION, 'src/Header.tsx', 'header\n'));
  await turnback.open(page);
  const console = new ConsolePage(page);
  const filter = console.page.getByRole('searchbox', { name: 'Filter turns by prompt or path' });

  const asked = page.waitForRequest(
    (request) => request.url().includes('/turns?') && request.url().includes('q=login'),
  );
  await filter.fill('login');
  await asked;
  await expect(console.timeline.getByRole('option')).toHaveCount(1);
  await expect(console.turn(1)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Turns 1 of 3' })).toBeVisible();

  await filter.fill('src/');
  await expect(console.timeline.getByRole('option')).toHaveCount(2);
  await expect(console.turn(3)).toBeVisible();
  await expect(console.turn(1)).toBeVisible();

  await filter.fill('nothing like this');
  await expect(page.getByText('No turn’s prompt or paths contain “nothing like this”.')).toBeVisible();
  await filter.press('Escape');
  await expect(console.timeline.getByRole('option')).toHaveCount(3);
});

test("a turn's files are a collapsible tree; a rename is one row and every count agrees", async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  await turnback.writeOnDisk('src/old-name.ts', 'export const x = 1;\n');
  await agent.turn(SESSION, 'Restructure', async () => {
    await agent.write(SESSION, 'src/a/one.ts', '1\n');
    await agent.write(SESSION, 'src/a/two.ts', '2\n');
    await agent.write(SESSION, 'src/b/three.ts', '3\n');
    await agent.write(SESSION, 'top.md', 'top\n');
    await rename(agent, SESSION, 'src/old-name.ts', 'src/new-name.ts');
  });
  await turnback.open(page);
  const console = new ConsolePage(page);
  // Five files (the rename once), in the timeline, the tab, the toolbar and the header alike.
  await expect(console.turn(1)).toContainText('5 files');
  await expect(console.tab('Files')).toHaveText('Files (5)');
  await expect(console.detail.getByText('5 files · 2 folders').first()).toBeVisible();
  // The rename moved its line: the turn added four lines and removed none.
  await expect(console.turn(1)).toContainText('+4 −0');

  await expect(console.fileButton('src/new-name.ts')).toBeVisible();
  await expect(console.detail.getByText('from src/old-name.ts')).toBeVisible();
  await expect(console.fileButton('src/old-name.ts')).toHaveCount(0);

  const folder = console.files.getByRole('button', { name: /^a\/ 2 files/ });
  await expect(folder).toHaveAttribute('aria-expanded', 'true');
  await folder.click();
  await expect(folder).toHaveAttribute('aria-expanded', 'false');
  await expect(console.fileButton('src/a/one.ts')).toHaveCount(0);
  await expect(console.fileButton('src/b/three.ts')).toBeVisible();
  await folder.click();
  await expect(console.fileButton('src/a/one.ts')).toBeVisible();

  // The order on screen: folders first, then files, each by name.
  const order = await console.files
    .getByRole('button', { name: /^Show diff of / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
  expect(order).toEqual([
    'Show diff of src/a/one.ts',
    'Show diff of src/a/two.ts',
    'Show diff of src/b/three.ts',
    'Show diff of src/new-name.ts',
    'Show diff of top.md',
  ]);
});

test('sessions are titled by their first prompt', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn('title-1', 'Draft the onboarding email', () => agent.write('title-1', 'email.md', 'hi\n'));
  await agent.turn('title-1', 'Shorten it', () => agent.write('title-1', 'email.md', 'hey\n'));
  await turnback.open(page);
  await expect(new ConsolePage(page).session('title-1')).toContainText('Draft the onboarding email');
});
