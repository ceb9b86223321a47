import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Workspace } from '../../../server/protocol';
import { App } from '../../app/App';
import { fileChange, session, turn } from '../../test/fixtures';
import { json, mockFetch, type Call } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';
import { scopesOfEvent } from '../live/invalidation';

function workspace(id: string, overrides: Partial<Workspace> = {}): Workspace {
  return {
    id,
    root: `/home/ada/${id}`,
    name: id,
    recording: true,
    open: true,
    sessions: 1,
    storeBytes: 2048,
    isDefault: false,
    ...overrides,
  };
}

const side = { exists: true, binary: false, tooLarge: false, truncated: false, size: 2, text: 'a\n' };

/** A service with `api` (a default workspace holding s1) and `web` (holding s9, not recording). */
function serve(
  workspaces: Workspace[] | (() => Workspace[]) = [
    workspace('api', { isDefault: true }),
    workspace('web', { recording: false, reason: 'the disk is full' }),
  ],
  extra: Parameters<typeof mockFetch>[0] = {},
): Call[] {
  const sessionsOf = {
    api: [session({ sessionId: 's1', title: 'Session of api' })],
    web: [session({ sessionId: 's9', title: 'Session of web' })],
  };
  const turnsOf = {
    s1: [turn(1, { title: 'Turn of api' })],
    s9: [
      turn(1, { turnId: 'w1', sessionId: 's9', title: 'First turn of web' }),
      turn(2, { turnId: 'w2', sessionId: 's9', title: 'Second turn of web' }),
    ],
  };
  const manifest = (call: Call) => {
    const turnId = call.path.split('/').at(-1)!.split('?')[0];
    const all = [...turnsOf.s1, ...turnsOf.s9];
    return json({
      turn: all.find((item) => item.turnId === turnId),
      files: [fileChange('workspace:/a.txt')],
      entries: [],
    });
  };
  const store = json({ sessions: 1, turns: 1, blobs: 1, bytes: 10, dataDir: '/d' });
  return mockFetch({
    ...extra,
    'GET /api/workspaces': () => json({ workspaces: typeof workspaces === 'function' ? workspaces() : workspaces }),
    'GET /api/sessions': json({ sessions: sessionsOf.api }),
    'GET /api/store': store,
    'GET /api/sessions/s1/turns': json({ turns: turnsOf.s1 }),
    'GET /api/turns/*': manifest,
    'GET /api/turns/*/diff': json({ uri: 'workspace:/a.txt', before: side, after: side }),
    'GET /api/workspaces/api/sessions': json({ sessions: sessionsOf.api }),
    'GET /api/workspaces/api/store': store,
    'GET /api/workspaces/api/sessions/s1/turns': json({ turns: turnsOf.s1 }),
    'GET /api/workspaces/api/turns/*': manifest,
    'GET /api/workspaces/api/turns/*/diff': json({ uri: 'workspace:/a.txt', before: side, after: side }),
    'GET /api/workspaces/web/sessions': json({ sessions: sessionsOf.web }),
    'GET /api/workspaces/web/store': store,
    'GET /api/workspaces/web/sessions/s9/turns': json({ turns: [...turnsOf.s9].reverse() }),
    'GET /api/workspaces/web/turns/*': manifest,
    'GET /api/workspaces/web/turns/*/diff': json({ uri: 'workspace:/a.txt', before: side, after: side }),
  });
}

