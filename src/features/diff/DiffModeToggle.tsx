import { useUiStore } from '../../store';

export function DiffModeToggle() {
  const diffMode = useUiStore((state) => state.diffMode);
  const setDiffMode = useUiStore((state) => state.setDiffMode);
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button type="button" aria-pressed={diffMode === 'split'} onClick={() => setDiffMode('split')}>
        Split
      </button>
      <button type="button" aria-pressed={diffMode === 'unified'} onClick={() => setDiffMode('unified')}>
        Unified
      </button>
    </div>
  );
}
