// What the console shows, derived on each render from the person's choices (zustand) and the
// data (react-query): nothing chosen means the most recently active session, the latest turn
// begun when it was opened, and the turn's first displayed file. Nothing is written back, so
// a default never fights a choice and never needs an effect.
import { useShallow } from 'zustand/react/shallow';
import type { FileChange, Manifest, Session, Turn } from '../../server/protocol';
import { useSessions, useSessionTurns, useTurnManifest } from '../api/hooks';
import { useUiStore } from '../store';
import { displayRows, firstToShow } from '../features/turn-detail/fileRows';

export interface ResolvedSelection {
  sessionId: string | null;
  turnId: string | null;
  fileUri: string | null;
  session: Session | undefined;
  /** The session's loaded turns, newest first. */
  turns: Turn[];
  /** The selected turn's rows in display order. */
  rows: FileChange[];
  /** The URIs ticked for restore in the selected turn. */
  checked: string[];
}

/** A manifest's rows in display order, kept per answer: every pane showing the selection asks for them. */
const rowsOfManifest = new WeakMap<Manifest, FileChange[]>();
const NO_ROWS: FileChange[] = [];

function rowsOf(manifest: Manifest | undefined): FileChange[] {
  if (!manifest) return NO_ROWS;
  let rows = rowsOfManifest.get(manifest);
  if (!rows) {
    rows = displayRows(manifest.files);
    rowsOfManifest.set(manifest, rows);
  }
  return rows;
}

function defaultTurn(turns: Turn[], openedAt: number): Turn | undefined {
  return turns.find((turn) => Date.parse(turn.startedAt) <= openedAt) ?? turns[0];
}

export function useSelection(): ResolvedSelection {
  const chosen = useUiStore(
    useShallow((state) => ({
      sessionId: state.sessionId,
      turnId: state.turnId,
      fileUri: state.fileUri,
      openedAt: state.openedAt,
      checked: state.checked,
    })),
  );
  const { data: sessions } = useSessions();
  const sessionId = chosen.sessionId ?? sessions?.[0]?.sessionId ?? null;
  const { turns } = useSessionTurns(sessionId);
  const turnId = chosen.turnId ?? defaultTurn(turns, chosen.openedAt)?.turnId ?? null;
  const { data: manifest } = useTurnManifest(turnId);
  const rows = rowsOf(manifest);
  const fileUri = rows.some((row) => row.uri === chosen.fileUri) ? chosen.fileUri : (firstToShow(rows)?.uri ?? null);
  return {
    sessionId,
    turnId,
    fileUri,
    turns,
    rows,
    session: sessions?.find((item) => item.sessionId === sessionId),
    checked: chosen.checked.turnId === turnId ? chosen.checked.uris : [],
  };
}
