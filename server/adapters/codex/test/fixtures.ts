// The hook events and the rollout of a real Codex 0.169.0 session (four `codex exec` turns against
// the scripted fake API: apply_patch and shell edits, a failing command, a sub-agent, an MCP tool
// and a patch that does not apply, a turn the API refused), with `$HOME` and `$WORKSPACE` standing
// for the temp folders of that run.
import { readFileSync } from 'node:fs';

const read = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const place = (text: string, home: string, workspace: string) =>
  text.split('$HOME').join(home).split('$WORKSPACE').join(workspace);

export type RawEvent = Record<string, any>;

export function recordedEvents(home = '/home/u', workspace = '/w'): RawEvent[] {
  return place(read('events-0.169.0.jsonl'), home, workspace)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RawEvent);
}

export function recordedRollout(home = '/home/u', workspace = '/w'): string {
  return place(read('rollout-0.169.0.jsonl'), home, workspace);
}
