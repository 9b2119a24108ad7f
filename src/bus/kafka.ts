/**
 * Kafka bus (kafkajs): topics created when missing, messages keyed (by shard for blocks) so a key stays
 * ordered in its partition, one consumer group per stage, offsets committed only after the handler
 * resolved (the stage's output is durable) and never past a held message (Delivery.hold). A throwing handler's
 * batch is retried in place (order kept, nothing skipped). Values are JSON.
 */
import { Kafka, logLevel, CompressionTypes, type Consumer, type Producer } from 'kafkajs';
import { Holds } from './holds.ts';
import type { BatchHandler, Bus, BusMessage, Delivery, SubscribeOptions, Subscription } from './types.ts';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions for topics this bus creates. */
  partitions?: number;
  replicationFactor?: number;
  /** Prefix for every topic name (several deployments on one cluster). */
  topicPrefix?: string;
}

/** bigint (lt, coins, 64-bit ids in rows) -> decimal string: never a JS number on the wire. */
function bigintAsString(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class KafkaBus implements Bus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer: Producer | null = null;
  private readonly consumers = new Set<Consumer>();
  private readonly known = new Set<string>();

  constructor(private readonly opts: KafkaBusOptions) {
    this.kafka = new Kafka({ clientId: opts.clientId ?? 'ton-gateway', brokers: opts.brokers, logLevel: logLevel.ERROR, retry: { retries: 8 } });
  }

  private name(topic: string): string {
    return (this.opts.topicPrefix ?? '') + topic;
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const wanted = topics.map((t) => this.name(t)).filter((t) => !this.known.has(t));
    if (wanted.length === 0) return;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((t) => !existing.has(t));
      if (missing.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: this.opts.partitions ?? 8, replicationFactor: this.opts.replicationFactor ?? 1 })),
        });
      }
      for (const t of wanted) this.known.add(t);
    } finally {
      await admin.disconnect();
    }
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
    await this.ensureTopics([topic]);
    const p = await this.getProducer();
    // acks=-1: resolved only once every in-sync replica has the messages.
    await p.send({
      topic: this.name(topic),
      acks: -1,
      compression: CompressionTypes.GZIP,
      messages: messages.map((m) => ({ key: m.key, value: JSON.stringify(m.value, bigintAsString) })),
    });
  }

  async subscribe<T>(topic: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    await this.ensureTopics([topic]);
    const consumer = this.kafka.consumer({ groupId: this.name(opts.group), allowAutoTopicCreation: false, maxWaitTimeInMs: Math.max(100, opts.lingerMs ?? 0) });
    await consumer.connect();
    await consumer.subscribe({ topics: [this.name(topic)], fromBeginning: true });
    this.consumers.add(consumer);
    const maxBatch = opts.maxBatch ?? 256;
    const retryMs = opts.retryMs ?? 500;
    let stopped = false;
    const holds = new Holds();
    // per partition: the next offset to deliver and the offset last committed (commits only move forward)
    const next = new Map<number, bigint>();
    const committed = new Map<number, bigint>();
    const kafkaTopic = this.name(topic);
    const commit = async (partition: number): Promise<void> => {
      const at = next.get(partition);
      if (at === undefined) return;
      const point = holds.commitPoint(partition, at);
      if (point <= (committed.get(partition) ?? -1n)) return;
      await consumer.commitOffsets([{ topic: kafkaTopic, partition, offset: point.toString() }]);
      if (point > (committed.get(partition) ?? -1n)) committed.set(partition, point);
    };
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (let i = 0; i < batch.messages.length; i += maxBatch) {
          const chunk = batch.messages.slice(i, i + maxBatch);
          const deliveries: Delivery<T>[] = chunk.map((m) => ({
            topic,
            partition: batch.partition,
            offset: m.offset,
            key: m.key?.toString() ?? '',
            value: JSON.parse(m.value?.toString() ?? 'null') as T,
            hold: () => {
              const release = holds.hold(batch.partition, BigInt(m.offset));
              return () => {
                release();
                // a failed commit (the partition moved to another member, the consumer closed) only means the
                // message is delivered again: at least once
                if (!stopped) commit(batch.partition).catch(() => undefined);
              };
            },
          }));
          for (;;) {
            if (stopped || !isRunning() || isStale()) return;
            try {
              await handler(deliveries);
              break;
            } catch (err) {
              opts.onError?.(err, deliveries);
              await heartbeat();
              await sleep(retryMs);
            }
          }
          const last = chunk[chunk.length - 1].offset;
          resolveOffset(last);
          // Committed only now: the handler's output is durable (up to what it holds).
          next.set(batch.partition, BigInt(last) + 1n);
          await commit(batch.partition);
          await heartbeat();
        }
      },
    });
    return {
      close: async () => {
        stopped = true;
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    if (this.producer) await this.producer.disconnect();
    this.producer = null;
  }
}
