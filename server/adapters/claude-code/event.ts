// Parses one Claude Code hook event (the JSON object it writes on the hook's stdin) into the
// few shapes turnback acts on. Anything else is either "ignored" (a valid event we have no
// use for) or "malformed" (not an event at all), so the caller can log the latter.

const SESSION_ID = /^[A-Za-z0-9._:@-]{1,200}$/;

/** Tools whose PreToolUse means "a file is about to change", with the field naming it. */
const FILE_TOOLS: Record<string, 'file_path' | 'notebook_path'> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

interface EventBase {
  sessionId: string;
  cwd: string;
}

export type HookEvent =
  | (EventBase & { kind: 'prompt'; prompt: string })
  | (EventBase & { kind: 'file-change'; tool: string; path: string })
  | (EventBase & { kind: 'shell'; command: string })
  | (EventBase & { kind: 'stop'; transcriptPath: string | null; lastAssistantMessage: string | null });

export type ParsedHookEvent =
  | { ok: true; event: HookEvent }
  | { ok: false; ignored: true; reason: string }
  | { ok: false; ignored: false; reason: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const malformed = (reason: string): ParsedHookEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHookEvent => ({ ok: false, ignored: true, reason });

export function parseHookEvent(text: string): ParsedHookEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return malformed('input is not JSON');
  }
  return parseHookEventValue(raw);
}

/** The same, for an event whose JSON is already parsed (the server's hook route). */
export function parseHookEventValue(raw: unknown): ParsedHookEvent {
  if (!isObject(raw)) return malformed('input is not a JSON object');

  const name = raw.hook_event_name;
  if (typeof name !== 'string') return malformed('no hook_event_name');
  const sessionId = raw.session_id;
  if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
    return malformed(`invalid session_id in ${name}`);
  }
  const cwd = raw.cwd;
  if (typeof cwd !== 'string' || cwd.length === 0) return malformed(`no cwd in ${name}`);
  const base: EventBase = { sessionId, cwd };

  switch (name) {
    case 'UserPromptSubmit':
      if (typeof raw.prompt !== 'string') return malformed('UserPromptSubmit without prompt');
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt } };
    case 'PreToolUse':
      return parseToolUse(base, raw);
    case 'Stop': {
      const transcript = raw.transcript_path;
      const transcriptPath = typeof transcript === 'string' && transcript.length > 0 ? transcript : null;
      // Newer Claude Code versions hand over the reply itself: the transcript may not hold it
      // yet when Stop fires.
      const last = raw.last_assistant_message;
      const lastAssistantMessage = typeof last === 'string' && last.trim() !== '' ? last : null;
      return { ok: true, event: { ...base, kind: 'stop', transcriptPath, lastAssistantMessage } };
    }
    default:
      return ignored(`event ${name} is not forwarded`);
  }
}

function parseToolUse(base: EventBase, raw: Json): ParsedHookEvent {
  const tool = raw.tool_name;
  if (typeof tool !== 'string') return malformed('PreToolUse without tool_name');
  const input = raw.tool_input;
  if (!isObject(input)) return malformed(`PreToolUse ${tool} without tool_input`);

  if (tool === 'Bash') {
    if (typeof input.command !== 'string') return malformed('PreToolUse Bash without command');
    return { ok: true, event: { ...base, kind: 'shell', command: input.command } };
  }
  const field = FILE_TOOLS[tool];
  if (!field) return ignored(`tool ${tool} is not forwarded`);
  const path = input[field];
  if (typeof path !== 'string' || path.length === 0) {
    return malformed(`PreToolUse ${tool} without ${field}`);
  }
  return { ok: true, event: { ...base, kind: 'file-change', tool, path } };
}
