/**
 * The notification feed between the indexer (publisher: the traces stage and the checkpoint, publisher.ts) and the
 * streaming API (consumer: src/api/streaming). Two halves, so that a transport can carry it between processes:
 *   - in-process (embedded `start`): InProcessFeed is both; a publish calls the handlers before it returns.
 *   - Kafka (`index` workers publish, `serve` processes on a ClickHouse server consume): kafka.ts, topic
 *     `ton.notifications`.
 * A relay over cluster IPC (one indexer process, several HTTP workers) is one more pair: the primary subscribes to
 * its in-process feed and `worker.send`s each event; a worker's feed calls its handlers on `process.on('message')`.
 *
 * Events arrive in masterchain order (one publisher per stage; one Kafka key). The feed keeps nothing: a consumer
 * gets what is published while it is subscribed (no gap recovery; clients resync from /api/v3).
 */
import type { FeedEvent } from '../../schemas/bus/index.ts';

export type FeedHandler = (event: FeedEvent) => void;

/** The consuming half. Handlers must return quickly: they run on the publisher's path in-process. */
export interface NotificationFeed {
  subscribe(handler: FeedHandler): Promise<{ close(): Promise<void> }>;
  close?(): Promise<void>;
}

/** The publishing half. */
export interface NotificationSink {
  publish(events: FeedEvent[]): void | Promise<void>;
  close?(): Promise<void>;
}

/** In-process feed: the embedded default. A handler that throws is logged away, never the publisher's problem. */
export class InProcessFeed implements NotificationFeed, NotificationSink {
  private readonly handlers = new Set<FeedHandler>();

  constructor(private readonly onHandlerError: (err: unknown) => void = () => undefined) {}

  publish(events: FeedEvent[]): void {
    for (const e of events) {
      for (const h of this.handlers) {
        try {
          h(e);
        } catch (err) {
          this.onHandlerError(err);
        }
      }
    }
  }

  async subscribe(handler: FeedHandler): Promise<{ close(): Promise<void> }> {
    this.handlers.add(handler);
    return { close: async () => void this.handlers.delete(handler) };
  }

  get subscribers(): number {
    return this.handlers.size;
  }
}

/** Publishes to several sinks (the in-process feed of `start` and Kafka for `serve` processes elsewhere). */
export class FanoutSink implements NotificationSink {
  constructor(private readonly sinks: NotificationSink[]) {}

  async publish(events: FeedEvent[]): Promise<void> {
    for (const s of this.sinks) await s.publish(events);
  }

  async close(): Promise<void> {
    for (const s of this.sinks) await s.close?.();
  }
}
