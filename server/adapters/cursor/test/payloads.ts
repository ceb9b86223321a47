// Cursor hook payloads as its hooks documentation gives them: every event carries
// hook_event_name, conversation_id, generation_id, workspace_roots (and optionally model,
// cursor_version, user_email); the event's own fields follow.

export const CONVERSATION_ID = '0f4e2b7c-93a1-4d5e-8c2f-6b1a9d3e7f20';

export interface CursorContext {
  root: string;
  conversationId?: string;
  generationId?: string;
}

const common = ({ root, conversationId = CONVERSATION_ID, generationId = 'gen-1' }: CursorContext, name: string) => ({
  hook_event_name: name,
  conversation_id: conversationId,
  generation_id: generationId,
  workspace_roots: [root],
  model: 'claude-4.5-sonnet',
  cursor_version: '2.0.77',
  user_email: 'dev@example.com',
});

let ids = 0;

export const beforeSubmitPrompt = (c: CursorContext, prompt: string) => ({
  ...common(c, 'beforeSubmitPrompt'),
  prompt,
  attachments: [],
});
export const beforeShellExecution = (c: CursorContext, command: string, cwd = c.root) => ({
  ...common(c, 'beforeShellExecution'),
  command,
  cwd,
});
export const afterShellExecution = (c: CursorContext, command: string, cwd = c.root) => ({
  ...common(c, 'afterShellExecution'),
  command,
  cwd,
  output: '',
  duration: 150,
});
export const beforeMCPExecution = (c: CursorContext, tool: string, input: Record<string, unknown>) => ({
  ...common(c, 'beforeMCPExecution'),
  tool_name: tool,
  tool_input: JSON.stringify(input),
  command: 'npx mcp-server',
});
export const afterMCPExecution = (c: CursorContext, tool: string, input: Record<string, unknown>) => ({
  ...common(c, 'afterMCPExecution'),
  tool_name: tool,
  tool_input: JSON.stringify(input),
  result_json: '{}',
  duration: 250,
});
export const afterFileEdit = (
  c: CursorContext,
  filePath: string,
  edits: { old_string: string; new_string: string }[],
) => ({ ...common(c, 'afterFileEdit'), file_path: filePath, edits });
export const preToolUse = (c: CursorContext, tool: string, input: Record<string, unknown>) => ({
  ...common(c, 'preToolUse'),
  tool_name: tool,
  tool_input: input,
  tool_use_id: `tool-${++ids}`,
  cwd: c.root,
  agent_message: '',
});
export const postToolUse = (pre: ReturnType<typeof preToolUse>, failed = false) => ({
  ...pre,
  hook_event_name: failed ? 'postToolUseFailure' : 'postToolUse',
  duration: 12,
  ...(failed ? { error_message: 'failed' } : { tool_output: '{"exitCode":0}' }),
});
export const afterAgentResponse = (c: CursorContext, text: string) => ({ ...common(c, 'afterAgentResponse'), text });
export const stop = (c: CursorContext, status = 'completed') => ({ ...common(c, 'stop'), status, loop_count: 0 });
