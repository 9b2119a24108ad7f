/**
 * In-process bus (the embedded default), and the model of Kafka the split-layout tests run on.
 *
 * Each topic is split into partitions by key hash (so a key keeps its order). Each consumer group keeps a
 * committed offset per partition, advanced only when the handler resolves (ack), and never past a held message
 * (Delivery.hold); a throwing handler gets the same batch again. The members of a group split the partitions; when
 * members come or go, every partition is delivered again from its committed offset (as Kafka does after a rebalance).
 *
 * The Kafka semantics the stages rely on, modelled here (issue 20):
 * - topics must exist before use (ensureTopics, the same algorithm as on Kafka: topics.ts); with `topicCreateMs` a
 *   created topic is usable only after that long, as a broker's metadata catches up;
 * - a group consumes one topic: a second topic for a live group is refused (GroupTopicError, see errors.ts);
 * - with `sessionTimeoutMs`, a member whose handler runs longer is removed (kafkajs heartbeats only between
 *   batches): its partitions go to the others, its commit afterwards is refused (MemberRemovedError to onError),
 *   and it rejoins, as KafkaBus restarts a consumer that crashed on that refusal;
 * - `connect()` gives another client on the same broker (another process); `kill()` ends a client like kill -9:
 *   its members stop at once without committing and stay in their groups until the session timeout;
 * - with `retainAll`, nothing is dropped (Kafka keeps messages by time, not by consumption), so a group that
 *   subscribes late reads from the start.
 * Embedded defaults: publish waits while the slowest group is `capacity` messages behind (backpressure, a wait
 * inside the publishing stage's handler, hence no session timeout by default), and what every known group has
 * committed is dropped.
 */
import { GroupTopicError, MemberRemovedError, UnknownTopicError } from './errors.ts';
import { Holds } from './holds.ts';
import { PauseState } from './pause.ts';
import { ensureTopics as ensureTopicsOn, type CreateOutcome, type TopicAdmin, type TopicSpec } from './topics.ts';
import type { BatchHandler, Bus, BusMessage, Delivery, SubscribeOptions, Subscription } from './types.ts';

export interface MemoryBusOptions {
  /**
   * Max messages per topic that some group has not handled yet (default 256; messages a handler holds past its
   * return, Delivery.hold, are retained beyond it: the holder bounds those). Small on purpose:
   * ingest then stays within a few hundred blocks of the slowest stage, so raw blocks held in memory stay
   * bounded and the stages of one process that decode the same block share the work
   * (src/decode/shared.ts keeps that many); a larger lead buys nothing, the slowest stage sets the pace.
   * Infinity: publish never waits (as on Kafka).
   */
  capacity?: number;
  /** Partitions per topic. */
  partitions?: number;
  /** Kafka's session timeout (see above). Default: none, members are never removed. */
  sessionTimeoutMs?: number;
  /** Keep every message, so a group that subscribes late reads from the start (default: drop what all groups committed). */
  retainAll?: boolean;
  /** A created topic becomes usable this long after its creation (default 0). */
  topicCreateMs?: number;
}

