/**
 * Kafka bus (kafkajs 2.2.4): messages keyed (by shard for blocks) so a key stays ordered in its partition, one
 * consumer group per stage and topic, offsets committed only after the handler resolved (the stage's output is
 * durable) and never past a held message (Delivery.hold). A throwing handler's batch is retried in place (order
 * kept, nothing skipped). Values are JSON.
 *
 * What kafkajs leaves to us (issue 20):
 * - Topics are created by ensureTopics only (topics.ts: idempotent, waits for leaders, retries transient metadata
 *   errors); producers and consumers never auto-create one (`allowAutoTopicCreation: false`), so a topic always
 *   has the configured partitions.
 * - kafkajs restarts a crashed consumer only when the crash is retriable. A commit refused because the coordinator
 *   removed the member (UNKNOWN_MEMBER_ID after a handler outlived the session timeout) crashes it for good, and
 *   the process would live on with a dead consumer. This bus starts a new consumer instead, with backoff; after
 *   `maxRestarts` crashes in a row with nothing consumed between them it calls `onFatal`, and the CLI exits
 *   non-zero so its supervisor restarts it.
 * - A group consumes one topic (errors.ts GroupTopicError): checked in this process, and against the members of
 *   the group other processes have (their subscribed topics are in the group's member metadata).
 */
import {
  AssignerProtocol, Kafka, logLevel, CompressionTypes, type Admin, type Consumer, type ConsumerCrashEvent, type EachBatchPayload, type KafkaMessage, type LogEntry, type Producer,
} from 'kafkajs';
import type { Logger } from 'pino';
import { GroupTopicError, MemberRemovedError, UnknownTopicError } from './errors.ts';
import { Holds } from './holds.ts';
import { PauseState } from './pause.ts';
import { ensureTopics as ensureTopicsOn, type CreateOutcome, type EnsuredTopic, type TopicAdmin, type TopicSpec } from './topics.ts';
import type { BatchHandler, Bus, BusMessage, Delivery, SubscribeOptions, Subscription } from './types.ts';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions for topics this bus creates (default 8). */
  partitions?: number;
  /** Default 1. */
  replicationFactor?: number;
  /** Prefix for every topic and group name (several deployments on one cluster). */
  topicPrefix?: string;
  /** The consumers' session timeout (default 30 s, kafkajs's; the broker allows 6 s to 300 s by default). */
  sessionTimeoutMs?: number;
  /** How long ensureTopics waits for the topics to be usable (default 120 s). */
  topicWaitMs?: number;
  /** Consumer crashes in a row (nothing consumed between them) before onFatal (default 5). */
  maxRestarts?: number;
  /** A consumer could not be restarted: the process should exit non-zero. */
  onFatal?: (err: Error) => void;
  logger?: Logger;
}

