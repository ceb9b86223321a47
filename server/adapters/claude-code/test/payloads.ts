// Hook payloads in the shape Claude Code writes them on a hook's stdin (common fields
// session_id, transcript_path, cwd, permission_mode, hook_event_name, plus the event's own).

export const SESSION_ID = '3f1c2a8e-5b7d-4e0a-9c61-2d4f8b7a1e90';

interface Common {
  cwd: string;
  sessionId?: string;
  transcriptPath?: string;
}

function common({ cwd, sessionId = SESSION_ID, transcriptPath = '/tmp/none.jsonl' }: Common) {
  return { session_id: sessionId, transcript_path: transcriptPath, cwd, permission_mode: 'default' };
}

let toolUseCounter = 0;
const toolUseId = () => `toolu_01${String(++toolUseCounter).padStart(22, 'A')}`;

export function userPromptSubmit(c: Common, prompt: string) {
  return { ...common(c), hook_event_name: 'UserPromptSubmit', prompt };
}

export function preToolUse(c: Common, toolName: string, toolInput: Record<string, unknown>) {
  return {
    ...common(c),
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: toolUseId(),
  };
}

export const write = (c: Common, filePath: string, content: string) =>
  preToolUse(c, 'Write', { file_path: filePath, content });

export const edit = (c: Common, filePath: string, oldString: string, newString: string) =>
  preToolUse(c, 'Edit', { file_path: filePath, old_string: oldString, new_string: newString });

export const multiEdit = (c: Common, filePath: string, edits: { old_string: string; new_string: string }[]) =>
  preToolUse(c, 'MultiEdit', { file_path: filePath, edits });

export const notebookEdit = (c: Common, notebookPath: string, newSource: string) =>
  preToolUse(c, 'NotebookEdit', {
    notebook_path: notebookPath,
    new_source: newSource,
    cell_id: 'cell-1',
    edit_mode: 'replace',
  });

export const bash = (c: Common, command: string) => preToolUse(c, 'Bash', { command, description: 'Run a command' });

export function stop(c: Common) {
  return { ...common(c), hook_event_name: 'Stop', stop_hook_active: false };
}

/** The PostToolUse Claude Code sends once the tool of `pre` (a PreToolUse payload) has returned. */
export function postToolUse(pre: ReturnType<typeof preToolUse>, failed = false) {
  const end = failed
    ? { hook_event_name: 'PostToolUseFailure', error: 'Exit code 1', is_interrupt: false }
    : { hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '', interrupted: false } };
  return { ...pre, ...end, duration_ms: 12 };
}

/** An API error ends the turn with StopFailure (no Stop), its message as the last reply. */
export function stopFailure(c: Common, message = 'API Error: 400 boom') {
  return { ...common(c), hook_event_name: 'StopFailure', error: 'unknown', last_assistant_message: message };
}

/** `--max-turns`, an exit or `/clear` end the session with SessionEnd alone. */
export function sessionEnd(c: Common, reason = 'other') {
  return { ...common(c), hook_event_name: 'SessionEnd', reason };
}

type ToolCall = Pick<ReturnType<typeof preToolUse>, 'tool_use_id' | 'tool_name' | 'tool_input'>;

/**
 * Transcript lines as Claude Code writes them, one line per content part of a message: per
 * turn the prompt, a first message (thinking, "I will write it.", its tool calls), their tool
 * results, then the reply's text parts. A turn's tool calls are the PreToolUse payloads its
 * hooks sent (the same tool_use_ids), or one Write without a path when it names none.
 */
export function transcriptLines(turns: { prompt: string; reply: string[]; tools?: ToolCall[] }[]): string {
  const lines: unknown[] = [];
  let n = 0;
  for (const turn of turns) {
    const parent = `uuid-${n++}`;
    lines.push({ type: 'user', uuid: parent, sessionId: SESSION_ID, message: { role: 'user', content: turn.prompt } });
    const messageId = `msg_${n++}`;
    lines.push({
      type: 'assistant',
      uuid: `uuid-${n++}`,
      parentUuid: parent,
      message: { id: messageId, role: 'assistant', content: [{ type: 'thinking', thinking: 'planning' }] },
    });
    lines.push({
      type: 'assistant',
      uuid: `uuid-${n++}`,
      message: { id: messageId, role: 'assistant', content: [{ type: 'text', text: 'I will write it.' }] },
    });
    const tools = turn.tools ?? [{ tool_use_id: toolUseId(), tool_name: 'Write', tool_input: { content: 'x' } }];
    for (const tool of tools) {
      lines.push({
        type: 'assistant',
        uuid: `uuid-${n++}`,
        message: {
          id: messageId,
          role: 'assistant',
          content: [{ type: 'tool_use', id: tool.tool_use_id, name: tool.tool_name, input: tool.tool_input }],
        },
      });
    }
    for (const tool of tools) {
      lines.push({
        type: 'user',
        uuid: `uuid-${n++}`,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool.tool_use_id, content: 'ok' }] },
      });
    }
    const finalId = `msg_${n++}`;
    for (const text of turn.reply) {
      lines.push({
        type: 'assistant',
        uuid: `uuid-${n++}`,
        message: { id: finalId, role: 'assistant', content: [{ type: 'text', text }] },
      });
    }
    lines.push({ type: 'system', uuid: `uuid-${n++}`, content: 'Stop hook ran' });
  }
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A subagent's event: the parent's session_id, its own agent_id and agent_type. */
export const bySubagent = <T extends object>(payload: T, agentId: string) => ({
  ...payload,
  agent_id: agentId,
  agent_type: 'general-purpose',
});

export function subagentStart(c: Common, agentId: string) {
  return bySubagent({ ...common(c), hook_event_name: 'SubagentStart' }, agentId);
}

export function subagentStop(c: Common, agentId: string) {
  return bySubagent(
    {
      ...common(c),
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      last_assistant_message: 'Subagent done.',
    },
    agentId,
  );
}

/** Stop while background subagents run (2.1.328): it names them in background_tasks. */
export function stopWithBackground(c: Common, running: string[], lastReply = 'Started it in the background.') {
  return {
    ...stop(c),
    last_assistant_message: lastReply,
    session_crons: [],
    background_tasks: running.map((id) => ({
      id,
      type: 'subagent',
      status: 'running',
      description: 'fix it',
      agent_type: 'general-purpose',
    })),
  };
}

/** The prompt Claude Code writes itself once a background subagent is done (2.1.328). */
export function taskNotification(c: Common, agentId: string) {
  return userPromptSubmit(
    c,
    `<task-notification>\n<task-id>${agentId}</task-id>\n<status>completed</status>\n<result>Subagent done.</result>\n</task-notification>`,
  );
}
