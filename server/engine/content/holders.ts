// What keeps contents alive besides the turns and the workspace index (an open command's
// snapshot of the index): the sweep asks every holder before it removes a content. Holders
// register once they exist, so the context that they are built from needs none at first.
export interface ContentHolder {
  heldHashes(): ReadonlySet<string>;
}

export class ContentHolders implements ContentHolder {
  private readonly holders: ContentHolder[] = [];

  add(holder: ContentHolder): void {
    this.holders.push(holder);
  }

  heldHashes(): ReadonlySet<string> {
    if (this.holders.length === 1) return this.holders[0].heldHashes();
    const held = new Set<string>();
    for (const holder of this.holders) for (const hash of holder.heldHashes()) held.add(hash);
    return held;
  }
}
