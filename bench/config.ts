// Workload sizes and repetition counts: the full run of the issue, or a quick smoke run.
import type { WorkloadSpec } from './workloads.js';

const MB = 1000 * 1000;

export interface BenchConfig {
  quick: boolean;
  runs: number;
  w1: WorkloadSpec;
  w2: WorkloadSpec;
  w3: WorkloadSpec;
  /** Item 1: files written by the measured turn. */
  turnFiles: number;
  /** Item 2: rollback sizes. */
  rollbackSizes: number[];
  /** Item 3: store sizes compared (turns), and session counts. */
  smallStoreTurns: number;
  largeStoreTurns: number;
  manySessions: number;
  /** Item 5: turns of small edits, and files edited per turn. */
  storageTurns: number;
  storageEditsPerTurn: number;
  /** Item 7: timeline lengths compared. */
  timelineTurns: [number, number];
  /** Hook latency samples. */
  hookCalls: number;
  /** Item 10: turns the real history is replayed as (its whole span of commits, or evenly spaced snapshots of it). */
  historyTurns: number;
  /** Item 9: the larger tree the scans are measured on too (besides W2). */
  scanLarge: WorkloadSpec;
  /** Item 11: the git-ignored build folder. */
  ignoredBuild: { files: number; bytes: number };
  /** Item 13: the files of the tree whose index is built in the background. */
  indexBuildFiles: number;
  /** Item 15: pairs of turns compared (one with the last turn's packing pending, one after it is done). */
  packingPairs: number;
}

export function benchConfig(quick: boolean): BenchConfig {
  if (quick) {
    return {
      quick,
      runs: 3,
      w1: { name: 'W1', files: 200, bytes: 2 * MB },
      w2: { name: 'W2', files: 1000, bytes: 10 * MB },
      w3: { name: 'W3', files: 1, bytes: 5 * MB },
      turnFiles: 10,
      rollbackSizes: [10, 100],
      smallStoreTurns: 10,
      largeStoreTurns: 300,
      manySessions: 50,
      storageTurns: 5,
      storageEditsPerTurn: 10,
      timelineTurns: [50, 300],
      hookCalls: 20,
      historyTurns: 40,
      ignoredBuild: { files: 5000, bytes: 50 * MB },
      scanLarge: { name: 'S3k', files: 3000, bytes: 6 * MB },
      indexBuildFiles: 5000,
      packingPairs: 8,
    };
  }
  return {
    quick,
    runs: 5,
    w1: { name: 'W1', files: 1000, bytes: 10 * MB },
    w2: { name: 'W2', files: 10000, bytes: 100 * MB },
    w3: { name: 'W3', files: 1, bytes: 50 * MB },
    turnFiles: 10,
    rollbackSizes: [10, 100, 1000],
    smallStoreTurns: 10,
    largeStoreTurns: 10000,
    manySessions: 1000,
    storageTurns: 20,
    storageEditsPerTurn: 10,
    timelineTurns: [50, 5000],
    hookCalls: 100,
    historyTurns: 190,
    ignoredBuild: { files: 50000, bytes: 500 * MB },
    scanLarge: { name: 'S100k', files: 100000, bytes: 200 * MB },
    indexBuildFiles: 100_000,
    packingPairs: 60,
  };
}
