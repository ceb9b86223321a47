// The person's budget over all the service's workspaces (GET /api/settings/person-budget); absent
// on a server without it (one engine), and then nothing is said of it.
import { useQuery } from '@tanstack/react-query';
import type { PersonBudget } from '../../../server/protocol';
import { apiGet } from '../../api/client';

export function usePersonBudget() {
  return useQuery({
    queryKey: ['settings', 'person-budget'],
    queryFn: () => apiGet<PersonBudget>('/api/settings/person-budget'),
    retry: false,
    staleTime: 30_000,
  });
}
