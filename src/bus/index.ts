/** The bus stage: one interface, two implementations (in-process default, Kafka at scale). */
import type { Logger } from 'pino';
import { KafkaBus, type KafkaBusOptions } from './kafka.ts';
import { MemoryBus, type MemoryBusOptions } from './memory.ts';
import type { Bus } from './types.ts';

export type { Bus, BusMessage, Delivery, SubscribeOptions, Subscription, BatchHandler } from './types.ts';
export { MemoryBus, kafkaModel, partitionOf, type MemoryBusOptions, type MemoryBusStats } from './memory.ts';
export { KafkaBus, type KafkaBusOptions } from './kafka.ts';
export { GroupTopicError, MemberRemovedError, TopicExistsError, UnknownTopicError } from './errors.ts';
export { ensureTopics, isRetriable, type EnsuredTopic, type TopicAdmin, type TopicSpec } from './topics.ts';

/** A Kafka setting from the environment that is not what it must be. */
export class BusConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BusConfigError';
  }
}

function envInt(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new BusConfigError(`${name} must be an integer from ${min} to ${max}, got "${v}"`);
  return Number(v);
}

/**
 * The Kafka settings of the environment: KAFKA_BROKERS=host:9092,..., KAFKA_PARTITIONS (topics this process
 * creates, default 8), KAFKA_REPLICATION_FACTOR (default 1), KAFKA_TOPIC_PREFIX (topic and group names, for
 * several deployments on one cluster), KAFKA_SESSION_TIMEOUT_MS (default 30000). Null without brokers.
 */
export function kafkaOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaBusOptions | null {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (brokers.length === 0) return null;
  return {
    brokers,
    partitions: envInt(env, 'KAFKA_PARTITIONS', 1, 10_000),
    replicationFactor: envInt(env, 'KAFKA_REPLICATION_FACTOR', 1, 100),
    sessionTimeoutMs: envInt(env, 'KAFKA_SESSION_TIMEOUT_MS', 1000, 3_600_000),
    topicPrefix: env.KAFKA_TOPIC_PREFIX || undefined,
  };
}

/** Kafka when brokers are given (`KAFKA_BROKERS=host:9092,...` and the settings above), the in-process bus otherwise. */
export function createBus(
  opts: { brokers?: string | string[]; env?: NodeJS.ProcessEnv; kafka?: Omit<KafkaBusOptions, 'brokers'>; memory?: MemoryBusOptions; logger?: Logger; onFatal?: (err: Error) => void } = {},
): Bus {
  const fromEnv = opts.env ? kafkaOptionsFromEnv(opts.env) : null;
  const brokers = typeof opts.brokers === 'string' ? opts.brokers.split(',').map((s) => s.trim()).filter(Boolean) : (opts.brokers ?? fromEnv?.brokers ?? []);
  if (brokers.length > 0) return new KafkaBus({ ...fromEnv, ...opts.kafka, brokers, logger: opts.logger, onFatal: opts.onFatal });
  return new MemoryBus(opts.memory);
}
