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
