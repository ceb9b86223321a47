// The virtualized list of a session's turns, newest first. It is a listbox: arrow keys or
// j/k move the selection, Home/End jump, and the selected row is kept in view.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { Turn } from '../../../server/protocol';
import { TURN_ROW_HEIGHT, TurnRow, turnOptionId } from './TurnRow';

export interface TurnTimelineProps {
  /** Newest first. */
  turns: Turn[];
  selectedTurnId: string | null;
  onSelect: (turnId: string, viaKeyboard: boolean) => void;
  hasMore?: boolean;
  onLoadMore?: () => void;
}

const NEXT_KEYS = new Set(['ArrowDown', 'j']);
const PREVIOUS_KEYS = new Set(['ArrowUp', 'k']);

export function TurnTimeline({ turns, selectedTurnId, onSelect, hasMore = false, onLoadMore }: TurnTimelineProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: turns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TURN_ROW_HEIGHT,
    // A row is at least its estimate; where nothing is laid out (a test's DOM) it is the estimate.
    measureElement: (element) => Math.max(TURN_ROW_HEIGHT, element.getBoundingClientRect().height),
    overscan: 8,
    getItemKey: (index) => turns[index]?.turnId ?? index,
  });

  const byId = useMemo(() => new Map(turns.map((turn) => [turn.turnId, turn])), [turns]);
  const turnOf = useCallback((turnId: string) => byId.get(turnId), [byId]);
  const selectedIndex = useMemo(
    () => turns.findIndex((turn) => turn.turnId === selectedTurnId),
    [turns, selectedTurnId],
  );

  // The selected row is brought into view when the selection changes (or first shows), never
  // because rows moved: a live turn arriving must not pull a reader back to the top.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (selectedIndex < 0 || scrolledTo.current === selectedTurnId) return;
    scrolledTo.current = selectedTurnId;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, selectedTurnId, virtualizer]);

  // New turns arrive at the top: a reader further down keeps the rows they were reading in place.
  const firstTurnId = useRef<string | undefined>(turns[0]?.turnId);
  useLayoutEffect(() => {
    const previous = firstTurnId.current;
    firstTurnId.current = turns[0]?.turnId;
    const element = scrollRef.current;
    if (!previous || !element || element.scrollTop === 0) return;
    const shift = turns.findIndex((turn) => turn.turnId === previous);
    if (shift > 0) element.scrollTop += shift * TURN_ROW_HEIGHT;
  }, [turns]);

  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length > 0 ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (hasMore && onLoadMore && lastVisible >= turns.length - 20) onLoadMore();
  }, [hasMore, onLoadMore, lastVisible, turns.length]);

  // End means the session's first turn even when older pages are still loading: keep
  // following the end of the list until it is all there.
  const followEnd = useRef(false);
  useEffect(() => {
    const last = turns[turns.length - 1];
    if (followEnd.current && last && last.turnId !== selectedTurnId) onSelect(last.turnId, true);
    if (!hasMore) followEnd.current = false;
  }, [turns, hasMore, selectedTurnId, onSelect]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || turns.length === 0) return;
    followEnd.current = event.key === 'End' && hasMore;
    let index: number | null = null;
    if (NEXT_KEYS.has(event.key)) index = Math.min(turns.length - 1, selectedIndex + 1);
    else if (PREVIOUS_KEYS.has(event.key)) index = Math.max(0, selectedIndex < 0 ? 0 : selectedIndex - 1);
    else if (event.key === 'Home') index = 0;
    else if (event.key === 'End') index = turns.length - 1;
    else if (event.key === 'PageDown') index = Math.min(turns.length - 1, Math.max(0, selectedIndex) + 10);
    else if (event.key === 'PageUp') index = Math.max(0, selectedIndex - 10);
    else if (event.key === 'ArrowRight' || event.key === 'l') {
      // Into the selected turn's files, where the same keys move between files.
      const file =
        document.querySelector<HTMLElement>('#changed-files [aria-current="true"]') ??
        document.querySelector<HTMLElement>('#changed-files .file-row__path');
      if (file) {
        event.preventDefault();
        file.focus();
      }
      return;
    }
    if (index === null) return;
    event.preventDefault();
    event.stopPropagation();
    onSelect(turns[index].turnId, true);
  };

  return (
    <div
      ref={scrollRef}
      className="timeline-scroll"
      id="turn-timeline"
      role="listbox"
      aria-label="Turns"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? turnOptionId(turns[selectedIndex].turnId) : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((item) => {
          const turn = turns[item.index];
          return (
            <TurnRow
              key={item.key}
              // Rows are measured: one whose badges wrap to a second line is taller, never cut.
              measureRef={virtualizer.measureElement}
              index={item.index}
              turn={turn}
              selected={turn.turnId === selectedTurnId}
              turnOf={turnOf}
              onSelect={() => {
                followEnd.current = false;
                onSelect(turn.turnId, false);
              }}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                minHeight: TURN_ROW_HEIGHT,
                transform: `translateY(${item.start}px)`,
              }}
            />
          );
        })}
      </div>
    </div>
  );
}