/** bigint (lt, coins, 64-bit ids in rows) -> decimal string: never a JS number on the wire. */
function bigintAsString(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The innermost cause of a kafkajs error (its retriers wrap the broker's error, sometimes twice). */
function rootCause(err: unknown): { type?: string; message?: string } {
  let e = err as { cause?: unknown; type?: string; message?: string };
  while (e?.cause) e = e.cause as typeof e;
  return e ?? {};
}

/**
 * kafkajs's own log lines go to our logger as warnings, without stacks: it logs each failed connection attempt as an
 * error, which is expected while a broker comes up; what ends a consumer or the process is logged by this bus.
 */
function logCreator(logger: Logger | undefined) {
  return () => (entry: LogEntry) => {
    if (!logger) return;
    const { message, stack: _stack, timestamp: _ts, logger: _name, ...extra } = entry.log as LogEntry['log'] & { stack?: string; timestamp?: string; logger?: string };
    logger.warn({ kafkajs: entry.namespace, ...extra }, message);
  };
}

export class KafkaBus implements Bus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  /** for topic creation and look-ups: few, short retries, ensureTopics retries within its own deadline */
  private readonly adminKafka: Kafka;
  private producer: Producer | null = null;
  private readonly subs = new Set<Subscription>();
  private readonly known = new Set<string>();
  /** group -> topic of this process's live subscriptions */
  private readonly groupTopics = new Map<string, { topic: string; n: number }>();
  private readonly log: Logger | undefined;

  constructor(private readonly opts: KafkaBusOptions) {
    this.log = opts.logger;
    const base = { clientId: opts.clientId ?? 'ton-gateway', brokers: opts.brokers, logLevel: logLevel.WARN, logCreator: logCreator(opts.logger) };
    this.kafka = new Kafka({ ...base, retry: { retries: 8 } });
    this.adminKafka = new Kafka({ ...base, connectionTimeout: 3000, retry: { retries: 1, initialRetryTime: 200, maxRetryTime: 2000 } });
  }

  private name(topic: string): string {
    return (this.opts.topicPrefix ?? '') + topic;
  }

  private async withAdmin<R>(fn: (admin: Admin) => Promise<R>): Promise<R> {
    const admin = this.adminKafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * kafkajs's admin as the two calls topics.ts needs. Each call connects for itself, so that a broker not up yet is
   * one more transient error for ensureTopics to retry (within its deadline), not the end of the process.
   */
  private readonly topicAdmin: TopicAdmin = {
    create: (specs: TopicSpec[]) =>
      this.withAdmin(async (admin) => {
        const out = new Map<string, CreateOutcome>();
        try {
          const created = await admin.createTopics({
            waitForLeaders: false,
            topics: specs.map((s) => ({ topic: s.topic, numPartitions: s.partitions, replicationFactor: s.replicationFactor })),
          });
          // false: every one existed already (kafkajs drops TOPIC_ALREADY_EXISTS when all are)
          for (const s of specs) out.set(s.topic, created ? 'created' : 'exists');
        } catch (err) {
          // "Topic creation errors": one error per topic that failed, the others were created
          const errors = (err as { errors?: { topic?: string; type?: string }[] }).errors;
          if (!Array.isArray(errors)) throw err;
          for (const s of specs) out.set(s.topic, 'created');
          for (const e of errors) if (e.topic) out.set(e.topic, e.type === 'TOPIC_ALREADY_EXISTS' ? 'exists' : (e as unknown as Error));
        }
        return out;
      }),
    ready: (topics: string[]) =>
      this.withAdmin(async (admin) => {
        const out = new Map<string, number>();
        // one topic per request: the metadata of a missing topic fails the whole request
        for (const t of topics) {
          try {
            const { topics: md } = await admin.fetchTopicMetadata({ topics: [t] });
            const parts = md[0]?.partitions ?? [];
            if (parts.length > 0 && parts.every((p) => p.leader >= 0 && p.partitionErrorCode === 0)) out.set(t, parts.length);
          } catch (err) {
            const type = rootCause(err).type;
            if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' && type !== 'LEADER_NOT_AVAILABLE') throw err;
          }
        }
        return out;
      }),
  };

  /** Creates the topics idempotently and waits until usable; returns each one's partitions (`kafka init`). */
  async initTopics(topics: string[]): Promise<EnsuredTopic[]> {
    const partitions = this.opts.partitions ?? 8;
    const specs = topics.map((t) => ({ topic: this.name(t), partitions, replicationFactor: this.opts.replicationFactor ?? 1 }));
    const out = await ensureTopicsOn(this.topicAdmin, specs, {
      waitMs: this.opts.topicWaitMs,
      onWait: (pending, err) => this.log?.info({ pending, err: err?.message }, 'waiting for Kafka topics'),
    });
    for (const t of out) {
      this.known.add(t.topic);
      if (t.partitions !== partitions) this.log?.warn({ topic: t.topic, partitions: t.partitions, configured: partitions }, 'topic exists with another partition count; it keeps its own');
    }
    return out;
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const wanted = topics.filter((t) => !this.known.has(this.name(t)));
    if (wanted.length > 0) await this.initTopics(wanted);
  }

  /** Topics must exist before use: one metadata look-up per topic a process did not ensure itself. */
  private async usable(topic: string): Promise<void> {
    const name = this.name(topic);
    if (this.known.has(name)) return;
    const ready = await this.topicAdmin.ready([name]);
    if (!ready.has(name)) throw new UnknownTopicError(topic);
    this.known.add(name);
  }

  private async getProducer(): Promise<Producer> {
    if (!this.producer) {
      const p = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await p.connect();
      this.producer = p;
    }
    return this.producer;
  }

  async publish<T>(topic: string, messages: BusMessage<T>[]): Promise<void> {
    if (messages.length === 0) return;
    await this.usable(topic);
    const p = await this.getProducer();
    // acks=-1: resolved only once every in-sync replica has the messages.
    await p.send({
      topic: this.name(topic),
      acks: -1,
      compression: CompressionTypes.GZIP,
      messages: messages.map((m) => ({ key: m.key, value: JSON.stringify(m.value, bigintAsString) })),
    });
  }

  /** Refuses a group that consumes another topic here or in another process (their member metadata names it). */
  private async checkGroup(group: string, topic: string): Promise<void> {
    const mine = this.groupTopics.get(group);
    if (mine && mine.topic !== topic) throw new GroupTopicError(group, topic, mine.topic);
    let other: string | undefined;
    try {
      const { groups } = await this.withAdmin((admin) => admin.describeGroups([this.name(group)]));
      for (const m of groups[0]?.members ?? []) {
        const md = m.memberMetadata.length ? AssignerProtocol.MemberMetadata.decode(m.memberMetadata) : null;
        other ??= md?.topics.find((t) => t !== this.name(topic));
      }
    } catch (err) {
      // only a check: a coordinator that does not answer now must not keep the stage from starting
      this.log?.warn({ group, err: (err as Error).message }, 'could not describe the consumer group to check its topics');
    }
    if (other !== undefined) throw new GroupTopicError(group, topic, other.slice((this.opts.topicPrefix ?? '').length));
  }

  async subscribe<T>(topic: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    await this.usable(topic);
    await this.checkGroup(opts.group, topic);
    const gt = this.groupTopics.get(opts.group) ?? { topic, n: 0 };
    gt.n++;
    this.groupTopics.set(opts.group, gt);
    const names = { topic, kafkaTopic: this.name(topic), groupId: this.name(opts.group) };
    const limits = { sessionTimeout: this.opts.sessionTimeoutMs ?? 30_000, maxRestarts: this.opts.maxRestarts ?? 5, onFatal: this.opts.onFatal, log: this.log };
    const sub: KafkaSubscription<T> = new KafkaSubscription(this.kafka, names, handler, opts, limits, () => {
      this.subs.delete(sub);
      const left = this.groupTopics.get(opts.group);
      if (left && --left.n === 0) this.groupTopics.delete(opts.group);
    });
    await sub.start();
    this.subs.add(sub);
    return sub;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subs].map((s) => s.close()));
    if (this.producer) await this.producer.disconnect();
    this.producer = null;
  }
}

