// The CLI's usage text (API.md "Build and run").
export const USAGE = `usage:
  turnback serve --workspace <dir> [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
                 [--scopes 'webui:*,claude-code:*'] [--max-file-size <bytes>] [--keep-sessions <n>]
  turnback demo  [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
  turnback hook claude-code
  turnback init claude-code [--workspace <dir>] [--remove]

  serve   records the turns of agents working in <dir> and serves the console on 127.0.0.1
  demo    creates a demo project with recorded agent sessions, then serves it
  --help  prints this text

Tokens default to $TURNBACK_TOKEN / $TURNBACK_AGENT_TOKEN, else are random per launch.
`;

/** An error in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}
