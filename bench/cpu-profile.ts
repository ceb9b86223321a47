// A CPU profile of chosen parts of a probe's run, when PROFILE names a file: node:inspector's
// sampling profiler started and stopped around each part, each part written to the file's name
// plus a suffix, for Chrome's DevTools or a script to read. Without PROFILE, nothing is profiled.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

export interface CpuProfiler {
  start(): Promise<void>;
  /** Stops and writes what was sampled since start() to PROFILE + `suffix`. */
  stop(suffix?: string): Promise<void>;
}

/** A profiler sampling every `intervalUs` microseconds, or null when PROFILE is not set. */
export async function cpuProfilerFromEnv(intervalUs: number): Promise<CpuProfiler | null> {
  const file = process.env.PROFILE;
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  return {
    async start() {
      await session.post('Profiler.start');
    },
    async stop(suffix = '') {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(`${file}${suffix}`, JSON.stringify(profile));
    },
  };
}