/** The model of a Kafka broker for the split-layout tests: no backpressure, sessions, everything retained. */
export function kafkaModel(opts: { sessionTimeoutMs?: number; partitions?: number; topicCreateMs?: number } = {}): MemoryBusOptions {
  return { capacity: Infinity, retainAll: true, sessionTimeoutMs: opts.sessionTimeoutMs ?? 6000, partitions: opts.partitions ?? 8, topicCreateMs: opts.topicCreateMs ?? 50 };
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
  client: MemoryBus;
  partitions: number[];
  holds: Holds;
  /** removed by the coordinator (session timeout); rejoins when its handler returns */
  removed: boolean;
  /** its client was killed: it does nothing more */
  dead: boolean;
  paused: PauseState;
  wake: Signal;
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
  /** every member's wake-up: one signal per member, so an idle member waits on one promise, not a race of several */
  readonly members = new Set<Member>();
  readonly space = new Signal();
  constructor(
    readonly name: string,
    partitions: number,
    readonly readyAt: number,
    private readonly retainAll: boolean,
  ) {
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
    if (this.groups.size === 0 || this.retainAll) return;
    this.parts.forEach((p, i) => {
      let min = Infinity;
      for (const g of this.groups.values()) min = Math.min(min, g.committed[i]);
      p.trim(min);
    });
    this.space.notify();
  }
  /** Round-robin over the members in join order (kafkajs's assigner sorts member ids), from the committed offsets. */
  rebalance(g: Group): void {
    const n = g.members.length;
    g.members.forEach((m, i) => {
      m.partitions = this.parts.map((_, p) => p).filter((p) => p % n === i);
      m.wake.notify();
    });
    g.position = [...g.committed];
    this.wake();
  }
  /** New messages, a rebalance, a resume: every member looks again. */
  wake(): void {
    for (const m of this.members) m.wake.notify();
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

/** Counters of the Kafka semantics that fired, for tests and logs. */
export interface MemoryBusStats {
  /** Members removed because a handler outlived the session timeout, or because their client was killed. */
  sessionsExpired: { group: string; topic: string; killed: boolean }[];
  /** Commits refused to removed members. */
  commitsRefused: number;
  rejoins: number;
}

/** Topics, groups and sessions: what one Kafka cluster holds. Shared by the clients of one bus (connect()). */
class Broker {
  readonly topics = new Map<string, Topic>();
  readonly stats: MemoryBusStats = { sessionsExpired: [], commitsRefused: 0, rejoins: 0 };
  nextMember = 1;
  readonly capacity: number;
  readonly partitions: number;
  constructor(readonly opts: MemoryBusOptions) {
    this.capacity = opts.capacity ?? 256;
    this.partitions = opts.partitions ?? 4;
  }

  /** A usable topic, or UnknownTopicError (missing, or created less than topicCreateMs ago). */
  usable(name: string): Topic {
    const t = this.topics.get(name);
    if (!t || t.readyAt > Date.now()) throw new UnknownTopicError(name);
    return t;
  }

  /** The topic a live group consumes, other than `topic`. */
  otherTopicOf(group: string, topic: string): string | null {
    for (const t of this.topics.values()) {
      if (t.name !== topic && (t.groups.get(group)?.members.length ?? 0) > 0) return t.name;
    }
    return null;
  }

  readonly admin: TopicAdmin = {
    create: async (specs: TopicSpec[]) => {
      const out = new Map<string, CreateOutcome>();
      for (const s of specs) {
        if (this.topics.has(s.topic)) out.set(s.topic, 'exists');
        else {
          this.topics.set(s.topic, new Topic(s.topic, s.partitions, Date.now() + (this.opts.topicCreateMs ?? 0), this.opts.retainAll ?? false));
          out.set(s.topic, 'created');
        }
      }
      return out;
    },
    ready: async (names: string[]) => {
      const out = new Map<string, number>();
      for (const n of names) {
        const t = this.topics.get(n);
        if (t && t.readyAt <= Date.now()) out.set(n, t.parts.length);
      }
      return out;
    },
  };
}

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly broker: Broker;
  private closed = false;
  private dead = false;
  private readonly subs = new Set<Subscription & { kill(): void }>();

  constructor(opts: MemoryBusOptions = {}, broker?: Broker) {
    this.broker = broker ?? new Broker(opts);
  }

  /** Another client of the same broker: the bus of another process, in the model. */
  connect(): MemoryBus {
    return new MemoryBus({}, this.broker);
  }

  get stats(): MemoryBusStats {
    return this.broker.stats;
  }

  private live(): void {
    if (this.dead) throw new Error('bus client was killed');
    if (this.closed) throw new Error('bus is closed');
  }

  async ensureTopics(topics: string[]): Promise<void> {
    this.live();
    const p = this.broker.partitions;
    await ensureTopicsOn(this.broker.admin, topics.map((topic) => ({ topic, partitions: p, replicationFactor: 1 })), { retryMs: 10 });
  }

  async publish<T>(topicName: string, messages: BusMessage<T>[]): Promise<void> {
    this.live();
    const t = this.broker.usable(topicName);
    const n = t.parts.length;
    for (const m of messages) {
      while (t.backlog() >= this.broker.capacity) {
        this.live();
        t.wake(); // consumers must see what is queued, or nothing frees space
        await t.space.wait();
      }
      this.live();
      t.parts[partitionOf(m.key, n)].entries.push({ key: m.key, value: m.value });
    }
    t.wake();
  }

  /** Unacknowledged messages per group (for metrics and tests). */
  lag(topicName: string, group: string): number {
    const t = this.broker.topics.get(topicName);
    const g = t?.groups.get(group);
    if (!t) return 0;
    if (!g) return t.backlog();
    return t.parts.reduce((n, p, i) => n + (p.end - g.committed[i]), 0);
  }

  async subscribe<T>(topicName: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    this.live();
    const broker = this.broker;
    const t = broker.usable(topicName);
    const other = broker.otherTopicOf(opts.group, topicName);
    if (other !== null) throw new GroupTopicError(opts.group, topicName, other);
    let g = t.groups.get(opts.group);
    if (!g) {
      // A new group starts from the earliest retained message (like Kafka's auto.offset.reset=earliest).
      g = { committed: t.parts.map((p) => p.base), position: t.parts.map((p) => p.base), members: [] };
      t.groups.set(opts.group, g);
    }
    const group = g;
    const member: Member = { id: broker.nextMember++, client: this, partitions: [], holds: new Holds(), removed: false, dead: false, paused: new PauseState(), wake: new Signal() };
    t.members.add(member);
    const join = () => {
      member.removed = false;
      group.members.push(member);
      t.rebalance(group);
    };
    const leave = () => {
      const before = group.members.length;
      group.members = group.members.filter((m) => m !== member);
      if (group.members.length !== before) t.rebalance(group);
    };
    join();
    const sessionMs = broker.opts.sessionTimeoutMs;
    const expire = (killed: boolean) => {
      if (member.removed) return;
      member.removed = true;
      broker.stats.sessionsExpired.push({ group: opts.group, topic: topicName, killed });
      leave();
    };
    const maxBatch = opts.maxBatch ?? 256;
    const retryMs = opts.retryMs ?? 200;
    const lingerMs = opts.lingerMs ?? 0;
    let stopped = false;
    // the committed offset follows the position up to the lowest held message; only the partition's owner moves it
    const advance = (pi: number) => {
      if (member.removed || member.dead || stopped || !member.partitions.includes(pi)) return;
      const at = Number(member.holds.commitPoint(pi, BigInt(group.position[pi])));
      if (at > group.committed[pi]) {
        group.committed[pi] = at;
        t.trim();
      }
    };

    const loop = async () => {
      let rr = 0;
      while (!stopped && !this.closed && !member.dead) {
        let delivered = false;
        const mine = member.partitions;
        for (let k = 0; k < mine.length && !stopped; k++) {
          const pi = mine[(rr + k) % mine.length];
          const part = t.parts[pi];
          const from = group.position[pi];
          if (from >= part.end || member.paused.isPaused(pi)) continue;
          if (lingerMs > 0 && part.end - from < maxBatch) {
            const until = Date.now() + lingerMs;
            while (!stopped && part.end - from < maxBatch && Date.now() < until) {
              await Promise.race([member.wake.wait(), sleep(Math.max(1, until - Date.now()))]);
            }
            // a rebalance while lingering moved this partition or its position: pick again
            if (member.removed || member.dead || !member.partitions.includes(pi) || group.position[pi] !== from) break;
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
          // kafkajs heartbeats between batches only: a handler running past the session timeout loses the member
          const session = sessionMs !== undefined ? setTimeout(() => expire(false), sessionMs) : undefined;
          let ok = false;
          try {
            await handler(batch);
            ok = true;
          } catch (err) {
            if (!member.dead) opts.onError?.(err, batch);
          } finally {
            clearTimeout(session);
          }
          delivered = true;
          rr = (rr + k + 1) % Math.max(1, mine.length);
          if (member.dead) break; // killed meanwhile: nothing is acknowledged
          if (member.removed) {
            // the coordinator no longer knows this member: the commit is refused, the batch goes to the partition's owner
            if (ok) {
              broker.stats.commitsRefused++;
              opts.onError?.(new MemberRemovedError(opts.group, `the handler ran past the session timeout of ${sessionMs} ms`), batch);
            }
            if (!stopped && !this.closed) {
              broker.stats.rejoins++;
              join();
            }
            break;
          }
          if (ok) {
            // acknowledged even when close() came meanwhile: close waits for the batch in flight
            // a rebalance while the handler ran moved the position back to the committed offset: keep that; a
            // partition that went to another member is theirs to read again from the committed offset
            if (member.partitions.includes(pi) && group.position[pi] === from) group.position[pi] = from + n;
            advance(pi);
            t.space.notify();
          } else await sleep(retryMs);
          break;
        }
        if (!delivered && !stopped && !member.dead) await member.wake.wait();
      }
    };
    const running = loop();
    const sub = {
      close: async () => {
        if (stopped) return;
        stopped = true;
        member.wake.notify();
        await running;
        leave();
        t.members.delete(member);
        this.subs.delete(sub);
      },
      pause: (partitions?: number[]) => member.paused.pause(partitions),
      resume: (partitions?: number[]) => {
        member.paused.resume(partitions);
        member.wake.notify();
      },
      // kill -9: no more deliveries or commits; the coordinator drops the member after the session timeout
      kill: () => {
        member.dead = true;
        stopped = true;
        member.wake.notify();
        t.members.delete(member);
        this.subs.delete(sub);
        if (sessionMs === undefined) expire(true);
        else setTimeout(() => expire(true), sessionMs);
      },
    };
    this.subs.add(sub);
    return sub;
  }

  /**
   * Ends this client like kill -9 of its process: its members deliver and commit nothing more (a handler still
   * running finishes its own work, but nothing it acknowledges counts), its publishes fail, and its members leave
   * their groups only when the session timeout passes (at once without one), so their partitions wait until then.
   */
  kill(): void {
    this.dead = true;
    for (const s of [...this.subs]) s.kill();
    for (const t of this.broker.topics.values()) t.space.notify();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subs].map((s) => s.close()));
    this.closed = true;
    for (const t of this.broker.topics.values()) {
      t.space.notify();
      t.wake();
    }
  }
}
