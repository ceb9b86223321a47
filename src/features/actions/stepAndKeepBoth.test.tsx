import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RollbackTarget } from '../../api/mutations';
import { plan, result } from '../../test/fixtures';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { RollbackDialog } from './RollbackDialog';

afterEach(() => vi.unstubAllGlobals());

const stepTarget: RollbackTarget = { workspace: null, mode: 'steps', sessionId: 's1', turnId: 't1', steps: [1] };

describe('a step undo and keep both', () => {
  it("previews and runs one step, naming a later step's conflict", async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({
          actions: [
            {
              uri: 'workspace:/a.txt',
              action: 'restore',
              conflict: true,
              conflictStep: { index: 3, title: 'Write(a.txt)' },
            },
          ],
          conflicts: ['workspace:/a.txt'],
        }),
      ),
      'POST /api/turns/t1/rollback': json(result({ restored: ['workspace:/a.txt'] })),
    });
    renderWithClient(<RollbackDialog target={stepTarget} turnNumber={2} platform="webui" onClose={vi.fn()} />);
    expect(await screen.findByRole('dialog', { name: 'Undo step 1 of turn #2' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Changed since the turn (conflicts)' })).toHaveTextContent(
      'changed again by step 3 “Write(a.txt)”',
    );
    expect(calls.find((call) => call.path === '/api/turns/t1/preview')?.body).toEqual({ steps: [1] });
    await userEvent.click(screen.getByRole('checkbox', { name: /Overwrite anyway/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo step 1' }));
    await screen.findByRole('region', { name: 'Restored' });
    expect(calls.find((call) => call.path === '/api/turns/t1/rollback')?.body).toEqual({ steps: [1], force: true });
  });

  it('Keep both on a conflict row asks again with onConflict keep-both, and the rollback carries it', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': (call) =>
        json(
          (call.body as { onConflict?: string }).onConflict === 'keep-both'
            ? plan({
                actions: [
                  {
                    uri: 'workspace:/c.json',
                    action: 'keep-both',
                    conflict: true,
                    copy: 'workspace:/c.json.turnback-2',
                  },
                ],
              })
            : plan({
                actions: [{ uri: 'workspace:/c.json', action: 'restore', conflict: true }],
                conflicts: ['workspace:/c.json'],
              }),
        ),
      'POST /api/turns/t1/rollback': json(
        result({
          restored: ['workspace:/c.json.turnback-2'],
          keptBoth: [{ uri: 'workspace:/c.json', copy: 'workspace:/c.json.turnback-2' }],
        }),
      ),
    });
    const target: RollbackTarget = { workspace: null, mode: 'turn', sessionId: 's1', turnId: 't1' };
    renderWithClient(<RollbackDialog target={target} turnNumber={2} platform="webui" onClose={vi.fn()} />);
    const conflicts = await screen.findByRole('region', { name: 'Changed since the turn (conflicts)' });
    expect(screen.getByRole('button', { name: 'Undo turn' })).toBeDisabled();
    await userEvent.click(conflicts.querySelector('button')!);
    expect(await screen.findByRole('region', { name: 'Keep both' })).toHaveTextContent(
      'c.json — restored version to c.json.turnback-2',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Undo turn' }));
    expect(await screen.findByRole('region', { name: 'Kept both' })).toHaveTextContent('c.json.turnback-2');
    expect(calls.filter((call) => call.path === '/api/turns/t1/preview').map((call) => call.body)).toEqual([
      {},
      { onConflict: 'keep-both' },
    ]);
    expect(calls.find((call) => call.path === '/api/turns/t1/rollback')?.body).toEqual({
      force: false,
      onConflict: 'keep-both',
    });
  });
});
