import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CommitsResponse, CommitTurn } from '../../../server/protocol';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { CommitsButton } from './CommitsView';

const turn = (id: string, local: boolean, extra: Partial<CommitTurn> = {}): CommitTurn => ({
  id,
  host: 'codex',
  session: 'sess-1',
  at: '2026-12-07T05:00:00.000Z',
  title: `turn ${id}`,
  files: { 'src/app.ts': '3,7-9' },
  lines: 4,
  record: 'sha256:00',
  local,
  ...extra,
});

describe('the Commits view', () => {
  it('shows each commit with its turns, a turn of another machine read-only, and pages on demand', async () => {
    const page = (n: number, next: string | null): CommitsResponse => ({
      repository: true,
      commits: [
        {
          sha: `${n}`.repeat(40),
          subject: `commit ${n}`,
          author: 'Ada',
          at: '2026-12-07T05:00:00Z',
          turns:
            n === 1 ? [turn('t1', true, { host: 'claude-code' }), turn('t2', false, { model: 'gpt-5-codex' })] : [],
        },
      ],
      next,
    });
    const calls = mockFetch({
      'GET /api/commits': (call) => json(call.path.includes('before=') ? page(2, null) : page(1, '2'.repeat(40))),
    });
    renderWithClient(<CommitsButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Commits' }));
    const turns = await screen.findByRole('list', { name: 'Turns of 11111111' });
    expect(within(turns).getByText('turn t1').closest('li')?.textContent).toContain('this machine');
    expect(within(turns).getByText('turn t2').closest('li')?.textContent).toContain('another machine · read-only');
    expect(within(turns).getAllByText('src/app.ts')).toHaveLength(2);
    // The model, where the host told it, is shown with the turn.
    expect(within(turns).getByText('turn t2').closest('li')?.textContent).toContain('model gpt-5-codex');
    expect(within(turns).getByText('turn t1').closest('li')?.textContent).not.toContain('model');
    await userEvent.click(screen.getByRole('button', { name: 'More commits' }));
    expect(await screen.findByText('commit 2')).toBeTruthy();
    expect(screen.getByText("No agent turn: the person's")).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual([
      '/api/commits?limit=50',
      `/api/commits?limit=50&before=${'2'.repeat(40)}`,
    ]);
  });
});
