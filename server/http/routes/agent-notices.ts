// `GET /api/settings/agent-notices` and `POST /api/settings/agent-notices {tellAgents}`: the
// console's setting of whether agents are told what the person undid (docs/api.md, "Telling the
// agent what was undone"), one for the service, in agent-notices.json of the state dir.
import { readAgentNoticeSettings, updateAgentNoticeSettings } from '../../adapters/core/agent-notices.js';
import type { AgentNoticeSettingsResponse } from '../../protocol.js';
import { HttpError } from '../errors.js';
import { objectBody, optionalBoolean } from '../validate.js';

export const AGENT_NOTICES_PATH = '/api/settings/agent-notices';

export function agentNoticeSettings(): AgentNoticeSettingsResponse {
  return readAgentNoticeSettings();
}

export function setAgentNoticeSettings(body: unknown): AgentNoticeSettingsResponse {
  const tellAgents = optionalBoolean(objectBody(body), 'tellAgents');
  if (tellAgents === undefined) throw new HttpError('BAD_REQUEST', 'tellAgents must be true or false');
  return updateAgentNoticeSettings({ tellAgents });
}
