/**
 * The bus between stages. At-least-once delivery with explicit acknowledgement: a handler's batch counts
 * as consumed only when the handler's promise resolves (the stage's output is durable by then); if the
 * handler throws, the batch is delivered again. A handler may hold messages past its return (Delivery.hold).
 * Messages with the same key keep their order.
 * Values are plain JSON-compatible objects (zod-validated at the stage edges, schemas/bus/).
 */
export interface BusMessage<T = unknown> {
  /** Partitioning key: messages with equal keys are delivered in publish order. */
  key: string;
  value: T;
}

export interface Delivery<T = unknown> extends BusMessage<T> {
  topic: string;
  /** Position in the topic (per partition for Kafka), for logs. */
  offset: string;
  partition: number;
  /**
   * Keeps this message uncommitted after the handler resolves, for a stage that buffers it until a later write
   * (the traces stage holds the blocks of seqnos that are not complete yet). The group's committed offset on the
   * partition stays at or below it until the returned release is called, so whoever consumes the partition after
   * a crash gets it again. Delivery past it goes on meanwhile.
   */
  hold(): () => void;
}

export interface SubscribeOptions {
  /** Consumer group: each group sees every message once; members of a group share the work. */
  group: string;
  /** Max messages handed to the handler at once. */
  maxBatch?: number;
  /**
   * Wait up to this long for a batch to fill up to maxBatch before delivering it (fewer, larger batches for
   * stages whose ack costs a flush). Default 0.
   */
  lingerMs?: number;
  /** Pause before redelivering a batch whose handler threw. */
  retryMs?: number;
  /** Called when a handler throws (the batch will be redelivered). */
  onError?: (err: unknown, batch: Delivery[]) => void;
}

export interface Subscription {
  /** Stops consuming; resolves once the in-flight batch (if any) has finished. */
  close(): Promise<void>;
  /**
   * Stops delivery from the given partitions (all when omitted) while keeping the membership alive: a stage that
   * must wait for upstream buffers what it has and pauses, instead of waiting inside its handler (a handler that
   * outlives the session timeout gets its member removed from the group). Delivery resumes where it stopped.
   */
  pause(partitions?: number[]): void;
  resume(partitions?: number[]): void;
}

export type BatchHandler<T> = (batch: Delivery<T>[]) => Promise<void>;

/**
 * Topics must exist before use: publish and subscribe on a missing one fail with UnknownTopicError (errors.ts).
 * A consumer group consumes one topic: subscribing a group that already consumes another topic (on this bus, or,
 * on Kafka, in another process) fails with GroupTopicError. A member whose handler runs past the session timeout
 * is removed from its group (its partitions go to the other members, its commit is refused) and rejoins.
 */
export interface Bus {
  readonly kind: 'memory' | 'kafka';
  /**
   * Creates the topics that do not exist yet and resolves once each is usable (every partition has a leader).
   * Idempotent: any number of processes may run it at once; an existing topic keeps its partition count.
   */
  ensureTopics(topics: string[]): Promise<void>;
  /** Resolves once the messages are accepted (waits while the bus is full: backpressure). */
  publish<T>(topic: string, messages: BusMessage<T>[]): Promise<void>;
  subscribe<T>(topic: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}
