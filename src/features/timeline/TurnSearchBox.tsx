import { useUiStore } from '../../store';

/** Filters the session's turns by prompt text or path; the server searches, so it works at any length. */
export function TurnSearchBox() {
  const text = useUiStore((state) => state.search);
  const setSearch = useUiStore((state) => state.setSearch);
  return (
    <div className="turn-search" role="search">
      <input
        type="search"
        className="turn-search__input"
        placeholder="Filter by prompt or path"
        aria-label="Filter turns by prompt or path"
        value={text}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.preventDefault();
            setSearch('');
          }
        }}
      />
    </div>
  );
}
