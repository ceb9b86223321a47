// Which size keeps a file's content out of the store: the size limit (`too-large`), or a store
// budget set for the workspace that the content alone is larger than (`budget`).
export interface SizeLimits {
  maxFileSize: number;
  /** The budget set (`--store-budget`, `turnback budget`); null: the default, which no one content can break. */
  storeBudget?: number | null;
}

/** The most bytes of one file read to keep it: past this it is skipped. */
export function keepLimit(limits: SizeLimits): number {
  return Math.min(limits.maxFileSize, limits.storeBudget ?? Infinity);
}

/** Why a file of `size` bytes is not kept, if it is not. */
export function sizeSkip(limits: SizeLimits, size: number): 'too-large' | 'budget' | undefined {
  if (size > limits.maxFileSize) return 'too-large';
  if (limits.storeBudget != null && size > limits.storeBudget) return 'budget';
  return undefined;
}
