// The tokens a service starts with: a flag, a file or the environment when given, else the
// person's kept ones from the state dir (docs/api.md "Tokens").
import type { ServeFlags } from '../cli/args.js';
import { statePathIn, turnbackStateDir } from '../state-dir.js';
import { checkDistinct, checkToken, keptToken, readTokenFile, type Tokens } from './tokens.js';

function one(name: string, value: string | undefined, file: string | undefined, kept: () => string): string {
  if (value !== undefined) return checkToken(name, value);
  if (file !== undefined) return readTokenFile(name, file);
  return kept();
}

/** `stateDir`: where the kept token files are (the service's own state dir). */
export function serviceTokens(flags: ServeFlags, stateDir: string = turnbackStateDir()): Tokens {
  return checkDistinct({
    console: one('the console token', flags.token, flags.tokenFile, () =>
      keptToken(statePathIn(stateDir, 'consoleToken')),
    ),
    agent: one('the agent token', flags.agentToken, flags.agentTokenFile, () =>
      keptToken(statePathIn(stateDir, 'agentToken')),
    ),
  });
}

/** The warning for tokens given as flags: other users can read a command line. */
export function commandLineWarning(flags: ServeFlags): string | undefined {
  if (flags.tokensOnCommandLine.length === 0) return undefined;
  return `warning: ${flags.tokensOnCommandLine.join(' and ')} can be read by other users of this machine in the process list; prefer --token-file / --agent-token-file or TURNBACK_TOKEN / TURNBACK_AGENT_TOKEN`;
}
