// Feeds a transcript's lines (in file order) to a collector as the core reads them: last first.
import type { TranscriptItem } from '../../core/chat.js';
import type { TurnCollector } from '../../core/host.js';

export function turnOfLinesWith(collector: TurnCollector, lines: string[]): TranscriptItem[] {
  for (let i = lines.length - 1; i >= 0; i--) if (collector.take(lines[i])) break;
  return collector.items();
}
