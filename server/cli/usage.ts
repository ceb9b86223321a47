// The CLI's usage text (docs/api.md "Build and run").
export const USAGE = `usage:
  turnback start [--port N] [--store-budget <size>] [--person-budget <size>]
                                starts your turnback service in the background and prints its console URL
  turnback stop                 stops it (active turns are committed first)
  turnback status [--json]      its pid, URL and workspaces: sessions, store size, recording or why not
  turnback url                  prints the console URL with its token
  turnback forget <workspace> [--delete-store]
                                stops recording a workspace (its id or root); its store is kept unless --delete-store
  turnback serve [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token-file <f>] [--agent-token-file <f>]
                 [--token <t>] [--agent-token <t>] [--scopes 'webui:*,claude-code:*'] [--max-file-size <bytes>]
                 [--keep-days <n>] [--keep-sessions <n>] [--store-budget <bytes|NNMiB|NNGiB>]
                 [--person-budget <bytes|NNMiB|NNGiB>] [--exclude <glob>]... [--protect <glob>]... [--state-dir <dir>]
                                the same service in the foreground; --workspace registers <dir> as its default;
                                with --data it is self-contained: its own files in <dir> (or --state-dir), not yours
  turnback demo  [--workspace <dir>] [--data <dir>] [--port 4820|0] [--token <t>] [--agent-token <t>]
                                creates a demo project with recorded agent sessions, then serves it
  turnback hook claude-code
  turnback init <antigravity|claude-code|codex|copilot|cursor|gemini|opencode> [--workspace <dir>] [--global] [--remove] [--mcp] [--no-start] [--allow] [--quiet-agent]
                                --mcp (claude-code): registers the MCP server in ~/.claude.json
                                --allow: records <dir> even when it is a system folder or inside a dot-folder of ~
                                --quiet-agent: the host's agent is not told what you undo (init again without it: told)
  turnback --version | --help

  turnback log [-n N] [--session S]                  the workspace's turns, newest first
  turnback show <turn>                               a turn's files, steps and shell commands
  turnback diff <turn> [path...]                     a turn's change as a unified diff
  turnback diff <a>..<b> [path...]                   the tree at the end of a against the end of b (turns or pins)
  turnback undo [<turn>] [--with-chat] [--files <path>...] [--step N]... [--keep-both] [--git-add] [--force] [--only-here] [--yes]
                                                     --step: only what those steps of the turn changed
  turnback redo                                      takes back the last undo
  turnback rewind <turn|pin> [--keep-both]           undoes <turn> and every later one, or goes back to a pin
  turnback restore <path>... --from <turn> [--keep-both]  those paths as they were before <turn>
  turnback pin [name]                                marks the current state as a named point, kept from retention
  turnback pins                                      lists them
  turnback unpin <pin>                               gives it back to retention
  turnback budget [<size>|default] [--workspace X]   the workspace's store budget, or sets its own (kept across restarts)
  turnback budget --person [<size>|default]          your budget over all your workspaces (none by default), or sets it
  turnback mcp [--workspace <dir>]                   an MCP server on stdio with these tools

  turnback explain [<commit|range>]                  the agent turns behind each commit (git notes of this clone)
  turnback blame <file>                              per line: its commit, then the agent turn that wrote it, or person
  turnback share [on|off] [--prompts] [--remote R]   whether your git push/fetch carry those notes (off by default)
  turnback push | pull [--remote R]                  sends this clone's notes, or merges the remote's into them

One service per user records every workspace: an agent's event brings the git top level of its
cwd, or a plain folder in your home folder; any other folder is recorded after turnback init there.
The first hook starts the service when it is not running. Tokens are kept in the state dir
(\${XDG_STATE_HOME:-~/.local/state}/turnback); --token-file, $TURNBACK_TOKEN / $TURNBACK_AGENT_TOKEN
or --token (readable by other users in the process list) fix them instead, at least 22 characters.
Sessions idle longer than --keep-days (default 30; 0 keeps them forever) are pruned, and with
--keep-sessions <n> those beyond the n most recently active; never one active in the last 24 h.
A workspace's store over --store-budget (default the larger of 2 GiB and 10x the workspace's size)
loses its oldest sessions first, said so; never one with a pin or an active turn, nor the last one.
Over --person-budget (or turnback budget --person), the oldest session of any workspace goes first.
--exclude globs (default .git/** and node_modules/**) are neither recorded nor touched.
A git-ignored folder over 2,000 files or 128 MiB (build output: target/, .venv/) is not protected,
and said so; --protect <glob> takes such a folder back in.

The terminal commands work in the workspace of the current folder, against the user's service
(started when none runs). A <turn> is its number in the session (--session S, else the most
recent one), last, or a unique prefix of its id. A <pin> is pin:<n> (as turnback pins lists it),
its name, or a unique prefix of its id; rewind and diff take either. Each takes --json; undo,
redo, rewind and restore print what they will do and ask unless --yes, and refuse a conflict
unless --force; --keep-both leaves a conflicting file as it is and writes the restored version
beside it (<name>.turnback-<turn number>).
Exit codes: 0 done, 1 refused (conflict, drift, an active turn), 2 usage or no service.
`;

/** An error in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}
