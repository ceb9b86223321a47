// Bounded concurrency for the engine's filesystem work: at most `width` items in flight, so
// their reads, writes and fsyncs overlap in the thread pool without opening a file per item.
const PARALLEL = 8;

export async function inParallel<T>(
  items: readonly T[],
  run: (item: T, index: number) => Promise<void>,
  width = PARALLEL,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await run(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
