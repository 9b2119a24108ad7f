/**
 * Deliveries a subscriber keeps past its handler's return (Delivery.hold), per partition. A group's committed
 * offset on a partition stops at the lowest held offset, so a member that takes the partition over after a crash
 * gets the held messages again. Shared by both buses.
 */
interface PartitionHolds {
  /** Held offsets, ascending (a partition is delivered in order, so a new hold is almost always appended). */
  offsets: bigint[];
  /** Live holds per offset: a batch redelivered after its handler threw may hold an offset twice. */
  count: Map<bigint, number>;
}

export class Holds {
  private readonly parts = new Map<number, PartitionHolds>();

  /** Holds one offset; the returned release may be called any number of times. */
  hold(partition: number, offset: bigint): () => void {
    let p = this.parts.get(partition);
    if (!p) {
      p = { offsets: [], count: new Map() };
      this.parts.set(partition, p);
    }
    const n = p.count.get(offset) ?? 0;
    p.count.set(offset, n + 1);
    if (n === 0) {
      let i = p.offsets.length;
      while (i > 0 && p.offsets[i - 1] > offset) i--;
      p.offsets.splice(i, 0, offset);
    }
    const part = p;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = part.count.get(offset)! - 1;
      if (left > 0) {
        part.count.set(offset, left);
        return;
      }
      part.count.delete(offset);
      part.offsets.splice(part.offsets.indexOf(offset), 1);
    };
  }

  /** The offset the group may commit on a partition whose next undelivered offset is `next`. */
  commitPoint(partition: number, next: bigint): bigint {
    const first = this.parts.get(partition)?.offsets[0];
    return first !== undefined && first < next ? first : next;
  }

  /** Offsets held now, over all partitions. */
  get size(): number {
    let n = 0;
    for (const p of this.parts.values()) n += p.offsets.length;
    return n;
  }
}
