// `turnback hook claude-code [--max-time S]`: forwards one Claude Code hook event (JSON on
// stdin) to the person's turnback service, started when none runs. It must never block or break the
// agent: its delivery gives up after 2 s (or S seconds, for the calls that wait for a scan;
// starting the service waits up to START_WAIT_MS before that), and exits 0
// whatever happens (Claude Code treats exit code 2 from PreToolUse as "block the tool").
import { logHookProblem } from '../adapters/claude-code/hook/log.js';
import { HOOK_TIMEOUT_MS, runClaudeCodeHook } from '../adapters/claude-code/hook/run.js';
import { readStdin } from '../adapters/claude-code/hook/stdin.js';
import { START_WAIT_MS } from '../service/spawn-service.js';

const USAGE = 'usage: turnback hook [claude-code|<host>] [--max-time SECONDS]   (reads one hook event on stdin)';

/** A host's name as the hook routes spell it (`claude-code`, `codex`, `gemini`, …). */
const HOST_NAME = /^[a-z][a-z-]{0,30}$/;

/** How long to wait for the server, or null for a command line that is not this command's. */
function timeoutOf(args: string[]): number | null {
  if (args[0] === undefined || !HOST_NAME.test(args[0])) return null;
  if (args.length === 1) return HOOK_TIMEOUT_MS;
  if (args.length === 3 && args[1] === '--max-time' && /^[1-9][0-9]{0,4}$/.test(args[2])) return Number(args[2]) * 1000;
  return null;
}

export async function run(args: string[]): Promise<number> {
  const timeoutMs = timeoutOf(args);
  if (timeoutMs === null) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const controller = new AbortController();
  const giveUp = setTimeout(() => controller.abort(), timeoutMs);
  // A last resort in case something keeps the process alive past the deadline (a cold start of
  // the service may take its own wait first).
  const hardStop = setTimeout(() => process.exit(0), timeoutMs + START_WAIT_MS + 1_000);
  giveUp.unref();
  hardStop.unref();
  try {
    const input = await readStdin(process.stdin, controller.signal);
    process.stdin.destroy();
    clearTimeout(giveUp);
    // The delivery has its own deadline, from when it starts.
    const result = await runClaudeCodeHook(input, { signal: new AbortController().signal, timeoutMs, host: args[0] });
    // Claude Code shows a hook's `systemMessage` to the person.
    if (result.systemMessage) process.stdout.write(`${JSON.stringify({ systemMessage: result.systemMessage })}\n`);
    // A prompt's paragraph for the agent, in the host's own shape (docs/api.md, the hook route).
    else if (result.hookOutput) process.stdout.write(`${JSON.stringify(result.hookOutput)}\n`);
  } catch (error) {
    logHookProblem(`unexpected failure: ${(error as Error).stack ?? String(error)}`);
  } finally {
    clearTimeout(giveUp);
    clearTimeout(hardStop);
  }
  return 0;
}
