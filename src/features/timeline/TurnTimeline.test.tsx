import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { turn } from '../../test/fixtures';
import { EXEC_CAPTURED_TOOLTIP, EXEC_UNPROTECTED_TOOLTIP } from './TurnBadges';
import { TurnTimeline } from './TurnTimeline';

const newestFirst = (count: number) => Array.from({ length: count }, (_, index) => turn(count - index));

describe('TurnTimeline', () => {
  it('renders only the visible rows of 5,000 turns, newest first', () => {
    render(<TurnTimeline turns={newestFirst(5000)} selectedTurnId={null} onSelect={() => {}} />);
    const options = screen.getAllByRole('option');
    expect(options.length).toBeGreaterThan(5);
    expect(options.length).toBeLessThan(60);
    expect(options[0]).toHaveTextContent('#5000');
    expect(options[0]).toHaveTextContent('Turn number 5000');
  });

  it('shows number, title, file and skipped counts', () => {
    render(
      <TurnTimeline
        turns={[turn(7, { title: 'Add a login form', fileCount: 3, skippedCount: 2 })]}
        selectedTurnId={null}
        onSelect={() => {}}
      />,
    );
    const row = screen.getByRole('option', { name: /^#7 /i });
    expect(row).toHaveTextContent('Add a login form');
    expect(row).toHaveTextContent('3 files');
    expect(row).toHaveTextContent('2 skipped');
  });

  it('marks exec turns as partially unprotected with a tooltip about shell side effects', () => {
    render(<TurnTimeline turns={[turn(2, { execUsed: true }), turn(1)]} selectedTurnId={null} onSelect={() => {}} />);
    const badge = within(screen.getByRole('option', { name: /^#2 /i })).getByText('partially unprotected');
    expect(badge).toHaveAttribute('title', EXEC_UNPROTECTED_TOOLTIP);
    expect(badge.getAttribute('title')).toMatch(/shell/i);
    expect(within(screen.getByRole('option', { name: /^#1 /i })).queryByText('partially unprotected')).toBeNull();
  });

  it('gives a turn whose shell commands were all captured a quieter mark, never the warning', () => {
    render(
      <TurnTimeline
        turns={[turn(3, { execUsed: true, execCaptured: true })]}
        selectedTurnId={null}
        onSelect={() => {}}
      />,
    );
    const row = screen.getByRole('option', { name: /^#3 /i });
    expect(within(row).getByText('shell changes captured')).toHaveAttribute('title', EXEC_CAPTURED_TOOLTIP);
    expect(within(row).queryByText('partially unprotected')).toBeNull();
  });

  it('shows status badges in the words the terminal uses: undone, partly undone, undo of #N, interrupted, live', () => {
    const turns = [
      turn(5, { status: 'active' }),
      turn(4, { kind: 'rollback', rollbackOf: ['t2'], title: '' }),
      turn(3, { interrupted: true }),
      turn(2, { status: 'rolled-back', rolledBackBy: 't4' }),
      turn(1, { status: 'partially-rolled-back' }),
    ];
    render(<TurnTimeline turns={turns} selectedTurnId={null} onSelect={() => {}} />);
    expect(screen.getByRole('option', { name: /^#5 /i })).toHaveTextContent('live');
    expect(screen.getByRole('option', { name: /^#4 /i })).toHaveTextContent('undo of #2');
    expect(screen.getByRole('option', { name: /^#3 /i })).toHaveTextContent('interrupted');
    expect(screen.getByRole('option', { name: /^#2 /i })).toHaveTextContent(/^(?!.*partly).*undone/);
    expect(screen.getByRole('option', { name: /^#1 /i })).toHaveTextContent('partly undone');
  });

  it('marks the selected turn and selects on click', async () => {
    const onSelect = vi.fn();
    render(<TurnTimeline turns={newestFirst(3)} selectedTurnId="t2" onSelect={onSelect} />);
    expect(screen.getByRole('option', { name: /^#2 /i })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('option', { name: /^#3 /i })).toHaveAttribute('aria-selected', 'false');
    await userEvent.click(screen.getByRole('option', { name: /^#1 /i }));
    expect(onSelect).toHaveBeenCalledWith('t1', false);
  });

  it('moves through turns with the arrow keys and j/k', async () => {
    const onSelect = vi.fn();
    render(<TurnTimeline turns={newestFirst(5)} selectedTurnId="t3" onSelect={onSelect} />);
    screen.getByRole('listbox', { name: 'Turns' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(onSelect).toHaveBeenLastCalledWith('t2', true);
    await userEvent.keyboard('k');
    expect(onSelect).toHaveBeenLastCalledWith('t4', true);
    await userEvent.keyboard('j');
    expect(onSelect).toHaveBeenLastCalledWith('t2', true);
    await userEvent.keyboard('{ArrowUp}');
    expect(onSelect).toHaveBeenLastCalledWith('t4', true);
    await userEvent.keyboard('{End}');
    expect(onSelect).toHaveBeenLastCalledWith('t1', true);
  });

  it('End keeps following the oldest turn while older pages arrive', async () => {
    const onSelect = vi.fn();
    const page = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => turn(to - index));
    const { rerender } = render(
      <TurnTimeline turns={page(11, 30)} selectedTurnId="t30" onSelect={onSelect} hasMore onLoadMore={() => {}} />,
    );
    screen.getByRole('listbox', { name: 'Turns' }).focus();
    await userEvent.keyboard('{End}');
    expect(onSelect).toHaveBeenLastCalledWith('t11', true);
    rerender(
      <TurnTimeline
        turns={page(1, 30)}
        selectedTurnId="t11"
        onSelect={onSelect}
        hasMore={false}
        onLoadMore={() => {}}
      />,
    );
    expect(onSelect).toHaveBeenLastCalledWith('t1', true);
  });

  it('asks for older turns when scrolled near the end of what is loaded', () => {
    const onLoadMore = vi.fn();
    render(
      <TurnTimeline
        turns={newestFirst(15)}
        selectedTurnId={null}
        onSelect={() => {}}
        hasMore
        onLoadMore={onLoadMore}
      />,
    );
    expect(onLoadMore).toHaveBeenCalled();
  });
});
