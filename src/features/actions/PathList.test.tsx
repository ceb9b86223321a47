import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ExecCommand } from '../../../server/protocol';
import { plan } from '../../test/fixtures';
import { renderWithClient } from '../../test/render';
import { PlanView } from './PlanView';

// A command that wrote 5,000 files: its preview sums them up by folder, not a wall of paths.
const uris = [
  ...Array.from({ length: 3000 }, (_, i) => `workspace:/gen/a/f${i}.txt`),
  ...Array.from({ length: 2000 }, (_, i) => `workspace:/gen/b/f${i}.txt`),
];
const command: ExecCommand = {
  execId: 'x1',
  tool: 'Bash',
  command: 'node gen.js',
  commandBytes: 11,
  at: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:01.000Z',
  changed: uris,
};

describe("a big turn's preview", () => {
  it('sums up its paths and its command by folder with counts; every path one click away', async () => {
    renderWithClient(
      <PlanView
        plan={plan({ actions: uris.map((uri) => ({ uri, action: 'delete' as const, conflict: false })) })}
        conflicts={[]}
        showMessages={false}
        diffTurnId="t1"
        commands={[command]}
      />,
    );
    const deleted = screen.getByRole('region', { name: 'Delete (did not exist before)' });
    expect(within(deleted).getByText('5,000 paths in 2 folders')).toBeTruthy();
    expect(within(deleted).getByRole('list', { name: /folders/ }).textContent).toBe('gen/a/ 3,000gen/b/ 2,000');
    expect(deleted.querySelectorAll('li')).toHaveLength(2);
    await userEvent.click(within(deleted).getByText('List every path (5,000)'));
    expect(deleted.querySelectorAll('li')).toHaveLength(5002);

    const commands = screen.getByRole('region', { name: 'Shell commands of this turn' });
    expect(within(commands).getByRole('list', { name: 'Folders changed by node gen.js' }).textContent).toBe(
      'gen/a/ 3,000gen/b/ 2,000',
    );
    expect(commands.textContent).not.toContain('gen/a/f1.txt');
    expect(within(commands).getByText('5,000 paths in 2 folders')).toBeTruthy();
  });
});