/** What a subscription is called: the bus's topic, and the prefixed names Kafka knows. */
interface SubscriptionNames {
  topic: string;
  kafkaTopic: string;
  groupId: string;
}

/** The bus's settings a subscription's consumers follow. */
interface ConsumerLimits {
  sessionTimeout: number;
  maxRestarts: number;
  onFatal?: (err: Error) => void;
  log: Logger | undefined;
}

/**
 * One group's subscription to a topic: its kafkajs consumer (a new one after a crash kafkajs does not restart
 * itself), the offsets it commits and the messages its handler holds, kept across those restarts.
 */
class KafkaSubscription<T> implements Subscription {
  private stopped = false;
  private consumer: Consumer | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private crashes = 0;
  private readonly holds = new Holds();
  /** kept across restarts, applied to each new consumer */
  private readonly paused = new PauseState();
  // per partition: the next offset to deliver and the offset last committed (commits only move forward)
  private readonly next = new Map<number, bigint>();
  private readonly committed = new Map<number, bigint>();
  /** partitions this member holds now (GROUP_JOIN): a commit for another one would be a stale member's */
  private assigned = new Set<number>();
  private readonly maxBatch: number;
  private readonly retryMs: number;

  constructor(
    private readonly kafka: Kafka,
    private readonly names: SubscriptionNames,
    private readonly handler: BatchHandler<T>,
    private readonly opts: SubscribeOptions,
    private readonly limits: ConsumerLimits,
    private readonly onClose: () => void,
  ) {
    this.maxBatch = opts.maxBatch ?? 256;
    this.retryMs = opts.retryMs ?? 500;
  }

  private async commit(c: Consumer, partition: number): Promise<void> {
    const at = this.next.get(partition);
    if (at === undefined || !this.assigned.has(partition)) return;
    const point = this.holds.commitPoint(partition, at);
    if (point <= (this.committed.get(partition) ?? -1n)) return;
    await c.commitOffsets([{ topic: this.names.kafkaTopic, partition, offset: point.toString() }]);
    if (point > (this.committed.get(partition) ?? -1n)) this.committed.set(partition, point);
  }

  private applyPause(c: Consumer): void {
    const topic = this.names.kafkaTopic;
    const calls = this.paused.asCalls();
    try {
      c.resume([{ topic }]);
      if (calls.pauseAll) c.pause([{ topic }]);
      if (calls.pause.length) c.pause([{ topic, partitions: calls.pause }]);
      if (calls.resume.length) c.resume([{ topic, partitions: calls.resume }]);
    } catch {
      // not running (between a crash and its restart): start() applies it
    }
  }

