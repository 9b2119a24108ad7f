/**
 * Topic creation that any number of processes may run at once, in any start order (issue 20, finding 3: workers
 * started together on an empty broker crashed on `Topic creation errors`, then on `This server does not host this
 * topic-partition`). Both buses run this same algorithm over their admin: ask to create what is not usable yet, take
 * "already exists" as success, then wait until every partition of every topic has a leader, retrying transient
 * errors with backoff up to a deadline.
 */
import { TopicExistsError } from './errors.ts';

export interface TopicSpec {
  topic: string;
  partitions: number;
  replicationFactor: number;
}

/** What a create request said about one topic. */
export type CreateOutcome = 'created' | 'exists' | Error;

/** The two broker calls the algorithm needs (kafka.ts wraps kafkajs's admin, memory.ts models a broker). */
export interface TopicAdmin {
  /** Asks the controller to create the topics: per topic, created, exists, or the broker's error. */
  create(specs: TopicSpec[]): Promise<Map<string, CreateOutcome>>;
  /** Partition count of each given topic whose every partition has a leader; a missing or not-ready topic is absent. */
  ready(topics: string[]): Promise<Map<string, number>>;
}

export interface EnsuredTopic {
  topic: string;
  /** Partitions the topic has (an existing topic keeps its own count, whatever was asked). */
  partitions: number;
  /** This call created it (false: it existed, or another process created it meanwhile). */
  created: boolean;
}

export interface EnsureOptions {
  /** Give up after this long (default 120 s): the process then exits non-zero and its supervisor restarts it. */
  waitMs?: number;
  /** First pause between attempts (doubles up to 2 s). */
  retryMs?: number;
  /** Called before each pause, with what is not usable yet and the last transient error. */
  onWait?: (pending: string[], err: Error | null) => void;
}

const UNRECOVERABLE = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError']);

/**
 * Whether asking again may succeed: kafkajs marks broker errors `retriable`; programming errors never are. kafkajs
 * gives up on a retriable error (a broker not up yet) with KafkaJSNumberOfRetriesExceeded, marked not retriable;
 * its own consumer restarts on it, and so does this.
 */
export function isRetriable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (UNRECOVERABLE.has(err.name)) return false;
  if (err.name === 'KafkaJSNumberOfRetriesExceeded') return true;
  return (err as { retriable?: boolean }).retriable !== false;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function ensureTopics(admin: TopicAdmin, specs: TopicSpec[], opts: EnsureOptions = {}): Promise<EnsuredTopic[]> {
  const deadline = Date.now() + (opts.waitMs ?? 120_000);
  let pause = opts.retryMs ?? 100;
  const created = new Set<string>();
  // topics a create was answered for (created or exists): only their metadata is awaited from then on
  const settled = new Set<string>();
  const names = specs.map((s) => s.topic);
  for (;;) {
    let lastErr: Error | null = null;
    let pending = names;
    try {
      const ready = await admin.ready(names);
      pending = names.filter((t) => !ready.has(t));
      if (pending.length === 0) return specs.map((s) => ({ topic: s.topic, partitions: ready.get(s.topic)!, created: created.has(s.topic) }));
      const ask = specs.filter((s) => pending.includes(s.topic) && !settled.has(s.topic));
      if (ask.length > 0) {
        for (const [topic, outcome] of await admin.create(ask)) {
          if (outcome === 'created') created.add(topic);
          if (outcome === 'created' || outcome === 'exists' || outcome instanceof TopicExistsError) settled.add(topic);
          else if (!isRetriable(outcome)) throw outcome; // e.g. a replication factor above the broker count
          else lastErr = outcome;
        }
      }
    } catch (err) {
      if (!isRetriable(err)) throw err;
      lastErr = err as Error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`topics ${pending.join(', ')} not usable after ${(opts.waitMs ?? 120_000) / 1000} s${lastErr ? `: ${lastErr.message}` : ''}`);
    }
    opts.onWait?.(pending, lastErr);
    await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(pause * 2, 2000);
  }
}
