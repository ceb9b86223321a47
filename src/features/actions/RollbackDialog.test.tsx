import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RollbackTarget } from '../../api/mutations';
import { message, plan, result } from '../../test/fixtures';
import { apiError, json, mockFetch } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { RollbackDialog } from './RollbackDialog';

const turnTarget: RollbackTarget = { workspace: null, mode: 'turn', sessionId: 's1', turnId: 't1' };

function open(target: RollbackTarget = turnTarget, platform = 'webui') {
  const onClose = vi.fn();
  renderWithClient(<RollbackDialog target={target} turnNumber={4} platform={platform} onClose={onClose} />);
  return { onClose };
}

afterEach(() => vi.unstubAllGlobals());

describe('RollbackDialog', () => {
  it('lists what will be restored, deleted and moved back, then shows the result', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({
          actions: [
            { uri: 'workspace:/a.txt', action: 'restore', conflict: false },
            { uri: 'workspace:/new.txt', action: 'delete', conflict: false },
            { uri: 'workspace:/old.txt', from: 'workspace:/moved.txt', action: 'move-back', conflict: false },
          ],
        }),
      ),
      'POST /api/turns/t1/rollback': json(result({ restored: ['workspace:/a.txt'], deleted: ['workspace:/new.txt'] })),
    });
    open();
    expect(await screen.findByRole('dialog', { name: 'Undo turn #4' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Restore to their earlier content' })).toHaveTextContent('a.txt');
    expect(screen.getByRole('region', { name: 'Delete (did not exist before)' })).toHaveTextContent('new.txt');
    expect(screen.getByRole('region', { name: 'Move back' })).toHaveTextContent('moved.txt → old.txt');

    await userEvent.click(screen.getByRole('button', { name: 'Undo turn' }));
    expect(await screen.findByRole('region', { name: 'Restored' })).toHaveTextContent('a.txt');
    expect(screen.getByRole('region', { name: 'Deleted' })).toHaveTextContent('new.txt');
    expect(calls.find((call) => call.path === '/api/turns/t1/rollback')?.body).toEqual({ force: false });
  });

  it('offers no action when the preview has nothing to restore', async () => {
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({
          actions: Array.from({ length: 4999 }, (_, i) => ({
            uri: `workspace:/gen/f${i}.txt`,
            action: 'none' as const,
            conflict: false,
          })),
        }),
      ),
    });
    open();
    expect(await screen.findByText(/there is nothing to restore/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo turn' })).toBeDisabled();
  });

  it('requires an explicit "overwrite anyway" when files changed since the turn, then forces', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({
          actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: true }],
          conflicts: ['workspace:/a.txt'],
        }),
      ),
      'POST /api/turns/t1/rollback': json(result({ restored: ['workspace:/a.txt'] })),
    });
    open();
    expect(await screen.findByRole('region', { name: 'Changed since the turn (conflicts)' })).toHaveTextContent(
      'a.txt',
    );
    const confirm = screen.getByRole('button', { name: 'Undo turn' });
    expect(confirm).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /Overwrite anyway/ }));
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await screen.findByRole('region', { name: 'Restored' });
    expect(calls.find((call) => call.path === '/api/turns/t1/rollback')?.body).toEqual({ force: true });
  });

  it('turns a conflict found at confirm time into the overwrite choice', async () => {
    let attempts = 0;
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
      'POST /api/turns/t1/rollback': () =>
        ++attempts === 1
          ? apiError('CONFLICT', 409, { conflicts: ['workspace:/a.txt'] })
          : json(result({ restored: ['workspace:/a.txt'] })),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Undo turn' }));
    expect(await screen.findByRole('checkbox', { name: /Overwrite anyway/ })).not.toBeChecked();
    expect(screen.getByRole('region', { name: 'Changed since the turn (conflicts)' })).toHaveTextContent('a.txt');
    expect(screen.getByRole('button', { name: 'Undo turn' })).toBeDisabled();
  });

  it('selective restore previews and rolls back only the chosen files', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
      'POST /api/turns/t1/rollback': json(result()),
    });
    open({ ...turnTarget, mode: 'files', uris: ['workspace:/a.txt', 'workspace:/b.txt'] });
    expect(await screen.findByRole('dialog', { name: 'Undo 2 files of turn #4' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Undo 2 files' }));
    await screen.findByText(/^Done/);
    expect(calls[0].body).toEqual({ uris: ['workspace:/a.txt', 'workspace:/b.txt'] });
    expect(calls[1].body).toEqual({ uris: ['workspace:/a.txt', 'workspace:/b.txt'], force: false });
  });

  it('rollback with chat lists the messages to delete and warns that an external agent keeps its context', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({
          messages: [message('m1', 'Please add a README'), message('m2', 'Done, added it', { role: 'assistant' })],
        }),
      ),
      'POST /api/turns/t1/rollback-with-chat': json(result({ deletedMessages: 2 })),
    });
    open({ ...turnTarget, mode: 'chat' }, 'claude-code');
    const messages = await screen.findByRole('region', { name: 'Messages to delete' });
    expect(messages).toHaveTextContent('Please add a README');
    expect(messages).toHaveTextContent('Done, added it');
    expect(screen.getByText(/agent's own context is not rewound/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Undo turn and its chat' }));
    expect(await screen.findByText(/2 chat messages removed from turnback's record of the chat/)).toBeInTheDocument();
    expect(calls[0].body).toEqual({ withChat: true });
  });

  it("does not show the external-agent note for the console's own sessions", async () => {
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
    });
    open({ ...turnTarget, mode: 'chat' }, 'webui');
    await screen.findByRole('region', { name: 'Messages to delete' });
    expect(screen.queryByText(/agent's own context/)).toBeNull();
  });

  it('rewind uses the rewind preview and re-reads it when the chat is included', async () => {
    const calls = mockFetch({
      'POST /api/sessions/s1/rewind/preview': (call) =>
        json(plan({ messages: (call.body as { withChat: boolean }).withChat ? [message('m1', 'First request')] : [] })),
      'POST /api/sessions/s1/rewind': json(result()),
    });
    open({ ...turnTarget, mode: 'rewind', withChat: false });
    expect(await screen.findByRole('dialog', { name: 'Rewind to turn #4' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /Also delete the chat/ }));
    expect(await screen.findByText('First request')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Rewind' }));
    await screen.findByText(/^Done/);
    expect(calls.at(-1)).toMatchObject({
      path: '/api/sessions/s1/rewind',
      body: { toTurnId: 't1', withChat: true, force: false },
    });
  });

  it('reports every error of a partial rollback', async () => {
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
      'POST /api/turns/t1/rollback': json(
        result({
          ok: false,
          restored: ['workspace:/a.txt'],
          errors: [
            { uri: 'workspace:/big.bin', code: 'TOO_LARGE', message: 'not captured: over the size limit' },
            { uri: 'workspace:/dir', code: 'NOT_EMPTY', message: 'holds files the turn did not make' },
          ],
        }),
      ),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Undo turn' }));
    expect(await screen.findByText('Finished with 2 errors')).toBeInTheDocument();
    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(errors).toHaveTextContent('big.bin TOO_LARGE — not captured: over the size limit');
    expect(errors).toHaveTextContent('dir NOT_EMPTY');
  });

  it('Undo rolls back the rollback turn', async () => {
    const calls = mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
      'POST /api/turns/t1/rollback': json(result({ rollbackTurnId: 't9', deleted: ['workspace:/a.txt'] })),
      'POST /api/turns/t9/rollback': json(
        result({ turnId: 't9', rollbackTurnId: 't10', restored: ['workspace:/a.txt'] }),
      ),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Undo turn' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Redo' }));
    expect(await screen.findByText(/^Redone/)).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/turns/t9/rollback' });
    expect(screen.queryByRole('button', { name: 'Redo' })).toBeNull();
  });

  it('explains a refusal while the agent is working', async () => {
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
      'POST /api/turns/t1/rollback': apiError('TURN_ACTIVE', 409),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Undo turn' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An agent turn is in progress');
  });

  it('closes with Escape and Cancel', async () => {
    mockFetch({
      'POST /api/turns/t1/preview': json(
        plan({ actions: [{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }] }),
      ),
    });
    const { onClose } = open();
    await screen.findByRole('button', { name: 'Undo turn' });
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });
});
