// The chat of a Codex turn as the console shows it: every assistant message, and one line per
// tool call naming what it worked on (`Bash(npm test)`, `apply_patch(src/app.ts, README.md)`,
// `spawn_agent(fix the notes)`), so that "rollback with chat" deletes what the person saw.
import { chatOfItems, type ChatMessage, type ToolTargets, type TranscriptItem } from '../core/chat.js';
import { PATCH_TOOL, SHELL_TOOL } from './event.js';
import { patchPaths } from './patch.js';

const TARGETS: ToolTargets = {
  fields: {
    [SHELL_TOOL]: 'command',
    [PATCH_TOOL]: 'files',
    spawn_agent: 'message',
    send_input: 'message',
    view_image: 'path',
  },
  pathFields: new Set(['path']),
};

/** A patch is shown by the files it touches, not by its first line (`*** Begin Patch`). */
function shown(item: TranscriptItem): TranscriptItem {
  if (item.kind !== 'tool' || item.name !== PATCH_TOOL || typeof item.input.command !== 'string') return item;
  const paths = patchPaths(item.input.command);
  return { ...item, input: { files: paths === null ? '' : paths.join(', ') } };
}

export function codexChat(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[] {
  return chatOfItems(items.map(shown), lastReply, workspace, TARGETS);
}
