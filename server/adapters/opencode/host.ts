// OpenCode as a host of the core: the events of turnback's plugin (event.ts, plugin.ts). OpenCode
// keeps its sessions in its own database, not in a transcript file, so a turn's chat is the
// reply the plugin collected from the session's text parts. The plugin tells the person
// itself (stderr and a toast), and the agent (a synthetic part of the prompt): OpenCode has no
// hook output channel.
import { chatOfItems } from '../core/chat.js';
import type { HostAdapter } from '../core/host.js';
import { OPENCODE_HOST, parseOpencodeEvent } from './event.js';

export const opencodeHost: HostAdapter = {
  name: OPENCODE_HOST,
  platform: OPENCODE_HOST,
  sessionType: 'cli',
  parse: parseOpencodeEvent,
  chat: (items, lastReply, workspace) =>
    chatOfItems(items, lastReply, workspace, { fields: {}, pathFields: new Set() }),
  notice: (message) => ({ stderr: `turnback: ${message}\n` }),
  // The plugin adds the answer's agentNotice to the prompt as a synthetic text part (plugin.ts).
  promptContext: () => null,
};
