// Whether turnback tells agents what the person undid (undone-notice.ts): on unless the console
// turned it off for every host, or `turnback init <host> --quiet-agent` for that host. Kept in the
// state dir's agent-notices.json, which the service reads at each prompt (a small file).
import { readPrivateFile, writePrivateFile } from '../../service/private-file.js';
import { statePath, statePathIn } from '../../state-dir.js';

export interface AgentNoticeSettings {
  /** False: no agent is told (the console's setting). */
  tellAgents: boolean;
  /** The hosts `init --quiet-agent` turned it off for. */
  quietHosts: string[];
}

const DEFAULTS: AgentNoticeSettings = { tellAgents: true, quietHosts: [] };

/** The state dir of the service this process runs (`--state-dir`, `--data`), when it is not the person's own. */
let serviceStateDir: string | undefined;

/** A service keeps the setting in its own state dir (run-service.ts). */
export function keepAgentNoticesIn(stateDir: string): void {
  serviceStateDir = stateDir;
}

/** The file: of `env`'s state dir when one is given (the CLI, tests), else of this process's service. */
const fileOf = (env: NodeJS.ProcessEnv | undefined) =>
  env === undefined && serviceStateDir !== undefined
    ? statePathIn(serviceStateDir, 'agentNotices')
    : statePath('agentNotices', env ?? process.env);

export function readAgentNoticeSettings(env?: NodeJS.ProcessEnv): AgentNoticeSettings {
  try {
    const raw = JSON.parse(readPrivateFile(fileOf(env))) as Partial<AgentNoticeSettings>;
    return {
      tellAgents: raw.tellAgents !== false,
      quietHosts: Array.isArray(raw.quietHosts) ? raw.quietHosts.filter((h): h is string => typeof h === 'string') : [],
    };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Changes the settings as `change` says, keeping the rest; answers them as written. */
export function updateAgentNoticeSettings(
  change: { tellAgents?: boolean; host?: { name: string; quiet: boolean } },
  env?: NodeJS.ProcessEnv,
): AgentNoticeSettings {
  const settings = readAgentNoticeSettings(env);
  if (change.tellAgents !== undefined) settings.tellAgents = change.tellAgents;
  if (change.host) {
    const others = settings.quietHosts.filter((h) => h !== change.host!.name);
    settings.quietHosts = change.host.quiet ? [...others, change.host.name].sort() : others;
  }
  writePrivateFile(fileOf(env), `${JSON.stringify(settings)}\n`);
  return settings;
}

/** Whether an agent of `host` is told what was undone. */
export function tellsAgentsOf(host: string, env?: NodeJS.ProcessEnv): boolean {
  const settings = readAgentNoticeSettings(env);
  return settings.tellAgents && !settings.quietHosts.includes(host);
}
