import { useUiStore } from '../../store';

/** Events keep the views fresh; without a live event stream, lists poll instead. */
export function usePollingInterval(whenPolling = 4000): number | false {
  const liveStatus = useUiStore((state) => state.liveStatus);
  return liveStatus === 'live' ? false : whenPolling;
}