  /** A new consumer in the group, running. */
  async start(): Promise<void> {
    const { sessionTimeout } = this.limits;
    const c = this.kafka.consumer({
      groupId: this.names.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: Math.max(100, this.opts.lingerMs ?? 0),
      sessionTimeout,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
    });
    c.on(c.events.GROUP_JOIN, (e) => {
      this.assigned = new Set(e.payload.memberAssignment[this.names.kafkaTopic] ?? []);
      // a partition that comes back may have been read further by another member meanwhile: commit nothing for it
      // until this member delivers from it again (a stale `next` would move the group's offset back)
      this.next.clear();
    });
    c.on(c.events.CRASH, (e) => this.crashed(e));
    await c.connect();
    await c.subscribe({ topics: [this.names.kafkaTopic], fromBeginning: true });
    this.consumer = c;
    await c.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => this.eachBatch(c, payload) });
    this.applyPause(c);
  }

  /** kafkajs restarts retriable crashes itself; after another one, a new consumer with backoff, or onFatal. */
  private crashed(e: ConsumerCrashEvent): void {
    if (e.payload.restart || this.stopped) return;
    const err = e.payload.error;
    this.crashes++;
    const cause = rootCause(err);
    this.limits.log?.error({ group: this.opts.group, topic: this.names.topic, err: err.message, cause: cause.type, crashes: this.crashes }, 'consumer crashed; starting a new one');
    if (this.crashes > this.limits.maxRestarts) {
      this.limits.onFatal?.(new Error(`consumer group "${this.opts.group}" on "${this.names.topic}": ${this.crashes} crashes in a row, the last: ${err.message}`));
      return;
    }
    this.restartTimer = setTimeout(() => void this.restart(), Math.min(1000 * 2 ** (this.crashes - 1), 30_000));
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    const old = this.consumer;
    this.consumer = null;
    await old?.disconnect().catch(() => undefined);
    try {
      await this.start();
    } catch (err) {
      this.crashes++;
      this.limits.log?.error({ group: this.opts.group, topic: this.names.topic, err: (err as Error).message, crashes: this.crashes }, 'consumer restart failed');
      if (this.crashes > this.limits.maxRestarts) this.limits.onFatal?.(new Error(`consumer group "${this.opts.group}" on "${this.names.topic}" could not be restarted: ${(err as Error).message}`));
      else this.restartTimer = setTimeout(() => void this.restart(), Math.min(1000 * 2 ** (this.crashes - 1), 30_000));
    }
  }

  /** A fetched batch in chunks of maxBatch: each handled until it succeeds, then committed. */
  private async eachBatch(c: Consumer, { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    for (let i = 0; i < batch.messages.length; i += this.maxBatch) {
      const chunk = batch.messages.slice(i, i + this.maxBatch);
      const deliveries = this.deliveries(batch.partition, chunk);
      if (!(await this.handleUntilDone(deliveries, heartbeat, () => isRunning() && !isStale()))) return;
      const last = chunk[chunk.length - 1].offset;
      resolveOffset(last);
      // Committed only now: the handler's output is durable (up to what it holds). A member the coordinator
      // removed meanwhile gets UNKNOWN_MEMBER_ID here: the consumer crashes and the CRASH handler restarts it.
      this.next.set(batch.partition, BigInt(last) + 1n);
      try {
        await this.commit(c, batch.partition);
      } catch (err) {
        const type = rootCause(err).type;
        if (type === 'UNKNOWN_MEMBER_ID' || type === 'ILLEGAL_GENERATION') {
          this.opts.onError?.(new MemberRemovedError(this.opts.group, `${type}: removed after the session timeout of ${this.limits.sessionTimeout} ms, or the group moved on`), deliveries);
        }
        throw err;
      }
      this.crashes = 0;
      await heartbeat();
    }
  }

  private deliveries(partition: number, chunk: KafkaMessage[]): Delivery<T>[] {
    return chunk.map((m) => ({
      topic: this.names.topic,
      partition,
      offset: m.offset,
      key: m.key?.toString() ?? '',
      value: JSON.parse(m.value?.toString() ?? 'null') as T,
      hold: () => {
        const release = this.holds.hold(partition, BigInt(m.offset));
        return () => {
          release();
          // a failed commit (the partition moved to another member, the consumer closed) only means the
          // message is delivered again: at least once
          if (!this.stopped && this.consumer) this.commit(this.consumer, partition).catch(() => undefined);
        };
      },
    }));
  }

  /** The handler on the chunk again after each throw (order kept, nothing skipped); false if the consumer stopped first. */
  private async handleUntilDone(deliveries: Delivery<T>[], heartbeat: () => Promise<void>, current: () => boolean): Promise<boolean> {
    for (;;) {
      if (this.stopped || !current()) return false;
      try {
        await this.handler(deliveries);
        return true;
      } catch (err) {
        this.opts.onError?.(err, deliveries);
        await heartbeat();
        await sleep(this.retryMs);
      }
    }
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.onClose();
    await this.consumer?.disconnect();
    this.consumer = null;
  }

  pause(partitions?: number[]): void {
    this.paused.pause(partitions);
    if (this.consumer) this.applyPause(this.consumer);
  }

  resume(partitions?: number[]): void {
    this.paused.resume(partitions);
    if (this.consumer) this.applyPause(this.consumer);
  }
}
