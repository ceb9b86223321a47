import { expect, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'a11y-1';
const CONTROL = /^\s*- (button|checkbox|tab|option|link|listbox|textbox|radio|switch)\b(.*)$/;

/** Controls in the page's accessibility tree that have no accessible name. */
async function unnamedControls(console: ConsolePage): Promise<string[]> {
  const snapshot = await console.page.locator('body').ariaSnapshot();
  const controls = snapshot.split('\n').filter((line) => CONTROL.test(line));
  // The check means something only if it saw the console's controls.
  expect(controls.length).toBeGreaterThan(8);
  return controls.filter((line) => !/^\s*"/.test(CONTROL.exec(line)![2]));
}

test('every control has an accessible name, in the main view and in a dialog', async ({ page, turnback }) => {
  const { agent } = turnback;
  await agent.turn(
    SESSION,
    'Touch two files',
    async () => {
      await agent.write(SESSION, 'src/a.ts', 'export const a = 1;\n');
      await agent.write(SESSION, 'src/b.ts', 'export const b = 2;\n');
      await agent.exec(SESSION, 'npm test');
    },
    'Both files written.',
  );

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(1);
  await expect(console.diff('src/a.ts')).toBeVisible();
  expect(await unnamedControls(console)).toEqual([]);

  await console.fileCheckbox('src/a.ts').check();
  const dialog = await console.action('Undo turn and its chat');
  await expect(dialog.group('Messages to delete')).toBeVisible();
  expect(await unnamedControls(console)).toEqual([]);
});
