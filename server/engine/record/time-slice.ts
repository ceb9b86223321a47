// Long synchronous work cut into slices: the scans trust a stat without a promise and read
// small files synchronously, so a walk of 100,000 paths would hold the event loop for seconds,
// and with it every other workspace's hooks and the service's health.

/** Synchronous work between two yields to the event loop: a request waits at most about this. */
export const SLICE_MS = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock for one piece of work: answers undefined while its slice lasts, then a promise that
 * resolves on a later turn of the event loop (after pending I/O), when the next slice begins.
 */
export function timeSlicer(ms = SLICE_MS): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < ms) return undefined;
    return nextTurn().then(() => {
      sliceStart = performance.now();
    });
  };
}
