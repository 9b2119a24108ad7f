/**
 * In-process bus (the embedded default). Each topic is split into partitions by key hash (so a key keeps
 * its order), bounded: publish waits while the slowest consumer group is `capacity` messages behind
 * (backpressure). Each group keeps a committed offset per partition, advanced only when the handler
 * resolves (ack), and never past a held message (Delivery.hold); a throwing handler gets the same batch again.
 * Members of a group split the partitions; when members come or go, each partition is delivered again from its
 * committed offset (as Kafka does after a rebalance), so what a closed member held reaches the next one.
 */
import { Holds } from './holds.ts';
import type { BatchHandler, Bus, BusMessage, Delivery, SubscribeOptions, Subscription } from './types.ts';

export interface MemoryBusOptions {
  /**
   * Max messages per topic that some group has not handled yet (default 256; messages a handler holds past its
   * return, Delivery.hold, are retained beyond it: the holder bounds those). Small on purpose:
   * ingest then stays within a few hundred blocks of the slowest stage, so raw blocks held in memory stay
   * bounded and the stages of one process that decode the same block share the work
   * (pipelines/shared-decode.ts keeps that many); a larger lead buys nothing, the slowest stage sets the pace.
   */
  capacity?: number;
  /** Partitions per topic. */
  partitions?: number;
}

interface Entry {
  key: string;
  value: unknown;
}

class Partition {
  entries: Entry[] = [];
  /** Offset of entries[0]. */
  base = 0;
  get end(): number {
    return this.base + this.entries.length;
  }
  trim(upTo: number): void {
    const n = upTo - this.base;
    if (n <= 0) return;
    this.entries.splice(0, n);
    this.base = upTo;
  }
}

interface Member {
  id: number;
  partitions: number[];
  holds: Holds;
}

interface Group {
  /** Where the group resumes after a rebalance: below every held message. Retention follows it. */
  committed: number[];
  /** The next offset to deliver. Backpressure follows it: held messages are the holder's to bound. */
  position: number[];
  members: Member[];
}

class Signal {
  private waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((r) => this.waiters.push(r));
  }
  notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}

class Topic {
  readonly parts: Partition[];
  readonly groups = new Map<string, Group>();
  readonly data = new Signal();
  readonly space = new Signal();
  constructor(readonly name: string, partitions: number) {
    this.parts = Array.from({ length: partitions }, () => new Partition());
  }
  /** Messages the slowest group has not handled yet (all retained ones while no group exists). */
  backlog(): number {
    let n = 0;
    this.parts.forEach((p, i) => {
      let min = p.end;
      for (const g of this.groups.values()) min = Math.min(min, g.position[i]);
      n += this.groups.size ? p.end - min : p.entries.length;
    });
    return n;
  }
  trim(): void {
    if (this.groups.size === 0) return;
    this.parts.forEach((p, i) => {
      let min = Infinity;
      for (const g of this.groups.values()) min = Math.min(min, g.committed[i]);
      p.trim(min);
    });
    this.space.notify();
  }
}

