/**
 * The notification feed over Kafka: `index` workers (traces stage, checkpoint) publish to `ton.notifications`, each
 * `serve` process consumes it with a consumer group of its own, from the end of the topic (notifications are live
 * only: no gap recovery, clients resync from /api/v3), and deletes its group when it closes. One key ("mc") keeps the
 * events in one partition, in masterchain order. Values are JSON, gzip-compressed, validated on the way in.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CompressionTypes, Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { feedEventSchema, TOPICS, type FeedEvent } from '../../schemas/bus/index.ts';
import type { FeedHandler, NotificationFeed, NotificationSink } from './feed.ts';

export interface KafkaFeedOptions {
  brokers: string[];
  /** Prefix of the topic name (several deployments on one cluster), as the bus's `topicPrefix`. */
  topicPrefix?: string;
  clientId?: string;
  /** Called for a message that does not parse (logged by the caller; the message is skipped). */
  onInvalid?: (err: unknown) => void;
}

function topicOf(opts: KafkaFeedOptions): string {
  return (opts.topicPrefix ?? '') + TOPICS.notifications;
}

function kafkaOf(opts: KafkaFeedOptions): Kafka {
  return new Kafka({ clientId: opts.clientId ?? 'ton-gateway-streaming', brokers: opts.brokers, logLevel: logLevel.ERROR, retry: { retries: 8 } });
}

async function ensureTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) {
      // short retention: nobody reads old notifications
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'retention.ms', value: String(3_600_000) }] }] });
    }
  } finally {
    await admin.disconnect();
  }
}

export class KafkaNotificationSink implements NotificationSink {
  private readonly kafka: Kafka;
  private producer: Promise<Producer> | null = null;
  private ready: Promise<void> | null = null;

  constructor(private readonly opts: KafkaFeedOptions) {
    this.kafka = kafkaOf(opts);
  }

  private connect(): Promise<Producer> {
    this.producer ??= (async () => {
      const p = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await p.connect();
      return p;
    })();
    return this.producer;
  }

  async publish(events: FeedEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.ready ??= ensureTopic(this.kafka, topicOf(this.opts));
    await this.ready;
    const p = await this.connect();
    await p.send({ topic: topicOf(this.opts), acks: -1, compression: CompressionTypes.GZIP, messages: events.map((e) => ({ key: 'mc', value: JSON.stringify(e) })) });
  }

  async close(): Promise<void> {
    if (this.producer) await (await this.producer).disconnect();
    this.producer = null;
  }
}

export class KafkaNotificationFeed implements NotificationFeed {
  private readonly kafka: Kafka;
  private readonly consumers = new Set<{ consumer: Consumer; group: string }>();

  constructor(private readonly opts: KafkaFeedOptions) {
    this.kafka = kafkaOf(opts);
  }

  async subscribe(handler: FeedHandler): Promise<{ close(): Promise<void> }> {
    const topic = topicOf(this.opts);
    await ensureTopic(this.kafka, topic);
    // a group per subscriber: every API process gets every event
    const group = `ton-gateway-streaming-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const consumer = this.kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    const entry = { consumer, group };
    this.consumers.add(entry);
    await consumer.run({
      autoCommit: true,
      eachMessage: async ({ message }) => {
        let event: FeedEvent;
        try {
          event = feedEventSchema.parse(JSON.parse(message.value?.toString() ?? 'null'));
        } catch (err) {
          this.opts.onInvalid?.(err);
          return;
        }
        handler(event);
      },
    });
    return { close: () => this.stop(entry) };
  }

  private async stop(entry: { consumer: Consumer; group: string }): Promise<void> {
    if (!this.consumers.delete(entry)) return;
    await entry.consumer.disconnect();
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([entry.group]);
    } catch {
      // a group left behind expires with the broker's offsets retention
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    for (const e of [...this.consumers]) await this.stop(e);
  }
}
