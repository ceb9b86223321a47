// The OpenCode plugin `turnback init opencode` installs (`.opencode/plugins/turnback.js`, or
// `~/.config/opencode/plugins/turnback.js` with --global), as its source. OpenCode loads it in
// its own (Bun) process with its V1 plugin API, which OpenCode 1.18.33 runs: the plugin
// function gets `{directory, client, …}` and answers hooks. It sends each event, as event.ts
// reads it, to the person's turnback service over `service.sock` in the 0700 state dir, with the
// `agent-token` beside it (never over TCP, where whoever takes the port would get the token):
// POST /api/agent/hook/opencode. OpenCode awaits `tool.execute.before`, so a command runs only
// once its before scan is done. The events of one session are sent one after the other. When
// nothing can be recorded, the person is told once per session and reason, on stderr and as a
// toast in OpenCode's terminal UI. It never throws into OpenCode.
import { join } from 'node:path';
import { SettingsShapeError, type HostSettingsWriter } from '../core/settings-writer.js';
import { FILE_TOOLS, OPENCODE_HOST, READ_ONLY_TOOLS } from './event.js';

export const PLUGIN_FILE_NAME = 'turnback.js';
/** The first line of the plugin: how `init --remove` knows its own file. */
export const PLUGIN_MARKER = "// turnback: records what OpenCode's turns change, so that each can be rolled back.";

export const PLUGIN_SOURCE = `${PLUGIN_MARKER}
// Installed by \`turnback init opencode\`; \`turnback init opencode --remove\` takes it out.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';

const ROUTE = '/api/agent/hook/opencode';
// The hooks that wait for a scan of the workspace get longer (its first one takes seconds).
const WAIT_MS = 2000;
const SCAN_WAIT_MS = 120000;
const FILE_TOOLS = new Set(${JSON.stringify(FILE_TOOLS)});
// Tools that change nothing are not sent at all: a read costs OpenCode no round trip.
const READ_ONLY_TOOLS = new Set(${JSON.stringify(READ_ONLY_TOOLS)});

function stateDir() {
  const xdg = process.env.XDG_STATE_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(process.env.HOME || homedir(), '.local', 'state'), 'turnback');
}

/** The person's service: its socket and the agent token, or null when none is set up. */
function target() {
  const dir = stateDir();
  try {
    const token = readFileSync(join(dir, 'agent-token'), 'utf8').trim();
    return token ? { socketPath: join(dir, 'service.sock'), token } : null;
  } catch {
    return null;
  }
}

/** One JSON POST over the service's Unix socket: its status and parsed answer. */
function postJson(to, body, waitMs) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request({
      socketPath: to.socketPath,
      path: ROUTE,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Authorization: 'Bearer ' + to.token },
      timeout: waitMs,
    }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        let answer = {};
        try { answer = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {}
        resolve({ status: response.statusCode ?? 0, answer });
      });
      response.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within ' + waitMs + ' ms')));
    req.on('error', reject);
    req.end(payload);
  });
}

export const TurnbackPlugin = async ({ directory, client }) => {
  const cwd = directory || process.cwd();
  const parents = new Map(); // sub-agent session -> the session that started it
  const replies = new Map(); // session -> (text part id -> text) of its turn
  const prompts = new Set(); // ids of the person's messages (their text parts are no reply)
  const chains = new Map();
  const told = new Set();

  const tell = (sessionId, message) => {
    const key = sessionId + '\\n' + message;
    if (told.has(key)) return;
    told.add(key);
    process.stderr.write('turnback: ' + message + '\\n');
    try { client?.tui?.showToast?.({ body: { title: 'turnback', message, variant: 'warning' } })?.catch?.(() => {}); } catch {}
  };

  const post = async (body, waitMs) => {
    const to = target();
    if (!to) return tell(body.session_id, 'no turnback service is running: this session is not recorded (start it with: turnback start)');
    try {
      const { status, answer } = await postJson(to, body, waitMs);
      if (typeof answer.systemMessage === 'string') tell(body.session_id, answer.systemMessage);
      else if (status < 200 || status > 299) tell(body.session_id, 'the turnback service refused an event (' + status + '): ' + (answer.message || answer.error?.message || 'no reason given'));
      return answer;
    } catch (error) {
      if (error && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) return tell(body.session_id, 'no turnback service is running: this session is not recorded (start it with: turnback start)');
      tell(body.session_id, 'the turnback service did not answer: ' + (error && error.message || error));
    }
  };

  /** Sends the events of one session in the order they happened. */
  const send = (event, sessionId, fields = {}, waitMs = WAIT_MS) => {
    const parent = parents.get(sessionId);
    const body = { event, session_id: parent ?? sessionId, cwd, ...(parent ? { agent_id: sessionId } : {}), ...fields };
    const key = body.session_id;
    const next = (chains.get(key) ?? Promise.resolve()).then(() => post(body, waitMs));
    chains.set(key, next);
    return next;
  };

  // A part id as OpenCode makes them (prt_, 12 hex digits of ms * 4096 + a counter, 14 base-62 characters): sorted after the prompt's own.
  let counter = 0;
  const partId = () => {
    const time = (BigInt(Date.now()) * 4096n + BigInt(++counter % 4096)).toString(16).padStart(12, '0').slice(-12);
    const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let tail = '';
    for (let i = 0; i < 14; i++) tail += digits[Math.floor(Math.random() * 62)];
    return 'prt_' + time + tail;
  };

  const textOf = (parts) => (Array.isArray(parts) ? parts : [])
    .filter((part) => part && part.type === 'text' && typeof part.text === 'string' && !part.synthetic)
    .map((part) => part.text).join('\\n');

  return {
    'chat.message': async (input, output) => {
      const sessionId = input?.sessionID ?? output?.message?.sessionID;
      if (!sessionId || parents.has(sessionId)) return;
      if (output?.message?.id) prompts.add(output.message.id);
      replies.set(sessionId, new Map());
      const answer = await send('prompt', sessionId, { prompt: textOf(output?.parts) });
      // What the person undid since the last prompt: a synthetic text part of the prompt, which the model gets with it.
      if (typeof answer?.agentNotice === 'string' && Array.isArray(output?.parts) && output?.message?.id) {
        output.parts.push({ id: partId(), messageID: output.message.id, sessionID: sessionId, type: 'text', synthetic: true, text: answer.agentNotice });
      }
    },
    'tool.execute.before': async (input, output) => {
      if (!input?.sessionID || READ_ONLY_TOOLS.has(input.tool)) return;
      await send('tool.before', input.sessionID, { tool: input.tool, call_id: input.callID, args: output?.args ?? {} },
        FILE_TOOLS.has(input.tool) ? WAIT_MS : SCAN_WAIT_MS);
    },
    'tool.execute.after': async (input) => {
      if (!input?.sessionID || FILE_TOOLS.has(input.tool) || READ_ONLY_TOOLS.has(input.tool)) return;
      await send('tool.after', input.sessionID, { tool: input.tool, call_id: input.callID }, SCAN_WAIT_MS);
    },
    event: async ({ event }) => {
      const props = event?.properties ?? {};
      if (event?.type === 'session.created' && props.info?.parentID) {
        parents.set(props.info.id, props.info.parentID);
        await send('subagent.start', props.info.id);
      } else if (event?.type === 'message.part.updated') {
        const part = props.part;
        if (part?.type !== 'text' || typeof part.text !== 'string' || prompts.has(part.messageID)) return;
        replies.get(part.sessionID)?.set(part.id, part.text);
      } else if (event?.type === 'session.idle' && props.sessionID) {
        if (parents.has(props.sessionID)) return send('subagent.end', props.sessionID);
        const texts = [...(replies.get(props.sessionID)?.values() ?? [])].filter((text) => text.trim() !== '');
        replies.delete(props.sessionID);
        await send('idle', props.sessionID, { reply: texts.join('\\n\\n') });
      }
    },
  };
};
`;

