// UI state only (what is selected, how diffs are shown). Server data lives in react-query.
import { create } from 'zustand';

export type DiffMode = 'split' | 'unified';
export type DetailTab = 'files' | 'chat' | 'commands';
export type LiveStatus = 'connecting' | 'live' | 'polling';
/** How a selection change lands in browser history: keyboard stepping replaces, clicks push. */
export type HistoryMode = 'push' | 'replace';

export interface Selection {
  sessionId: string | null;
  turnId: string | null;
  fileUri: string | null;
}

interface UiState extends Selection {
  history: HistoryMode;
  /** URIs ticked for a selective restore, for the selected turn. */
  checkedFiles: string[];
  diffMode: DiffMode;
  detailTab: DetailTab;
  liveStatus: LiveStatus;
  /** The server answered 401: the cookie is missing or from an earlier launch. */
  unauthorized: boolean;

  selectSession(sessionId: string | null, history?: HistoryMode): void;
  selectTurn(turnId: string | null, history?: HistoryMode): void;
  selectFile(fileUri: string | null, history?: HistoryMode): void;
  /** Back/forward and first load: take the selection from the URL as it is. */
  restoreSelection(selection: Selection): void;
  toggleChecked(uri: string): void;
  setChecked(uris: string[]): void;
  setDiffMode(mode: DiffMode): void;
  setDetailTab(tab: DetailTab): void;
  setLiveStatus(status: LiveStatus): void;
  setUnauthorized(unauthorized: boolean): void;
}

export const useUiStore = create<UiState>()((set) => ({
  sessionId: null,
  turnId: null,
  fileUri: null,
  history: 'push',
  checkedFiles: [],
  diffMode: 'split',
  detailTab: 'files',
  liveStatus: 'connecting',
  unauthorized: false,

  selectSession: (sessionId, history = 'push') =>
    set((state) =>
      state.sessionId === sessionId ? state : { sessionId, turnId: null, fileUri: null, checkedFiles: [], history },
    ),
  selectTurn: (turnId, history = 'push') =>
    set((state) => (state.turnId === turnId ? state : { turnId, fileUri: null, checkedFiles: [], history })),
  selectFile: (fileUri, history = 'push') => set((state) => (state.fileUri === fileUri ? state : { fileUri, history })),
  restoreSelection: (selection) =>
    set((state) => ({
      ...selection,
      checkedFiles: selection.turnId === state.turnId ? state.checkedFiles : [],
      history: 'replace',
    })),
  toggleChecked: (uri) =>
    set((state) => ({
      checkedFiles: state.checkedFiles.includes(uri)
        ? state.checkedFiles.filter((item) => item !== uri)
        : [...state.checkedFiles, uri],
    })),
  setChecked: (checkedFiles) => set({ checkedFiles }),
  setDiffMode: (diffMode) => set({ diffMode }),
  setDetailTab: (detailTab) => set({ detailTab }),
  setLiveStatus: (liveStatus) => set({ liveStatus }),
  setUnauthorized: (unauthorized) => set({ unauthorized }),
}));