const paths = (calls: Call[]) => calls.map((call) => call.path.split('?')[0]);

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('workspaces in the console', () => {
  it("shows a workspace's index build and its progress, in the list and the header, until it is whole", async () => {
    const building = {
      state: 'building' as const,
      filesFound: 41_200,
      filesIndexed: 25_956,
      bytesStored: 1,
      percent: 63,
    };
    let answers = 0;
    serve(() => {
      answers++;
      const index = answers < 3 ? building : { ...building, state: 'whole' as const, percent: 100 };
      return [
        workspace('api', { isDefault: true, index }),
        workspace('web', { index: { ...building, state: 'failed', percent: 0, reason: 'EACCES: permission denied' } }),
      ];
    });
    renderWithClient(<App />);
    const list = await screen.findByRole('list', { name: 'Workspaces' });
    const api = await within(list).findByRole('button', { name: /^Workspace api,/ });
    expect(api).toHaveTextContent('Indexing 41,200 files… 63%');
    expect(api).toHaveAccessibleName(expect.stringContaining('Indexing 41,200 files… 63%'));
    expect(within(api).getByRole('progressbar', { name: 'Index of api' })).toHaveAttribute('value', '63');
    expect(within(list).getByRole('button', { name: /^Workspace web,/ })).toHaveTextContent(
      'Index not built: EACCES: permission denied',
    );
    expect(screen.getByLabelText('Workspace api')).toHaveTextContent('Indexing 63%');
    // The list is asked again while a build runs: the progress goes once the index is whole.
    await waitFor(() => expect(api).not.toHaveTextContent('Indexing'), { timeout: 5_000 });
    expect(screen.getByLabelText('Workspace api')).not.toHaveTextContent('Indexing');
  });

  it("shows the same store size in the header as on the workspace's card: its size on disk, kept (issue 39 item 4)", async () => {
    serve([workspace('api', { isDefault: true, storeBytes: 140 * 1024 }), workspace('web', { storeBytes: 4096 })]);
    renderWithClient(<App />);
    const list = await screen.findByRole('list', { name: 'Workspaces' });
    expect(await within(list).findByRole('button', { name: /^Workspace api,/ })).toHaveTextContent('140 KiB kept');
    const usage = screen.getByLabelText('Store usage');
    await waitFor(() => expect(usage).toHaveTextContent('140 KiB kept'));
    // The kept versions' size before compression (/api/store `bytes`, 10 B here) is not a second figure beside it.
    expect(usage).not.toHaveTextContent('10 B');
  });

  it("shows each store's contents against its budget on its card and in the header, with the sessions pruned for it", async () => {
    const MIB = 1024 * 1024;
    serve([
      workspace('api', {
        isDefault: true,
        storeBytes: 40 * MIB,
        budget: { bytes: 50 * MIB, used: 38 * MIB, prunedForBudget: 2, source: 'workspace' },
      }),
      workspace('web', { budget: { bytes: 2048 * MIB, used: 3 * MIB, prunedForBudget: 0, source: 'default' } }),
    ]);
    renderWithClient(<App />);
    const list = await screen.findByRole('list', { name: 'Workspaces' });
    const api = await within(list).findByRole('button', { name: /^Workspace api,/ });
    expect(api).toHaveTextContent('contents 38 MiB of a 50 MiB budget, 2 sessions pruned for it');
    expect(within(list).getByRole('button', { name: /^Workspace web,/ })).toHaveTextContent(
      'contents 3.0 MiB of a 2.0 GiB budget',
    );
    // The header's short form; its tooltip carries the card's sentence and where the budget comes from.
    const usage = screen.getByLabelText('Store usage');
    await waitFor(() => expect(usage).toHaveTextContent('38 MiB of a 50 MiB budget, 2 pruned'));
    const note = within(usage).getByText(/^38 MiB of a 50 MiB budget/);
    expect(note).toHaveAttribute(
      'title',
      expect.stringContaining('contents 38 MiB of a 50 MiB budget, 2 sessions pruned for it'),
    );
    expect(note).toHaveAttribute('title', expect.stringContaining("this workspace's own budget"));
  });

  it("shows the sessions pruned for the person's budget on the card's own line, and the header's tooltip names that budget", async () => {
    const MIB = 1024 * 1024;
    serve(
      [
        workspace('api', {
          isDefault: true,
          budget: { bytes: 2048 * MIB, used: 3 * MIB, prunedForBudget: 0, prunedForPersonBudget: 2, source: 'default' },
        }),
        workspace('web', { budget: { bytes: 2048 * MIB, used: 1 * MIB, prunedForBudget: 0, source: 'default' } }),
      ],
      {
        'GET /api/settings/person-budget': json({
          bytes: 10 * MIB,
          source: 'setting',
          used: 4 * MIB,
          workspaces: 2,
          prunedForPersonBudget: 2,
        }),
      },
    );
    renderWithClient(<App />);
    const list = await screen.findByRole('list', { name: 'Workspaces' });
    const api = await within(list).findByRole('button', { name: /^Workspace api,/ });
    expect(within(api).getByText('2 sessions pruned for your budget over all workspaces')).toBeInTheDocument();
    // Its own budget's sentence does not count them.
    expect(within(api).getByText('contents 3.0 MiB of a 2.0 GiB budget')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: /^Workspace web,/ })).not.toHaveTextContent('your budget');
    const usage = screen.getByLabelText('Store usage');
    const note = await within(usage).findByText(/^3\.0 MiB of a 2\.0 GiB budget/);
    await waitFor(() =>
      expect(note).toHaveAttribute(
        'title',
        expect.stringContaining('Your budget over all workspaces: contents 4.0 MiB of 10 MiB over 2 workspaces'),
      ),
    );
  });

  it('says in the header when every command is scanned in full because the watcher failed, with why', async () => {
    serve([
      workspace('api', {
        isDefault: true,
        watcher: { state: 'unavailable', reason: 'the inotify watch limit is reached (fs.inotify.max_user_watches)' },
      }),
      workspace('web', { watcher: { state: 'watching' } }),
    ]);
    renderWithClient(<App />);
    const header = await screen.findByLabelText('Workspace api');
    const chip = await within(header).findByText('Full scans');
    expect(chip).toHaveAttribute('title', expect.stringContaining('fs.inotify.max_user_watches'));
  });

  it('says nothing of the watcher while it works', async () => {
    serve([workspace('api', { isDefault: true, watcher: { state: 'watching', misses: 0 } })]);
    renderWithClient(<App />);
    const header = await screen.findByLabelText('Workspace api');
    expect(header).not.toHaveTextContent('Full scans');
    expect(header).not.toHaveTextContent('watcher miss');
    expect(header).not.toHaveTextContent('Watcher degraded');
  });

  it('shows a degraded watcher with why, and its misses', async () => {
    serve([
      workspace('api', {
        isDefault: true,
        watcher: { state: 'degraded', reason: 'the root /w/api is gone', misses: 3 },
      }),
    ]);
    renderWithClient(<App />);
    const header = await screen.findByLabelText('Workspace api');
    const chip = await within(header).findByText('Watcher degraded');
    expect(chip).toHaveAttribute('title', expect.stringContaining('the root /w/api is gone'));
    expect(within(header).getByText('3 watcher misses')).toBeInTheDocument();
  });

  it('lists every workspace with its name and root, says which is not recording and why, and opens on the default one', async () => {
    const calls = serve();
    renderWithClient(<App />);
    const list = await screen.findByRole('list', { name: 'Workspaces' });
    const api = await within(list).findByRole('button', { name: /^Workspace api,/ });
    const web = within(list).getByRole('button', { name: /^Workspace web,/ });
    expect(api).toHaveTextContent('/home/ada/api');
    expect(web).toHaveTextContent('/home/ada/web');
    expect(web).toHaveTextContent('Not recording: the disk is full');
    expect(api).not.toHaveTextContent('Not recording');
    await waitFor(() => expect(api).toHaveAttribute('aria-current', 'true'));
    // The default workspace's sessions sit under it; the header names it.
    expect(await screen.findByRole('button', { name: /^Session s1,/ })).toBeInTheDocument();
    expect(screen.getByLabelText('Workspace api')).toHaveTextContent('/home/ada/api');
    expect(paths(calls)).toContain('/api/sessions');
  });

  it('switches to another workspace: its sessions and turns come from its own routes, and the address names it', async () => {
    const calls = serve();
    renderWithClient(<App />);
    await userEvent.click(await screen.findByRole('button', { name: /^Workspace web,/ }));
    expect(await screen.findByRole('button', { name: /^Session s9,/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Session s1,/ })).toBeNull();
    expect(await screen.findByRole('option', { name: /^#2 Second turn of web/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(new URLSearchParams(window.location.search).get('workspace')).toBe('web');
    expect(screen.getByLabelText('Workspace web')).toHaveTextContent('Not recording');
    expect(paths(calls)).toContain('/api/workspaces/web/sessions');
    expect(paths(calls)).toContain('/api/workspaces/web/turns/w2');
    expect(paths(calls).filter((path) => path.startsWith('/api/turns/w'))).toEqual([]);
  });

  it('opens a deep link to a turn of the second workspace', async () => {
    const calls = serve();
    window.history.replaceState(null, '', '/?workspace=web&session=s9&turn=w1');
    renderWithClient(<App />);
    expect(await screen.findByRole('option', { name: /^#1 First turn of web/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'First turn of web' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Workspace web,/ })).toHaveAttribute('aria-current', 'true');
    expect(paths(calls)).toContain('/api/workspaces/web/turns/w1');
    expect(paths(calls)).not.toContain('/api/sessions');
  });

  it('chooses the first workspace when the service names no default, and never asks the unprefixed routes for data', async () => {
    const calls = serve([workspace('api'), workspace('web')]);
    renderWithClient(<App />);
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('workspace')).toBe('api'));
    expect(await screen.findByRole('button', { name: /^Session s1,/ })).toBeInTheDocument();
    await waitFor(() => expect(paths(calls)).toContain('/api/workspaces/api/sessions'));
    await waitFor(() => expect(paths(calls)).toContain('/api/workspaces/api/store'));
    // Not even before the list arrives: the service answers those 400 WORKSPACE_REQUIRED (issue 39 item 4).
    expect(paths(calls).filter((path) => path === '/api/sessions' || path === '/api/store')).toEqual([]);
  });

  it('a server without workspaces shows its sessions as before', async () => {
    mockFetch({
      'GET /api/sessions': json({ sessions: [session()] }),
      'GET /api/store': json({ sessions: 1, turns: 1, blobs: 1, bytes: 10, dataDir: '/d' }),
      'GET /api/sessions/s1/turns': json({ turns: [turn(1)] }),
      'GET /api/turns/*': json({ turn: turn(1), files: [], entries: [] }),
    });
    renderWithClient(<App />);
    expect(await screen.findByRole('button', { name: /^Session s1,/ })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Workspaces' })).toBeNull();
  });
});

describe('scopesOfEvent', () => {
  it("holds an event under its workspace's id, and under the default scope too when it is the default workspace", () => {
    expect(scopesOfEvent('web', null, 'api')).toEqual(['web']);
    expect(scopesOfEvent('api', null, 'api')).toEqual(['api', null]);
    expect(scopesOfEvent('api', 'web', 'api')).toEqual(['api', null]);
    expect(scopesOfEvent(undefined, 'web', 'api')).toEqual(['web']);
    expect(scopesOfEvent(undefined, null, undefined)).toEqual([null]);
  });
});
