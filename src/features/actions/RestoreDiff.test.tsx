// A preview's "Show diff" reads what exists: a path as its turn left it is the turn's after side,
// so a file the turn deleted is not asked of `/api/file` (a 404); a changed-since one still is.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plan } from '../../test/fixtures';
import { apiError, json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { PlanView } from './PlanView';

const before = { exists: true, binary: false, tooLarge: false, truncated: false, size: 4, text: 'old\n' };
const absent = { exists: false, binary: false, tooLarge: false, truncated: false, size: 0, text: null };

afterEach(() => vi.unstubAllGlobals());

describe("a preview's diff of one path", () => {
  it('shows a file the turn deleted from the turn diff, without asking /api/file (issue 39 item 4)', async () => {
    const calls = mockFetch({
      'GET /api/turns/t1/diff': json({ uri: 'workspace:/gone.txt', before, after: absent }),
      'GET /api/file': apiError('FILE_NOT_FOUND', 404),
    });
    renderWithClient(
      <PlanView
        plan={plan({ actions: [{ uri: 'workspace:/gone.txt', action: 'restore', conflict: false }] })}
        conflicts={[]}
        showMessages={false}
        diffTurnId="t1"
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show diff' }));
    expect(await screen.findByText('Now → After the restore')).toBeTruthy();
    expect(calls.map((call) => call.path.split('?')[0])).toEqual(['/api/turns/t1/diff']);
  });

  it('reads a path changed since the turn from disk, as it is now', async () => {
    const calls = mockFetch({
      'GET /api/turns/t1/diff': json({ uri: 'workspace:/a.txt', before, after: absent }),
      'GET /api/file': json({ uri: 'workspace:/a.txt', content: 'edited\n', encoding: 'utf8', size: 7 }),
    });
    renderWithClient(
      <PlanView
        plan={plan({
          actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: true }],
          conflicts: ['workspace:/a.txt'],
        })}
        conflicts={[]}
        showMessages={false}
        diffTurnId="t1"
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show diff' }));
    expect(await screen.findByText('Now → After the restore')).toBeTruthy();
    expect(calls.map((call) => call.path.split('?')[0])).toContain('/api/file');
  });
});
