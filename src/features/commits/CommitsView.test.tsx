import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CommitFileDiffResponse, CommitsResponse, CommitTurn } from '../../../server/protocol';
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

  it("opens a turn's file as the commit's change from git, said to be the commit's whole change", async () => {
    const sha = 'c054f1ab'.repeat(5);
    const fileSide = () => ({ exists: true, type: 'file' as const, binary: false, tooLarge: false });
    const answer: CommitFileDiffResponse = {
      sha,
      parent: 'p'.repeat(40),
      path: 'src/greet.ts',
      before: { ...fileSide(), size: 11, text: 'const a = 1;\n' },
      after: { ...fileSide(), size: 30, text: 'const a = 1;\nexport const greeting = 2;\n' },
    };
    const calls = mockFetch({
      'GET /api/commits': json({
        repository: true,
        commits: [
          {
            sha,
            subject: 'Add the greeting',
            author: 'Ada',
            at: '2026-12-07T05:00:00Z',
            turns: [turn('t9', false, { files: { 'src/greet.ts': '2', 'src/other.ts': '1-2' } })],
          },
        ],
        next: null,
      } satisfies CommitsResponse),
      'GET /api/commits/*/diff': json(answer),
    });
    renderWithClient(<CommitsButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Commits' }));
    const file = await screen.findByRole('button', { name: 'Diff of src/greet.ts in c054f1ab' });
    expect(file).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(file);
    expect(file).toHaveAttribute('aria-expanded', 'true');
    const change = await screen.findByRole('region', { name: 'Change to src/greet.ts in c054f1ab' });
    expect(change.textContent).toContain(
      "From git: commit c054f1ab's change to src/greet.ts. This turn wrote line 2 of it; any other changed line is another turn's or the person's.",
    );
    expect(await within(change).findByText(/export const greeting = 2;/)).toBeTruthy();
    expect(calls.at(-1)?.path).toBe(`/api/commits/${sha}/diff?path=src%2Fgreet.ts`);
    // The other file stays closed until asked for; the turn is still read-only.
    expect(screen.getByRole('button', { name: 'Diff of src/other.ts in c054f1ab' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.getByText('turn t9').closest('li')?.textContent).toContain('another machine · read-only');
  });

  it('says in words what a side with no text is, instead of a diff', async () => {
    const sha = 'b'.repeat(40);
    mockFetch({
      'GET /api/commits': json({
        repository: true,
        commits: [
          {
            sha,
            subject: 'logo',
            author: 'Ada',
            at: '2026-12-07T05:00:00Z',
            turns: [turn('t1', false, { files: { 'logo.bin': '1' } })],
          },
        ],
        next: null,
      } satisfies CommitsResponse),
      'GET /api/commits/*/diff': json({
        sha,
        parent: null,
        path: 'logo.bin',
        before: { exists: false, binary: false, tooLarge: false, size: 0, text: null },
        after: { exists: true, type: 'file', binary: true, tooLarge: false, size: 2048, text: null },
      } satisfies CommitFileDiffResponse),
    });
    renderWithClient(<CommitsButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Commits' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Diff of logo.bin in bbbbbbbb' }));
    expect(
      await screen.findByText(
        'No line diff to show. Before: none (the first commit has no parent). After: a binary file (2.0 KiB).',
      ),
    ).toBeTruthy();
  });
});