const isOurs = (current: string | null): boolean => current !== null && current.startsWith(PLUGIN_MARKER);

/**
 * `turnback init opencode`: the plugin as the project's `.opencode/plugins/turnback.js`, or with
 * --global the person's (`${XDG_CONFIG_HOME:-~/.config}/opencode/plugins/`). A file of that name
 * that is not turnback's is never overwritten nor removed.
 */
export const opencodeSettingsWriter: HostSettingsWriter = {
  host: OPENCODE_HOST,
  settingsFile: ({ workspace, home, global }) => {
    const config = process.env.XDG_CONFIG_HOME?.startsWith('/') ? process.env.XDG_CONFIG_HOME : join(home, '.config');
    return join(global ? join(config, 'opencode') : join(workspace, '.opencode'), 'plugins', PLUGIN_FILE_NAME);
  },
  // The plugin finds the service itself: it needs no hook command.
  install: (current) => {
    if (current !== null && !isOurs(current))
      throw new SettingsShapeError("another plugin of that name is there, not turnback's: left as it is");
    return current === PLUGIN_SOURCE ? { text: null, changed: false } : { text: PLUGIN_SOURCE, changed: true };
  },
  remove: (current) => {
    if (current !== null && !isOurs(current))
      throw new SettingsShapeError("the plugin of that name is not turnback's: left as it is");
    return { text: null, changed: current !== null, deleteFile: current !== null };
  },
  afterInstall: () => ['OpenCode loads the plugin when it starts.'],
};
