/**
 * A Map that keeps at most `max` entries: `set` makes its key the newest, and the oldest keys leave first. The
 * pipeline's in-process caches (recent states, parsed blocks, scanned bodies, ...) are all this; a miss only costs
 * a read or a parse again.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key); // re-insert: the map's order is the eviction order
    super.set(key, value);
    while (this.size > this.max) super.delete(this.keys().next().value as K);
    return this;
  }
}
