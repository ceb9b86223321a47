import { expect, saveScreenshot, test } from './fixtures';
import { ConsolePage } from './pages/ConsolePage';

const SESSION = 'claude-session-1';

test("rewind with chat in an external agent's session restores files and deletes messages from that turn on", async ({
  page,
  turnback,
}) => {
  const { agent } = turnback;
  const turn = async (content: string, work: () => Promise<unknown>) => {
    await agent.input(SESSION, content, 'claude-code', 'cli');
    await work();
    await agent.message(SESSION, 'assistant', `done: ${content}`);
    await agent.turnEnd(SESSION);
  };
  await turn('Write the plan', () => agent.write(SESSION, 'plan.md', 'v1\n'));
  await turn('Revise the plan', () => agent.write(SESSION, 'plan.md', 'v2\n'));
  await turn('Add notes', () => agent.write(SESSION, 'notes.md', 'notes\n'));

  await turnback.open(page);
  const console = new ConsolePage(page);
  await console.selectTurn(2);
  const dialog = await console.action('Rewind to here');
  await dialog.root.getByRole('checkbox', { name: /Also delete the chat/ }).check();
  const doomed = dialog.group('Messages to delete');
  await expect(doomed).toContainText('Revise the plan');
  await expect(doomed).toContainText('done: Add notes');
  await expect(doomed).not.toContainText('Write the plan');
  await expect(dialog.root).toContainText("the agent's own context is not rewound");
  await saveScreenshot(page, 'console-rewind-dialog');

  await dialog.confirm('Rewind');
  await dialog.close();
  expect(await turnback.read('plan.md')).toBe('v1\n');
  expect(await turnback.read('notes.md')).toBeNull();
  await expect(console.turn(2)).toContainText('undone');
  await expect(console.turn(3)).toContainText('undone');
  await expect(console.turn(1)).not.toContainText('undone');

  const remaining = await turnback.api.get<{ messages: { content: string }[] }>(`/api/sessions/${SESSION}/messages`);
  expect(remaining.messages.map((message) => message.content)).toEqual(['Write the plan', 'done: Write the plan']);
});
