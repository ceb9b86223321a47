import { useUiStore } from '../../store';
import { useDiffMode } from './useDiffMode';

export function DiffModeToggle() {
  const diffMode = useDiffMode();
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
