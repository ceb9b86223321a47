import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExecCommand } from '../../../server/protocol';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { ExecCommands } from './ExecCommands';

afterEach(() => vi.unstubAllGlobals());

const base = { tool: 'Bash', at: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', changed: [] };
const short: ExecCommand = { ...base, execId: 'x1', command: 'ls -la', commandBytes: 6 };
const long: ExecCommand = {
  ...base,
  execId: 'x2',
  command: 'cat > big <<EOF',
  commandBytes: 16 << 20,
  truncated: true,
};

describe('the Commands tab', () => {
  it('shows listed commands as they come, and fetches a long one whole only when asked', async () => {
    const calls = mockFetch({
      'GET /api/turns/t1/commands/x2': json({ command: { ...long, command: 'cat > big <<EOF\nthe whole kept text' } }),
    });
    renderWithClient(<ExecCommands turnId="t1" commands={[short, long]} captured />);
    expect(screen.getByText('ls -la')).toBeTruthy();
    expect(screen.getByText('cat > big <<EOF…')).toBeTruthy();
    expect(calls).toEqual([]);
    expect(screen.getAllByRole('button', { name: /Show the whole command/ })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Show the whole command (16 MiB)' }));
    expect(await screen.findByText(/the whole kept text/)).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/turns/t1/commands/x2']);
    expect(screen.getByText(/Only its first 64 KiB are kept/)).toBeTruthy();
  });
});

describe('a command that changed thousands of paths', () => {
  const changed = [
    ...Array.from({ length: 4000 }, (_, i) => `workspace:/gen/a/f${i}.txt`),
    ...Array.from({ length: 1000 }, (_, i) => `workspace:/gen/b/f${i}.txt`),
  ];
  const big: ExecCommand = { ...base, execId: 'x3', command: 'node gen.js', commandBytes: 11, changed };

  it('is summed up by folder with counts, every path listed only when asked', async () => {
    renderWithClient(<ExecCommands turnId="t1" commands={[big]} captured />);
    await userEvent.click(screen.getByText('Changed 5000 paths'));
    expect(screen.getByText('5,000 paths in 2 folders')).toBeTruthy();
    const folders = screen.getByRole('list', { name: 'Folders changed by node gen.js' });
    expect(folders.textContent).toBe('gen/a/ 4,000gen/b/ 1,000');
    expect(screen.queryByRole('list', { name: 'Paths changed by node gen.js' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'List every path (5,000)' }));
    expect(screen.getByRole('list', { name: 'Paths changed by node gen.js' }).children).toHaveLength(5000);
  });
});
