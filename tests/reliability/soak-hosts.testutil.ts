// The soak's agents speak their host's hook payloads (shapes of server/adapters/*/event.ts and
// their recorded fixtures): Claude Code, Codex and Gemini. One call of a shell command or a
// file tool is a pair of events, before and after; a turn is a prompt, its calls, and a stop.
import { randomUUID } from 'node:crypto';
import path from 'node:path';

export type HostName = 'claude-code' | 'codex' | 'gemini';
export const HOSTS: HostName[] = ['claude-code', 'codex', 'gemini'];

/** A file tool's change: the path (relative to cwd), its new text, or null for a delete (Codex's patch only). */
export interface FileEdit {
  rel: string;
  text: string | null;
  existed: boolean;
  oldText?: string;
}

export interface HostPayloads {
  prompt(cwd: string, prompt: string): unknown;
  shell(cwd: string, command: string): { before: unknown; after: unknown };
  /** The file tool's pair, or null when this host's tools cannot make `edit` (the agent runs it as a command instead). */
  file(cwd: string, edit: FileEdit): { before: unknown; after: unknown } | null;
  stop(cwd: string): unknown;
  end(cwd: string): unknown;
}

let calls = 0;
const callId = () => `call_soak_${String(++calls).padStart(8, '0')}`;

export function payloadsOf(host: HostName, sessionId: string, transcript: string): HostPayloads {
  const base = (cwd: string) => ({ session_id: sessionId, transcript_path: transcript, cwd });
  switch (host) {
    case 'claude-code': {
      const tool = (cwd: string, name: string, input: Record<string, unknown>) => {
        const before = {
          ...base(cwd),
          permission_mode: 'default',
          hook_event_name: 'PreToolUse',
          tool_name: name,
          tool_input: input,
          tool_use_id: `toolu_${callId()}`,
        };
        const after = { ...before, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '' } };
        return { before, after };
      };
      return {
        prompt: (cwd, prompt) => ({ ...base(cwd), hook_event_name: 'UserPromptSubmit', prompt }),
        shell: (cwd, command) => tool(cwd, 'Bash', { command, description: 'soak' }),
        file: (cwd, edit) =>
          edit.text === null ? null : tool(cwd, 'Write', { file_path: path.join(cwd, edit.rel), content: edit.text }),
        stop: (cwd) => ({ ...base(cwd), hook_event_name: 'Stop', stop_hook_active: false }),
        end: (cwd) => ({ ...base(cwd), hook_event_name: 'SessionEnd', reason: 'other' }),
      };
    }
    case 'codex': {
      const tool = (cwd: string, name: string, command: string) => {
        const before = {
          ...base(cwd),
          model: 'gpt-5.5',
          hook_event_name: 'PreToolUse',
          tool_name: name,
          tool_input: { command },
          tool_use_id: callId(),
        };
        return { before, after: { ...before, hook_event_name: 'PostToolUse', tool_response: 'Exit code: 0' } };
      };
      const patch = (edit: FileEdit) => {
        if (edit.text === null) return `*** Begin Patch\n*** Delete File: ${edit.rel}\n*** End Patch\n`;
        const plus = edit.text
          .split('\n')
          .filter((line, i, all) => i < all.length - 1 || line !== '')
          .map((line) => `+${line}`)
          .join('\n');
        if (!edit.existed) return `*** Begin Patch\n*** Add File: ${edit.rel}\n${plus}\n*** End Patch\n`;
        const minus = (edit.oldText ?? '')
          .split('\n')
          .filter((line, i, all) => i < all.length - 1 || line !== '')
          .map((line) => `-${line}`)
          .join('\n');
        return `*** Begin Patch\n*** Update File: ${edit.rel}\n@@\n${minus}\n${plus}\n*** End Patch\n`;
      };
      return {
        prompt: (cwd, prompt) => ({ ...base(cwd), turn_id: randomUUID(), hook_event_name: 'UserPromptSubmit', prompt }),
        shell: (cwd, command) => tool(cwd, 'Bash', command),
        file: (cwd, edit) => tool(cwd, 'apply_patch', patch(edit)),
        stop: (cwd) => ({ ...base(cwd), hook_event_name: 'Stop', last_assistant_message: 'done' }),
        end: (cwd) => ({ ...base(cwd), hook_event_name: 'SessionEnd' }),
      };
    }
    case 'gemini': {
      const at = () => ({ timestamp: new Date().toISOString() });
      const tool = (cwd: string, name: string, input: Record<string, unknown>) => {
        const before = { ...base(cwd), ...at(), hook_event_name: 'BeforeTool', tool_name: name, tool_input: input };
        const after = { ...before, ...at(), hook_event_name: 'AfterTool', tool_response: { llmContent: 'ok' } };
        return { before, after };
      };
      let lastPrompt = '';
      return {
        prompt: (cwd, prompt) => {
          lastPrompt = prompt;
          return { ...base(cwd), ...at(), hook_event_name: 'BeforeAgent', prompt };
        },
        shell: (cwd, command) => tool(cwd, 'run_shell_command', { command }),
        file: (cwd, edit) =>
          edit.text === null
            ? null
            : tool(cwd, 'write_file', { file_path: path.join(cwd, edit.rel), content: edit.text }),
        stop: (cwd) => ({
          ...base(cwd),
          ...at(),
          hook_event_name: 'AfterAgent',
          prompt: lastPrompt,
          prompt_response: 'done',
        }),
        end: (cwd) => ({ ...base(cwd), ...at(), hook_event_name: 'SessionEnd', reason: 'exit' }),
      };
    }
  }
}
