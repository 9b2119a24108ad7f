// The notification feed's contract, every implementation: in-process always; Kafka with KAFKA_BROKERS (or Docker via
// testcontainers). Events reach every subscriber in publish order; a subscriber gets what is published while it is
// subscribed; a message that does not parse is skipped and reported.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { TOPICS, type FeedEvent } from '../../schemas/bus/index.ts';
import { InProcessFeed, KafkaNotificationFeed, KafkaNotificationSink, type NotificationFeed, type NotificationSink } from '../../src/feed/index.ts';
import { until } from '../helpers/until.ts';

interface Impl {
  name: string;
  make(onInvalid: (e: unknown) => void): Promise<{ feed: NotificationFeed; sink: NotificationSink; raw?: (value: string) => Promise<void> }>;
  teardown?(): Promise<void>;
}

const impls: Impl[] = [
  {
    name: 'in-process',
    make: async () => {
      const f = new InProcessFeed();
      return { feed: f, sink: f };
    },
  },
];

const dockerAvailable = !!process.env.DOCKER_HOST || existsSync('/var/run/docker.sock');
if (process.env.KAFKA_BROKERS || dockerAvailable) {
  let brokers = process.env.KAFKA_BROKERS?.split(',') ?? [];
  let stop: (() => Promise<unknown>) | null = null;
  impls.push({
    name: 'kafka',
    make: async (onInvalid) => {
      if (brokers.length === 0) {
        const { KafkaContainer } = await import('@testcontainers/kafka');
        const c = await new KafkaContainer('confluentinc/cp-kafka:7.6.1').withKraft().start();
        brokers = [`${c.getHost()}:${c.getMappedPort(9093)}`];
        stop = () => c.stop();
      }
      const topicPrefix = `t${randomUUID().slice(0, 8)}.`;
      const producer = new Kafka({ brokers }).producer();
      return {
        feed: new KafkaNotificationFeed({ brokers, topicPrefix, onInvalid }),
        sink: new KafkaNotificationSink({ brokers, topicPrefix }),
        raw: async (value) => {
          await producer.connect();
          await producer.send({ topic: topicPrefix + TOPICS.notifications, messages: [{ key: 'mc', value }] });
          await producer.disconnect();
        },
      };
    },
    teardown: async () => {
      await stop?.();
    },
  });
}

const seqno = (n: number): FeedEvent => ({ kind: 'seqno', mc_seqno: n, part: 0, last: true, at: Date.now(), traces: [], accounts: [{ account: '0:' + 'AB'.repeat(32), balance: '10' }], jetton_wallets: [] });
const finalized = (n: number): FeedEvent => ({ kind: 'finalized', mc_seqno: n, at: Date.now() });

for (const impl of impls) {
  describe(`notification feed: ${impl.name}`, () => {
    afterAll(async () => impl.teardown?.());

    it('every subscriber gets the events in publish order, from when it subscribed', async () => {
      const invalid: unknown[] = [];
      const { feed, sink, raw } = await impl.make((e) => invalid.push(e));
      const a: FeedEvent[] = [];
      const b: FeedEvent[] = [];
      const sa = await feed.subscribe((e) => a.push(e));
      const sb = await feed.subscribe((e) => b.push(e));
      const events = [seqno(1), finalized(1), seqno(2), seqno(3), finalized(3)];
      if (raw) {
        // a consumer group joins asynchronously: publish once both get events
        for (let i = 0; i < 100 && (a.length === 0 || b.length === 0); i++) {
          await sink.publish([finalized(0)]);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const skip = a.length;
      const skipB = b.length;
      await sink.publish(events);
      await until(() => a.length - skip === events.length && b.length - skipB === events.length, 'all events', 60_000);
      expect(a.slice(skip)).toEqual(events);
      expect(b.slice(skipB)).toEqual(events);
      if (raw) {
        await raw('{"kind":"seqno","mc_seqno":"x"}');
        await sink.publish([finalized(4)]);
        await until(() => a.some((e) => e.kind === 'finalized' && e.mc_seqno === 4), 'after the bad message', 60_000);
        expect(invalid.length).toBe(2); // one per subscriber
      }
      await sb.close();
      await sink.publish([seqno(5)]);
      await until(() => a.some((e) => e.kind === 'seqno' && e.mc_seqno === 5), 'event 5', 60_000);
      expect(b.some((e) => e.kind === 'seqno' && e.mc_seqno === 5)).toBe(false);
      await sa.close();
      await feed.close?.();
      await sink.close?.();
    });
  });
}

describe('in-process feed', () => {
  it('a handler that throws does not stop the publisher nor the other handlers', async () => {
    const errors: unknown[] = [];
    const f = new InProcessFeed((e) => errors.push(e));
    const got: number[] = [];
    await f.subscribe(() => {
      throw new Error('bad handler');
    });
    await f.subscribe((e) => got.push(e.mc_seqno));
    f.publish([seqno(1), finalized(1)]);
    expect(got).toEqual([1, 1]);
    expect(errors.length).toBe(2);
  });
});

// Without a broker the Kafka run is reported as skipped, not silently absent (as the bus contract does).
describe.skipIf(impls.some((i) => i.name === 'kafka'))('notification feed: kafka (set KAFKA_BROKERS, or run with a Docker engine)', () => {
  it.skip('the same contract on Kafka', () => undefined);
});
