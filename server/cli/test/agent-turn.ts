// One agent turn through the agent routes: the prompt, each write (a string) or delete (null), the end.
import type { TestService } from './interim-service.js';

export async function agentTurn(service: TestService, sessionId: string, prompt: string, changes: Record<string, string | null>): Promise<string> {
  const { turnId } = await service.agent('input', { sessionId, platform: 'claude-code', sessionType: 'chat', content: prompt });
  for (const [file, content] of Object.entries(changes)) {
    const uri = `workspace:/${file}`;
    if (content === null) await service.agent('fs/delete', { sessionId, uri });
    else await service.agent('fs/write', { sessionId, uri, content });
  }
  await service.agent('turn-end', { sessionId });
  return turnId as string;
}
