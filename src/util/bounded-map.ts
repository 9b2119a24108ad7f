/**
 * A Map that keeps at most `max` entries: `set` makes its key the newest, and the oldest keys leave first. The
 * pipeline's in-process caches (recent states, parsed blocks, scanned bodies, ...) are all this; a miss only costs
 * a read or a parse again.
 *
 * With `weigh`, the entries' total weight (say, their size) is kept at most `maxWeight` as well: a cache of values
 * whose sizes differ by orders of magnitude is bounded by what it holds, not by how many.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  /**
   * One live iterator over the keys finds the oldest. A fresh `keys()` per eviction walks over every deleted
   * entry V8 keeps at the front of the table until it compacts it: 57 µs a `set` at 65,536 entries, against 1.4 µs
   * at 1,024 (timed by hand, bench/README.md). Every live entry is at or after this iterator, since entries are only
   * ever appended and the iterator's keys are deleted as it returns them.
   */
  private oldest: Iterator<K> | null = null;
  private total = 0;

  constructor(
    readonly max: number,
    private readonly bound?: { weigh: (value: V) => number; maxWeight: number },
  ) {
    super();
  }

  /** The entries' total weight (0 without `weigh`). */
  get weight(): number {
    return this.total;
  }

  override set(key: K, value: V): this {
    this.delete(key); // re-insert: the map's order is the eviction order
    super.set(key, value);
    if (this.bound) this.total += this.bound.weigh(value);
    while (this.size > this.max || (this.bound !== undefined && this.total > this.bound.maxWeight)) {
      let next = this.oldest?.next();
      if (!next || next.done) {
        this.oldest = super.keys();
        next = this.oldest.next();
      }
      this.delete(next.value as K);
    }
    return this;
  }

  override delete(key: K): boolean {
    if (this.bound) {
      const old = super.get(key);
      if (old !== undefined || super.has(key)) this.total -= this.bound.weigh(old as V);
    }
    return super.delete(key);
  }

  override clear(): void {
    super.clear();
    this.oldest = null;
    this.total = 0;
  }
}
