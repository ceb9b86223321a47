// Antigravity CLI (`agy`) as a host of the core, built from its documented payloads (no CLI in the
// npm registry). Its transcript is written after its Stop hook, so no chat is read: a turn has its
// (untitled) prompt and its files. Entire reports that agy's hooks do not fire under API-key auth.
import type { HostAdapter } from '../core/host.js';
import { ANTIGRAVITY_HOST, parseAntigravityEvent } from './event.js';

export const antigravityHost: HostAdapter = {
  name: ANTIGRAVITY_HOST,
  platform: ANTIGRAVITY_HOST,
  sessionType: 'cli',
  parse: parseAntigravityEvent,
  // No documented channel to the person (Entire: "silent tracking"): stderr, and `turnback status`.
  notice: (message) => ({ stderr: `turnback: ${message}\n` }),
  // PreInvocation's documented output: steps injected into the conversation, an ephemeral message
  // for the model (not verified on a run).
  promptContext: (context) => ({ injectSteps: [{ ephemeralMessage: context }] }),
};
