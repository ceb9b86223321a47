// `turnback hook claude-code`: forwards one Claude Code hook event (JSON on stdin) to the
// running turnback server of its workspace. It must never block or break the agent: it
// gives up after 2 s, and exits 0 whatever happens (Claude Code treats exit code 2 from
// PreToolUse as "block the tool").
import { logHookProblem } from '../adapters/claude-code/hook/log.js';
import { HOOK_TIMEOUT_MS, runClaudeCodeHook } from '../adapters/claude-code/hook/run.js';
import { readStdin } from '../adapters/claude-code/hook/stdin.js';

const USAGE = 'usage: turnback hook claude-code   (reads one Claude Code hook event on stdin)';

export async function run(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] !== 'claude-code') {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const controller = new AbortController();
  const giveUp = setTimeout(() => controller.abort(), HOOK_TIMEOUT_MS);
  // A last resort in case something keeps the process alive past the deadline.
  const hardStop = setTimeout(() => process.exit(0), HOOK_TIMEOUT_MS + 500);
  giveUp.unref();
  hardStop.unref();
  try {
    const input = await readStdin(process.stdin, controller.signal);
    process.stdin.destroy();
    await runClaudeCodeHook(input, { signal: controller.signal });
  } catch (error) {
    logHookProblem(`unexpected failure: ${(error as Error).stack ?? String(error)}`);
  } finally {
    clearTimeout(giveUp);
    clearTimeout(hardStop);
  }
  return 0;
}
