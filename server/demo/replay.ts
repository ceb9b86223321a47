// Plays the scripted sessions through the engine's library API, as an agent host would.
import type { Engine } from '../engine/api.js';
import type { ScriptedSession, Step } from './script.js';

const uri = (relative: string): string => `workspace:/${relative}`;

function applyEdits(text: string, replacements: [string, string][], where: string): string {
  let result = text;
  for (const [from, to] of replacements) {
    if (!result.includes(from)) throw new Error(`demo script: ${JSON.stringify(from)} not found in ${where}`);
    result = result.replace(from, to);
  }
  return result;
}

async function runStep(engine: Engine, sessionId: string, step: Step): Promise<void> {
  const session = { sessionId };
  switch (step.op) {
    case 'write':
      return engine.storage.writeFile(uri(step.path), step.content, { ...session, force: step.force });
    case 'edit': {
      const current = new TextDecoder().decode(await engine.storage.readFile(uri(step.path)));
      return engine.storage.writeFile(uri(step.path), applyEdits(current, step.replace, step.path), session);
    }
    case 'delete':
      return engine.storage.delete(uri(step.path), { ...session, recursive: step.recursive });
    case 'rename':
      return engine.storage.rename(uri(step.from), uri(step.to), session);
    case 'move':
      return engine.storage.move(uri(step.from), uri(step.to), session);
    case 'mkdir':
      return engine.storage.mkdir(uri(step.path), session);
    case 'exec': {
      // The scripted commands (a grep, a test run) change nothing in the workspace: the command
      // ends before the next step, so the steps after it are not credited to it.
      const { execId } = await engine.exec({ sessionId, tool: step.tool, command: step.command });
      if (execId) await engine.execEnd({ sessionId, execId });
      return;
    }
    case 'message':
      await engine.message({ sessionId, role: step.role, content: step.content });
      return;
  }
}

/** Replays one session; returns the ids of the turns the script rolls back afterwards. */
export async function replaySession(engine: Engine, session: ScriptedSession): Promise<string[]> {
  const toRollBack: string[] = [];
  for (const turn of session.turns) {
    const { turnId } = await engine.input({
      sessionId: session.sessionId,
      platform: session.platform,
      sessionType: session.sessionType,
      content: turn.prompt,
    });
    for (const step of turn.steps) await runStep(engine, session.sessionId, step);
    await engine.message({ sessionId: session.sessionId, role: 'assistant', content: turn.reply });
    await engine.turnEnd({ sessionId: session.sessionId });
    if (turn.rollBack && turnId) toRollBack.push(turnId);
  }
  return toRollBack;
}
