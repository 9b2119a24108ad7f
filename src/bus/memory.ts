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
    const member: Member = { id: broker.nextMember++, client: this, partitions: [], holds: new Holds(), removed: false, dead: false, paused: new PauseState(), wake: new Signal() };
    const sub: MemorySubscription<T> = new MemorySubscription(broker, t, g, member, handler, opts, {
      closed: () => this.closed,
      forget: () => this.subs.delete(sub),
    });
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

/** What a subscription needs of its client: whether it was closed, and to be forgotten by it when it ends. */
interface ClientLink {
  closed(): boolean;
  forget(): void;
}

/**
 * One member of a group consuming a topic: it joins (a rebalance), delivers batches from its partitions round-robin,
 * moves the group's offsets on acknowledgement, and leaves on close, on the session timeout or when killed.
 */
class MemorySubscription<T> implements Subscription {
  private stopped = false;
  /** the partition after the one delivered last, among the member's */
  private rr = 0;
  private readonly maxBatch: number;
  private readonly retryMs: number;
  private readonly lingerMs: number;
  private readonly sessionMs: number | undefined;
  private readonly running: Promise<void>;

  constructor(
    private readonly broker: Broker,
    private readonly t: Topic,
    private readonly group: Group,
    private readonly member: Member,
    private readonly handler: BatchHandler<T>,
    private readonly opts: SubscribeOptions,
    private readonly client: ClientLink,
  ) {
    this.maxBatch = opts.maxBatch ?? 256;
    this.retryMs = opts.retryMs ?? 200;
    this.lingerMs = opts.lingerMs ?? 0;
    this.sessionMs = broker.opts.sessionTimeoutMs;
    t.members.add(member);
    this.join();
    this.running = this.loop();
  }

  private join(): void {
    this.member.removed = false;
    this.group.members.push(this.member);
    this.t.rebalance(this.group);
  }

  private leave(): void {
    const before = this.group.members.length;
    this.group.members = this.group.members.filter((m) => m !== this.member);
    if (this.group.members.length !== before) this.t.rebalance(this.group);
  }

  /** The coordinator removes the member: its handler outlived the session, or its client was killed. */
  private expire(killed: boolean): void {
    if (this.member.removed) return;
    this.member.removed = true;
    this.broker.stats.sessionsExpired.push({ group: this.opts.group, topic: this.t.name, killed });
    this.leave();
  }

  // the committed offset follows the position up to the lowest held message; only the partition's owner moves it
  private advance(pi: number): void {
    const { member, group } = this;
    if (member.removed || member.dead || this.stopped || !member.partitions.includes(pi)) return;
    const at = Number(member.holds.commitPoint(pi, BigInt(group.position[pi])));
    if (at > group.committed[pi]) {
      group.committed[pi] = at;
      this.t.trim();
    }
  }

  /**
   * Delivers a batch at a time, round-robin over the member's partitions, and waits for a wake-up when none has
   * messages. Finding nothing and starting to wait happen in one synchronous step, so no wake-up falls between.
   */
  private async loop(): Promise<void> {
    while (!this.stopped && !this.client.closed() && !this.member.dead) {
      let delivered = false;
      const mine = this.member.partitions;
      for (let k = 0; k < mine.length && !this.stopped; k++) {
        const pi = mine[(this.rr + k) % mine.length];
        const part = this.t.parts[pi];
        const from = this.group.position[pi];
        if (from >= part.end || this.member.paused.isPaused(pi)) continue;
        if (this.lingerMs > 0 && part.end - from < this.maxBatch) {
          await this.linger(part, from);
          // a rebalance while lingering moved this partition or its position: pick again
          const { member } = this;
          if (member.removed || member.dead || !member.partitions.includes(pi) || this.group.position[pi] !== from) break;
        }
        delivered = true;
        this.rr = (this.rr + k + 1) % Math.max(1, mine.length);
        await this.deliver(pi, part, from);
        break;
      }
      if (!delivered && !this.stopped && !this.member.dead) await this.member.wake.wait();
    }
  }

