import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Side } from '../../../server/protocol';
import { fileChange } from '../../test/fixtures';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { DiffPanel } from './DiffPanel';

const side = (overrides: Partial<Side>): Side => ({
  exists: true,
  binary: false,
  tooLarge: false,
  truncated: false,
  size: 10,
  text: 'x\n',
  ...overrides,
});

function showDiff(before: Side, after: Side, file = fileChange('workspace:/f.bin')) {
  mockFetch({ 'GET /api/turns/t1/diff': json({ uri: file.uri, before, after }) });
  renderWithClient(<DiffPanel turnId="t1" file={file} turnNumber={3} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('DiffPanel placeholders', () => {
  it('says when a side is binary', async () => {
    showDiff(side({ binary: true, text: null, size: 2048 }), side({ binary: true, text: null, size: 4096 }));
    expect(await screen.findByText('Binary file (2.0 KiB)')).toBeInTheDocument();
    expect(screen.getByText('Binary file (4.0 KiB)')).toBeInTheDocument();
    expect(screen.getByText('No text diff to show for this path.')).toBeInTheDocument();
  });

  it('says when a side was too large to keep', async () => {
    showDiff(side({ tooLarge: true, text: null, size: 20 * 1024 * 1024 }), side({}));
    expect(await screen.findByText('Too large to keep (20 MiB)')).toBeInTheDocument();
  });

  it('says when the file did not exist before or after the turn', async () => {
    showDiff(side({ exists: false, text: null, size: 0 }), side({ text: 'new\n' }));
    expect(await screen.findByText('Did not exist before the turn')).toBeInTheDocument();
  });

  it('marks a side cut to 1 MiB', async () => {
    showDiff(side({}), side({ truncated: true }));
    expect(await screen.findByText('truncated to 1 MiB')).toBeInTheDocument();
  });

  it('describes directory changes without asking for a text diff', async () => {
    const calls = mockFetch({});
    renderWithClient(
      <DiffPanel
        turnId="t1"
        turnNumber={3}
        file={fileChange('workspace:/src', {
          change: 'dir-created',
          before: null,
          after: { type: 'dir', mode: 0o755 },
        })}
      />,
    );
    expect(screen.getByText('Before the turn: absent. After it: a directory (mode 755).')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('describes a file replaced by a special file (a FIFO) without asking for a text diff', async () => {
    const calls = mockFetch({});
    renderWithClient(
      <DiffPanel
        turnId="t1"
        turnNumber={3}
        file={fileChange('workspace:/reg.txt', {
          change: 'modified',
          before: { type: 'file', hash: 'a'.repeat(64), size: 3, mode: 0o644 },
          after: { type: 'special', kind: 'fifo', mode: 0o644 },
        })}
      />,
    );
    expect(
      screen.getByText('Before the turn: a file (mode 644). After it: a special file (a FIFO, mode 644).'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('offers split and unified layouts', async () => {
    showDiff(side({ text: 'a\n' }), side({ text: 'b\n' }));
    const split = await screen.findByRole('button', { name: 'Split' });
    expect(split).toHaveAttribute('aria-pressed', 'true');
    split.parentElement!.querySelector<HTMLButtonElement>('button[aria-pressed="false"]')!.click();
    expect(await screen.findByRole('button', { name: 'Unified' })).toHaveAttribute('aria-pressed', 'true');
  });
});
