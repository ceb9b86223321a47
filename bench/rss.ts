// Peak memory of this process around one operation: resident (VmHWM from /proc, reset just
// before the operation through /proc/self/clear_refs, Linux), and the JS heap plus buffers
// sampled every few milliseconds. RSS alone understates growth when the heap reuses pages an
// earlier step left resident; the sampled live bytes show what the operation itself holds.
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

function statusBytes(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} in /proc/self/status`);
  return Number(line.split(/\s+/)[1]) * 1024;
}

let gc: (() => void) | null = null;
function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

export interface RssPeak {
  peakBytes: number;
  growthBytes: number;
  liveGrowthBytes: number;
}

const liveBytes = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

export interface RssWindow {
  baselineBytes: number;
  /** Peak RSS since `startRssWindow`, how far above the baseline it went, and the same for live heap + buffers. */
  finish(): RssPeak;
}

export function startRssWindow(): RssWindow {
  collectGarbage();
  writeFileSync('/proc/self/clear_refs', '5');
  const baselineBytes = statusBytes('VmRSS');
  const liveBaseline = liveBytes();
  let livePeak = liveBaseline;
  const sampler = setInterval(() => {
    livePeak = Math.max(livePeak, liveBytes());
  }, 2);
  sampler.unref();
  return {
    baselineBytes,
    finish() {
      clearInterval(sampler);
      livePeak = Math.max(livePeak, liveBytes());
      const peakBytes = statusBytes('VmHWM');
      return {
        peakBytes,
        growthBytes: Math.max(0, peakBytes - baselineBytes),
        liveGrowthBytes: livePeak - liveBaseline,
      };
    },
  };
}

export function rssSupported(): boolean {
  try {
    statusBytes('VmHWM');
    return true;
  } catch {
    return false;
  }
}