  /** Waits up to lingerMs for the partition to have a full batch after `from`. */
  private async linger(part: Partition, from: number): Promise<void> {
    const until = Date.now() + this.lingerMs;
    while (!this.stopped && part.end - from < this.maxBatch && Date.now() < until) {
      await Promise.race([this.member.wake.wait(), sleep(Math.max(1, until - Date.now()))]);
    }
  }

  /** One batch from `from`: the handler, then its acknowledgement (settle). */
  private async deliver(pi: number, part: Partition, from: number): Promise<void> {
    const n = Math.min(this.maxBatch, part.end - from);
    const batch = this.batchOf(pi, part, from, n);
    const ok = await this.handle(batch);
    await this.settle(pi, from, n, ok, batch);
  }

  private batchOf(pi: number, part: Partition, from: number, n: number): Delivery<T>[] {
    const batch: Delivery<T>[] = [];
    for (let i = 0; i < n; i++) {
      const e = part.entries[from - part.base + i];
      const offset = from + i;
      const hold = () => {
        const release = this.member.holds.hold(pi, BigInt(offset));
        return () => {
          release();
          this.advance(pi);
        };
      };
      batch.push({ topic: this.t.name, partition: pi, offset: String(offset), key: e.key, value: e.value as T, hold });
    }
    return batch;
  }

  /** The handler on the batch; true when it resolved. */
  private async handle(batch: Delivery<T>[]): Promise<boolean> {
    // kafkajs heartbeats between batches only: a handler running past the session timeout loses the member
    const session = this.sessionMs !== undefined ? setTimeout(() => this.expire(false), this.sessionMs) : undefined;
    try {
      await this.handler(batch);
      return true;
    } catch (err) {
      if (!this.member.dead) this.opts.onError?.(err, batch);
      return false;
    } finally {
      clearTimeout(session);
    }
  }

  /** After the handler: the acknowledgement, a refused commit and a rejoin, or a pause before the retry. */
  private async settle(pi: number, from: number, n: number, ok: boolean, batch: Delivery<T>[]): Promise<void> {
    const { member, group } = this;
    if (member.dead) return; // killed meanwhile: nothing is acknowledged
    if (member.removed) {
      // the coordinator no longer knows this member: the commit is refused, the batch goes to the partition's owner
      if (ok) {
        this.broker.stats.commitsRefused++;
        this.opts.onError?.(new MemberRemovedError(this.opts.group, `the handler ran past the session timeout of ${this.sessionMs} ms`), batch);
      }
      if (!this.stopped && !this.client.closed()) {
        this.broker.stats.rejoins++;
        this.join();
      }
      return;
    }
    if (ok) {
      // acknowledged even when close() came meanwhile: close waits for the batch in flight
      // a rebalance while the handler ran moved the position back to the committed offset: keep that; a
      // partition that went to another member is theirs to read again from the committed offset
      if (member.partitions.includes(pi) && group.position[pi] === from) group.position[pi] = from + n;
      this.advance(pi);
      this.t.space.notify();
    } else await sleep(this.retryMs);
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.member.wake.notify();
    await this.running;
    this.leave();
    this.t.members.delete(this.member);
    this.client.forget();
  }

  pause(partitions?: number[]): void {
    this.member.paused.pause(partitions);
  }

  resume(partitions?: number[]): void {
    this.member.paused.resume(partitions);
    this.member.wake.notify();
  }

  // kill -9: no more deliveries or commits; the coordinator drops the member after the session timeout
  kill(): void {
    this.member.dead = true;
    this.stopped = true;
    this.member.wake.notify();
    this.t.members.delete(this.member);
    this.client.forget();
    if (this.sessionMs === undefined) this.expire(true);
    else setTimeout(() => this.expire(true), this.sessionMs);
  }
}
