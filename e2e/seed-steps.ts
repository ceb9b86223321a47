// Turns made of named steps (the host's tool calls), as a host that names them records them.
import type { AgentClient } from './agent-client';

export function writeStep(
  agent: AgentClient,
  sessionId: string,
  path: string,
  content: string,
  stepId: string,
  stepTitle: string,
) {
  return agent.post('/api/agent/fs/write', { sessionId, uri: `workspace:/${path}`, content, stepId, stepTitle });
}

/** #1 sets up a.txt and b.txt; #2 edits a.txt (step 1), b.txt (step 2), then a.txt again (step 3). */
export async function seedSteps(agent: AgentClient, sessionId: string): Promise<void> {
  await agent.turn(sessionId, 'Set up', async () => {
    await agent.write(sessionId, 'a.txt', 'a original\n');
    await agent.write(sessionId, 'b.txt', 'b original\n');
  });
  await agent.turn(sessionId, 'Edit both files', async () => {
    await writeStep(agent, sessionId, 'a.txt', 'a first edit\n', 'call-1', 'Edit(a.txt)');
    await writeStep(agent, sessionId, 'b.txt', 'b broken by the agent\n', 'call-2', 'Edit(b.txt)');
    await writeStep(agent, sessionId, 'a.txt', 'a second edit\n', 'call-3', 'Write(a.txt)');
  });
}
