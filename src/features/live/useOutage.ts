// Whether the server is unreachable right now. While the event stream is down the console asks
// /api/health every second, so an outage shows within about two seconds; the views keep the
// last data they had (react-query keeps it through errors) and actions wait for the server.
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { healthQuery } from '../../api/queries';
import { useUiStore } from '../../store';

const OUTAGE_POLL_MS = 1000;

export function useOutage(): boolean {
  const live = useUiStore((state) => state.liveStatus === 'live');
  const health = useQuery({
    ...healthQuery(),
    refetchInterval: live ? false : OUTAGE_POLL_MS,
    refetchIntervalInBackground: true,
  });
  return health.isError && isApiError(health.error, 'NETWORK');
}
