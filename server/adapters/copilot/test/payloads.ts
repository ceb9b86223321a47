// Copilot CLI 1.0.102 hook payloads, shaped as recorded from the real CLI (camelCase events of a
// `.github/hooks/*.json` file, `copilot -p`): no event name, the event's own fields after
// sessionId, timestamp and cwd. The real-CLI suite (tests/hosts/copilot) checks these shapes.

export const SESSION_ID = '22a094b2-bad6-4643-b200-d597464afeed';

export interface CopilotContext {
  cwd: string;
  sessionId?: string;
  home?: string;
}

const common = ({ cwd, sessionId = SESSION_ID }: CopilotContext) => ({ sessionId, timestamp: 1796620016562, cwd });

export const sessionStart = (c: CopilotContext, initialPrompt: string) => ({
  ...common(c),
  source: 'new',
  initialPrompt,
});
export const userPromptSubmitted = (c: CopilotContext, prompt: string) => ({ ...common(c), prompt });
export const preToolUse = (c: CopilotContext, toolName: string, toolArgs: unknown) => ({
  ...common(c),
  toolName,
  toolArgs,
});
export const postToolUse = (c: CopilotContext, toolName: string, toolArgs: unknown, text = '') => ({
  ...common(c),
  toolName,
  toolArgs,
  toolResult: { resultType: 'success', textResultForLlm: text },
});
export const postToolUseFailure = (c: CopilotContext, toolName: string, toolArgs: unknown, error: string) => ({
  ...common(c),
  toolName,
  toolArgs,
  error,
});
export const agentStop = (c: CopilotContext) => ({
  ...common(c),
  transcriptPath: `${c.home ?? '/home/dev'}/.copilot/session-state/${c.sessionId ?? SESSION_ID}/events.jsonl`,
  stopReason: 'end_turn',
  stop_hook_active: false,
});
export const sessionEnd = (c: CopilotContext) => ({ ...common(c), reason: 'complete' });
export const errorOccurred = (c: CopilotContext, recoverable: boolean) => ({
  ...common(c),
  error: { message: 'model call failed', name: 'Error' },
  errorContext: 'model_call',
  recoverable,
});
