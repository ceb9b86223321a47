// The CLI's usage text (docs/api.md "Build and run").
export const USAGE = `usage:
  turnback serve --workspace <dir> [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
                 [--scopes 'webui:*,claude-code:*'] [--max-file-size <bytes>] [--keep-days <n>]
                 [--keep-sessions <n>] [--exclude <glob>]...
  turnback demo  [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
  turnback hook claude-code
  turnback init claude-code [--workspace <dir>] [--remove]
  turnback init gemini|opencode [--workspace <dir>] [--global] [--remove]

  serve   records the turns of agents working in <dir> and serves the console on 127.0.0.1
  demo    creates a demo project with recorded agent sessions, then serves it
  --help  prints this text

Tokens default to $TURNBACK_TOKEN / $TURNBACK_AGENT_TOKEN, else are random per launch.
Sessions idle longer than --keep-days (default 30; 0 keeps them forever) are pruned, and with
--keep-sessions <n> those beyond the n most recently active; never one active in the last 24 h.
--exclude globs (default .git/** and node_modules/**) are neither recorded nor touched.
`;

/** An error in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}