/** FNV-1a, stable across runs, so the same key always lands in the same partition. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly topics = new Map<string, Topic>();
  private readonly capacity: number;
  private readonly partitions: number;
  private nextMember = 1;
  private closed = false;
  private readonly subs = new Set<Subscription>();

  constructor(opts: MemoryBusOptions = {}) {
    this.capacity = opts.capacity ?? 256;
    this.partitions = opts.partitions ?? 4;
  }

  private topic(name: string): Topic {
    let t = this.topics.get(name);
    if (!t) {
      t = new Topic(name, this.partitions);
      this.topics.set(name, t);
    }
    return t;
  }

  async ensureTopics(topics: string[]): Promise<void> {
    for (const t of topics) this.topic(t);
  }

  async publish<T>(topicName: string, messages: BusMessage<T>[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    const t = this.topic(topicName);
    for (const m of messages) {
      while (t.backlog() >= this.capacity) {
        if (this.closed) throw new Error('bus is closed');
        t.data.notify(); // consumers must see what is queued, or nothing frees space
        await t.space.wait();
      }
      t.parts[partitionOf(m.key, this.partitions)].entries.push({ key: m.key, value: m.value });
    }
    t.data.notify();
  }

  /** Unacknowledged messages per group (for metrics and tests). */
  lag(topicName: string, group: string): number {
    const t = this.topics.get(topicName);
    const g = t?.groups.get(group);
    if (!t) return 0;
    if (!g) return t.backlog();
    return t.parts.reduce((n, p, i) => n + (p.end - g.committed[i]), 0);
  }

  async subscribe<T>(topicName: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    const t = this.topic(topicName);
    let g = t.groups.get(opts.group);
    if (!g) {
      // A new group starts from the earliest retained message (like Kafka's auto.offset.reset=earliest).
      g = { committed: t.parts.map((p) => p.base), position: t.parts.map((p) => p.base), members: [] };
      t.groups.set(opts.group, g);
    }
    const group = g;
    const member: Member = { id: this.nextMember++, partitions: [], holds: new Holds() };
    group.members.push(member);
    const rebalance = () => {
      group.members.forEach((m, i) => {
        m.partitions = t.parts.map((_, p) => p).filter((p) => p % group.members.length === i);
      });
      group.position = [...group.committed];
    };
    rebalance();
    const maxBatch = opts.maxBatch ?? 256;
    const retryMs = opts.retryMs ?? 200;
    const lingerMs = opts.lingerMs ?? 0;
    let stopped = false;
    /** closed: releases after that are a crashed member's, and move nothing */
    let gone = false;
    // the committed offset follows the position up to the lowest held message; only the partition's owner moves it
    const advance = (pi: number) => {
      if (gone || !member.partitions.includes(pi)) return;
      const at = Number(member.holds.commitPoint(pi, BigInt(group.position[pi])));
      if (at > group.committed[pi]) {
        group.committed[pi] = at;
        t.trim();
      }
    };

    const loop = async () => {
      let rr = 0;
      while (!stopped && !this.closed) {
        let delivered = false;
        const mine = member.partitions;
        for (let k = 0; k < mine.length && !stopped; k++) {
          const pi = mine[(rr + k) % mine.length];
          const part = t.parts[pi];
          const from = group.position[pi];
          if (from >= part.end) continue;
          if (lingerMs > 0 && part.end - from < maxBatch) {
            const until = Date.now() + lingerMs;
            while (!stopped && part.end - from < maxBatch && Date.now() < until) {
              await Promise.race([t.data.wait(), stopSignal.wait(), sleep(Math.max(1, until - Date.now()))]);
            }
          }
          const n = Math.min(maxBatch, part.end - from);
          const batch: Delivery<T>[] = [];
          for (let i = 0; i < n; i++) {
            const e = part.entries[from - part.base + i];
            const offset = from + i;
            const hold = () => {
              const release = member.holds.hold(pi, BigInt(offset));
              return () => {
                release();
                advance(pi);
              };
            };
            batch.push({ topic: topicName, partition: pi, offset: String(offset), key: e.key, value: e.value as T, hold });
          }
          try {
            await handler(batch);
            // acknowledged even when close() came meanwhile: close waits for the batch in flight
            // a rebalance while the handler ran moved the position back to the committed offset: keep that
            if (group.position[pi] === from) group.position[pi] = from + n;
            advance(pi);
            t.space.notify();
          } catch (err) {
            opts.onError?.(err, batch);
            await sleep(retryMs);
          }
          delivered = true;
          rr = (rr + k + 1) % Math.max(1, mine.length);
          break;
        }
        if (!delivered && !stopped) await Promise.race([t.data.wait(), stopSignal.wait()]);
      }
    };
    const stopSignal = new Signal();
    const running = loop();
    const sub: Subscription = {
      close: async () => {
        if (stopped) return;
        stopped = true;
        stopSignal.notify();
        await running;
        gone = true;
        group.members = group.members.filter((m) => m !== member);
        rebalance();
        t.data.notify();
        this.subs.delete(sub);
      },
    };
    this.subs.add(sub);
    return sub;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subs].map((s) => s.close()));
    this.closed = true;
    for (const t of this.topics.values()) {
      t.space.notify();
      t.data.notify();
    }
  }
}
