// Small contents a turn has just read, kept for the line counts its commit computes, so the
// commit need not read and inflate both blobs again. Bounded: past the bounds, the commit reads
// the blobs as before.
export class ContentCache {
  private total = 0;
  private readonly byHash = new Map<string, Buffer>();

  constructor(
    private readonly maxEach = 256 * 1024,
    private readonly maxTotal = 16 * 1024 * 1024,
  ) {}

  keep(hash: string, data: Buffer | undefined): void {
    if (!data || !hash || this.byHash.has(hash)) return;
    if (data.length > this.maxEach || this.total + data.length > this.maxTotal) return;
    this.byHash.set(hash, data);
    this.total += data.length;
  }

  get(hash: string): Buffer | undefined {
    return this.byHash.get(hash);
  }
}
