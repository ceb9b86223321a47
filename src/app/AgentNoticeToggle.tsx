import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentNoticeSettingsResponse } from '../../server/protocol';
import { apiGet, apiPost } from '../api/client';

const PATH = '/api/settings/agent-notices';
const KEY = ['settings', 'agent-notices'] as const;

/** Whether the agent's next prompt says what the person undid (one setting for the service); absent on a server without it. */
export function AgentNoticeToggle() {
  const client = useQueryClient();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => apiGet<AgentNoticeSettingsResponse>(PATH) });
  const change = useMutation({
    mutationFn: (tellAgents: boolean) => apiPost<AgentNoticeSettingsResponse>(PATH, { tellAgents }),
    onSuccess: (settings) => client.setQueryData(KEY, settings),
  });
  if (!data) return null;
  return (
    <label
      className="agent-notice-toggle"
      title="After an undo, the agent's next prompt names the files taken back, so it reads them again before editing"
    >
      <input
        type="checkbox"
        checked={data.tellAgents}
        disabled={change.isPending}
        onChange={(event) => change.mutate(event.target.checked)}
      />
      Tell the agent what I undo
    </label>
  );
}
