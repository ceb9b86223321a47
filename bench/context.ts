// Shared state of one benchmark run: config, temp root, results, workloads generated once.
import path from 'node:path';
import type { BenchConfig } from './config.js';
import type { OpenEngine } from './contenders/turnback.js';
import type { Results } from './results.js';
import { generateWorkload, type Workload, type WorkloadSpec } from './workloads.js';

export interface BenchContext {
  config: BenchConfig;
  /** Temp dir holding everything the run creates; removed at the end. */
  root: string;
  results: Results;
  /** null when the engine could not be loaded (then turnback figures are "not measured"). */
  openEngine: OpenEngine | null;
  engineLoadError: string | null;
  log(message: string): void;
  workload(spec: WorkloadSpec): Promise<Workload>;
  path(...parts: string[]): string;
}

const SEEDS: Record<string, number> = { W1: 101, W2: 202, W3: 303 };

export function createContext(
  config: BenchConfig,
  root: string,
  results: Results,
  openEngine: OpenEngine | null,
  engineLoadError: string | null,
  log: (m: string) => void,
): BenchContext {
  const generated = new Map<string, Promise<Workload>>();
  return {
    config,
    root,
    results,
    openEngine,
    engineLoadError,
    log,
    path: (...parts) => path.join(root, ...parts),
    workload(spec) {
      let pending = generated.get(spec.name);
      if (!pending) {
        const started = performance.now();
        pending = generateWorkload(spec, path.join(root, `pristine-${spec.name}`), SEEDS[spec.name] ?? 1).then((w) => {
          log(
            `generated ${spec.name}: ${spec.files} files, ${w.totalBytes} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
          return w;
        });
        generated.set(spec.name, pending);
      }
      return pending;
    },
  };
}
