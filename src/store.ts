// UI state only (what is chosen, how diffs are shown). Server data lives in react-query, and
// what the console shows by default (the newest session, its latest turn, the first file) is
// derived from it in ./app/useSelection, not written here.
import { create } from 'zustand';

export type DiffMode = 'split' | 'unified';
/** `commands`: the turn's steps (its tool calls and shell commands). */
export type DetailTab = 'files' | 'chat' | 'commands';
export type LiveStatus = 'connecting' | 'live' | 'polling';
export type ThemeChoice = 'system' | 'light' | 'dark';
/** How a selection change lands in browser history: keyboard stepping replaces, clicks push. */
export type HistoryMode = 'push' | 'replace';

export interface Selection {
  /** The chosen workspace; null: the server's default one (its unprefixed routes). */
  workspaceId: string | null;
  sessionId: string | null;
  turnId: string | null;
  fileUri: string | null;
}

interface UiState extends Selection {
  history: HistoryMode;
  /** When the session on screen was opened: its default turn is the latest one begun by then. */
  openedAt: number;
  /** URIs ticked for a selective restore, and the turn they belong to. */
  checked: { turnId: string | null; uris: string[] };
  /** null: the layout's default (split when wide, unified when narrow). */
  diffMode: DiffMode | null;
  wrapLines: boolean;
  detailTab: DetailTab;
  liveStatus: LiveStatus;
  theme: ThemeChoice;
  /** Text typed into the timeline's search box. */
  search: string;

  /** Another workspace: its own sessions, so nothing chosen in the last one carries over. */
  selectWorkspace(workspaceId: string | null, history?: HistoryMode): void;
  selectSession(sessionId: string | null, history?: HistoryMode): void;
  selectTurn(turnId: string | null, history?: HistoryMode): void;
  selectFile(fileUri: string | null, history?: HistoryMode): void;
  /** Back/forward and first load: take the selection from the URL as it is. */
  restoreSelection(selection: Selection): void;
  toggleChecked(turnId: string, uri: string): void;
  setChecked(turnId: string | null, uris: string[]): void;
  setDiffMode(mode: DiffMode): void;
  setWrapLines(wrap: boolean): void;
  setDetailTab(tab: DetailTab): void;
  setLiveStatus(status: LiveStatus): void;
  setTheme(theme: ThemeChoice): void;
  setSearch(text: string): void;
}

const THEME_KEY = 'turnback.theme';

function savedTheme(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export const useUiStore = create<UiState>()((set) => ({
  workspaceId: null,
  sessionId: null,
  turnId: null,
  fileUri: null,
  history: 'push',
  openedAt: Date.now(),
  checked: { turnId: null, uris: [] },
  diffMode: null,
  wrapLines: true,
  detailTab: 'files',
  liveStatus: 'connecting',
  theme: savedTheme(),
  search: '',

  selectWorkspace: (workspaceId, history = 'push') =>
    set((state) =>
      state.workspaceId === workspaceId
        ? state
        : {
            workspaceId,
            sessionId: null,
            turnId: null,
            fileUri: null,
            history,
            openedAt: Date.now(),
            search: '',
            checked: { turnId: null, uris: [] },
          },
    ),
  selectSession: (sessionId, history = 'push') =>
    set((state) =>
      state.sessionId === sessionId
        ? state
        : { sessionId, turnId: null, fileUri: null, history, openedAt: Date.now(), search: '' },
    ),
  selectTurn: (turnId, history = 'push') =>
    set((state) => (state.turnId === turnId ? state : { turnId, fileUri: null, history })),
  selectFile: (fileUri, history = 'push') => set((state) => (state.fileUri === fileUri ? state : { fileUri, history })),
  restoreSelection: (selection) => set({ ...selection, history: 'replace', openedAt: Date.now() }),
  toggleChecked: (turnId, uri) =>
    set((state) => {
      const uris = state.checked.turnId === turnId ? state.checked.uris : [];
      return { checked: { turnId, uris: uris.includes(uri) ? uris.filter((item) => item !== uri) : [...uris, uri] } };
    }),
  setChecked: (turnId, uris) => set({ checked: { turnId, uris } }),
  setDiffMode: (diffMode) => set({ diffMode }),
  setWrapLines: (wrapLines) => set({ wrapLines }),
  setDetailTab: (detailTab) => set({ detailTab }),
  setLiveStatus: (liveStatus) => set({ liveStatus }),
  setTheme: (theme) => {
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Private windows may refuse storage: the choice then lasts for this page only.
    }
    set({ theme });
  },
  setSearch: (search) => set({ search }),
}));
