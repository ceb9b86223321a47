import { useMediaQuery, NARROW_QUERY } from '../../lib/useMediaQuery';
import { useUiStore, type DiffMode } from '../../store';

/** The person's choice, else split when wide and unified when narrow (one column). */
export function useDiffMode(): DiffMode {
  const chosen = useUiStore((state) => state.diffMode);
  const narrow = useMediaQuery(NARROW_QUERY);
  return chosen ?? (narrow ? 'unified' : 'split');
}
