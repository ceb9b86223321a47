// The CLI's usage text (docs/api.md "Build and run").
export const USAGE = `usage:
  turnback start [--port N]     starts your turnback service in the background and prints its console URL
  turnback stop                 stops it (active turns are committed first)
  turnback status [--json]      its pid, URL and workspaces: sessions, store size, recording or why not
  turnback url                  prints the console URL with its token
  turnback serve [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token-file <f>] [--agent-token-file <f>]
                 [--token <t>] [--agent-token <t>] [--scopes 'webui:*,claude-code:*'] [--max-file-size <bytes>]
                 [--keep-days <n>] [--keep-sessions <n>] [--exclude <glob>]...
                                the same service in the foreground; --workspace registers <dir> as its default
  turnback demo  [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
                                creates a demo project with recorded agent sessions, then serves it
  turnback hook claude-code
  turnback init claude-code [--workspace <dir>] [--remove]
  turnback --version | --help

One service per user records every workspace (the git top level of an agent's cwd, else the cwd);
the first hook starts it when it is not running. Tokens are kept in the state dir
(\${XDG_STATE_HOME:-~/.local/state}/turnback); --token-file, $TURNBACK_TOKEN / $TURNBACK_AGENT_TOKEN
or --token (readable by other users in the process list) fix them instead, at least 22 characters.
Sessions idle longer than --keep-days (default 30; 0 keeps them forever) are pruned, and with
--keep-sessions <n> those beyond the n most recently active; never one active in the last 24 h.
--exclude globs (default .git/** and node_modules/**) are neither recorded nor touched.
`;

/** An error in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}
