/** The bus stage: one interface, two implementations (in-process default, Kafka at scale). */
import { KafkaBus, type KafkaBusOptions } from './kafka.ts';
import { MemoryBus, type MemoryBusOptions } from './memory.ts';
import type { Bus } from './types.ts';

export type { Bus, BusMessage, Delivery, SubscribeOptions, Subscription, BatchHandler } from './types.ts';
export { MemoryBus, partitionOf, type MemoryBusOptions } from './memory.ts';
export { KafkaBus, type KafkaBusOptions } from './kafka.ts';

/** Kafka when brokers are given (`KAFKA_BROKERS=host:9092,...`), the in-process bus otherwise. */
export function createBus(opts: { brokers?: string | string[]; kafka?: Omit<KafkaBusOptions, 'brokers'>; memory?: MemoryBusOptions } = {}): Bus {
  const brokers = typeof opts.brokers === 'string' ? opts.brokers.split(',').map((s) => s.trim()).filter(Boolean) : (opts.brokers ?? []);
  if (brokers.length > 0) return new KafkaBus({ brokers, ...opts.kafka });
  return new MemoryBus(opts.memory);
}
