// Antigravity CLI (agy) hook payloads as documented and as Entire captured them from agy 1.0.x
// (entireio/cli, cmd/entire/cli/agent/antigravity/testdata): no event name, the event's own
// fields beside conversationId, workspacePaths, transcriptPath and artifactDirectoryPath.

export const CONVERSATION_ID = 'ec33ebf9-0cba-4100-8142-c61503f6c587';

export interface AgyContext {
  root: string;
  conversationId?: string;
}

const common = ({ root, conversationId = CONVERSATION_ID }: AgyContext) => ({
  conversationId,
  workspacePaths: [root],
  transcriptPath: `/home/dev/.gemini/antigravity-cli/brain/${conversationId}/.system_generated/logs/transcript_full.jsonl`,
  artifactDirectoryPath: `/home/dev/.gemini/antigravity-cli/brain/${conversationId}`,
});

export const preInvocation = (c: AgyContext, invocationNum: number) => ({
  invocationNum,
  initialNumSteps: invocationNum + 1,
  ...common(c),
});
export const postInvocation = preInvocation;
export const preToolUse = (c: AgyContext, name: string, args: unknown, stepIdx: number) => ({
  toolCall: { name, args },
  stepIdx,
  ...common(c),
});
export const postToolUse = (c: AgyContext, stepIdx: number, error?: string) => ({
  stepIdx,
  ...(error === undefined ? {} : { error }),
  ...common(c),
});
export const stop = (c: AgyContext, fullyIdle = true) => ({
  executionNum: 1,
  terminationReason: 'model_stop',
  error: '',
  fullyIdle,
  ...common(c),
});
