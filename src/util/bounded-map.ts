/**
 * A Map that keeps at most `max` entries: `set` makes its key the newest, and the oldest keys leave first. The
 * pipeline's in-process caches (recent states, parsed blocks, scanned bodies, ...) are all this; a miss only costs
 * a read or a parse again.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  /**
   * One live iterator over the keys finds the oldest. A fresh `keys()` per eviction walks over every deleted
   * entry V8 keeps at the front of the table until it compacts it: 57 µs a `set` at 65,536 entries, against 1.4 µs
   * at 1,024 (timed by hand, bench/README.md). Every live entry is at or after this iterator, since entries are only
   * ever appended and the iterator's keys are deleted as it returns them.
   */
  private oldest: Iterator<K> | null = null;

  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key); // re-insert: the map's order is the eviction order
    super.set(key, value);
    while (this.size > this.max) {
      let next = this.oldest?.next();
      if (!next || next.done) {
        this.oldest = super.keys();
        next = this.oldest.next();
      }
      super.delete(next.value as K);
    }
    return this;
  }

  override clear(): void {
    super.clear();
    this.oldest = null;
  }
}
