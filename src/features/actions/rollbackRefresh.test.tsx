import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Turn } from '../../../server/protocol';
import { App } from '../../app/App';
import { fileChange, plan, result, session, turn } from '../../test/fixtures';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';

const side = { exists: true, binary: false, tooLarge: false, truncated: false, size: 2, text: 'a\n' };

/** A server whose turns change when a rollback or its undo runs, as the real one's do. */
function serve() {
  let turns: Turn[] = [turn(1)];
  mockFetch({
    'GET /api/sessions': () => json({ sessions: [session({ turnCount: turns.length })] }),
    'GET /api/store': json({ sessions: 1, turns: 1, blobs: 1, bytes: 10, dataDir: '/d' }),
    'GET /api/sessions/s1/turns': () => json({ turns }),
    'GET /api/turns/*': (call) => {
      const id = call.path.split('/')[3];
      return json({
        turn: turns.find((item) => item.turnId === id),
        files: [fileChange('workspace:/a.txt')],
        entries: [],
      });
    },
    'GET /api/turns/*/diff': json({ uri: 'workspace:/a.txt', before: side, after: side }),
    'POST /api/turns/t1/preview': json(
      plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
    ),
    'POST /api/turns/t1/rollback': () => {
      turns = [
        turn(1, { status: 'rolled-back', rolledBackBy: 't2' }),
        turn(2, { kind: 'rollback', rollbackOf: ['t1'], title: '' }),
      ];
      return json(result({ rollbackTurnId: 't2', restored: ['workspace:/a.txt'] }));
    },
    'POST /api/turns/t2/rollback': () => {
      turns = [
        turn(1),
        turn(2, { kind: 'rollback', rollbackOf: ['t1'], title: '', status: 'rolled-back', rolledBackBy: 't3' }),
        turn(3, { kind: 'rollback', rollbackOf: ['t2'], title: '' }),
      ];
      return json(result({ turnId: 't2', rollbackTurnId: 't3', restored: ['workspace:/a.txt'] }));
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('after a rollback', () => {
  it('the timeline shows the rollback, and after Undo the turn is no longer rolled back', async () => {
    serve();
    window.history.replaceState(null, '', '/?session=s1&turn=t1');
    renderWithClient(<App />);
    const timeline = await screen.findByRole('listbox', { name: 'Turns' });
    await userEvent.click(await screen.findByRole('button', { name: 'Undo turn' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Undo turn' }));
    await within(dialog).findByRole('region', { name: 'Restored' });

    // Nothing else asks again (data never goes stale in these tests): only the rollback's invalidation refreshes.
    await waitFor(() => expect(within(timeline).getByRole('option', { name: /^#1 / })).toHaveTextContent('undone'));
    expect(within(timeline).getByRole('option', { name: /^#2 / })).toHaveTextContent('undo of #1');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Redo' }));
    await within(dialog).findByText(/^Redone/);
    await waitFor(() => expect(within(timeline).getByRole('option', { name: /^#1 / })).not.toHaveTextContent('undone'));
    expect(within(timeline).getByRole('option', { name: /^#3 / })).toHaveTextContent('takes back #2');
  });
});
