// One agent turn through the agent routes: the prompt, each write (a string) or delete (null), the end.
import type { TestService } from './real-service.js';

export async function agentTurn(
  service: TestService,
  workspace: string,
  sessionId: string,
  prompt: string,
  changes: Record<string, string | null>,
): Promise<string> {
  const call = (route: string, body: Record<string, unknown>) =>
    service.agent(route, { sessionId, ...body }, workspace);
  const { turnId } = await call('input', { platform: 'claude-code', sessionType: 'chat', content: prompt });
  for (const [file, content] of Object.entries(changes)) {
    const uri = `workspace:/${file}`;
    if (content === null) await call('fs/delete', { uri });
    else await call('fs/write', { uri, content });
  }
  await call('turn-end', {});
  return turnId as string;
}
