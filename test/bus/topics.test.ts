import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ensureTopics, KafkaBus, MemoryBus, TopicExistsError, UnknownTopicError, type TopicAdmin, type TopicSpec } from '../../src/bus/index.ts';

/**
 * ensureTopics (src/bus/topics.ts), the one creation algorithm of both buses. The concurrency and "exists" cases run
 * on the in-process broker; the broker errors Kafka answers (a bad replication factor, a timed-out create, metadata
 * not there yet) are scripted, in kafkajs's shapes, since no broker runs here.
 */
const spec = (topic: string, partitions = 8): TopicSpec => ({ topic, partitions, replicationFactor: 1 });

/** A broker's admin whose answers are given in order: each call takes the next one. */
function scripted(creates: (Map<string, 'created' | 'exists' | Error> | Error)[], readies: (Map<string, number> | Error)[]): TopicAdmin & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async create(specs) {
      calls.push(`create ${specs.map((s) => s.topic).join(',')}`);
      const r = creates.shift();
      if (!r) throw new Error('unexpected create');
      if (r instanceof Error) throw r;
      return r;
    },
    async ready(topics) {
      calls.push(`ready ${topics.join(',')}`);
      const r = readies.shift();
      if (!r) throw new Error('unexpected ready');
      if (r instanceof Error) throw r;
      return r;
    },
  };
}

/** A broker error as kafkajs raises it: `retriable` set from the protocol's error table. */
function brokerError(type: string, retriable: boolean): Error {
  return Object.assign(new Error(type), { type, retriable });
}

describe('ensureTopics', () => {
  it('creates what is missing once, whatever number of clients ask at once; an existing topic keeps its partitions', async () => {
    const bus = new MemoryBus({ partitions: 8, topicCreateMs: 50 });
    await bus.ensureTopics(['old']);
    const clients = [bus.connect(), bus.connect(), bus.connect()];
    await Promise.all(clients.map((c) => c.ensureTopics(['a', 'old', 'b'])));
    // every client can use them at once
    await Promise.all(clients.map((c, i) => c.publish('a', [{ key: `k${i}`, value: i }])));
    // a topic that exists keeps its own partition count, whatever is asked
    const admin: TopicAdmin = { create: async () => new Map([['c', 'created']]), ready: async () => new Map([['c', 3]]) };
    expect(await ensureTopics(admin, [spec('c', 8)])).toEqual([{ topic: 'c', partitions: 3, created: false }]);
  });

  it('takes "already exists" (raced by another process) as success and waits until the topic has leaders', async () => {
    const admin = scripted(
      [new Map<string, 'created' | 'exists' | Error>([['t', new TopicExistsError('t')]])],
      [new Map(), new Map(), new Map([['t', 8]])],
    );
    expect(await ensureTopics(admin, [spec('t')], { retryMs: 1 })).toEqual([{ topic: 't', partitions: 8, created: false }]);
    // asked to create once; afterwards only its metadata is awaited
    expect(admin.calls).toEqual(['ready t', 'create t', 'ready t', 'ready t']);
  });

  it('retries transient broker errors (metadata not there yet, a create that timed out) and creates again what was not created', async () => {
    const admin = scripted(
      [new Map<string, 'created' | 'exists' | Error>([['a', 'created'], ['b', brokerError('REQUEST_TIMED_OUT', true)]]), new Map([['b', 'created']])],
      [brokerError('LEADER_NOT_AVAILABLE', true), new Map(), new Map([['a', 8]]), new Map([['a', 8], ['b', 8]])],
    );
    const waits: string[][] = [];
    const out = await ensureTopics(admin, [spec('a'), spec('b')], { retryMs: 1, onWait: (p) => waits.push(p) });
    expect(out).toEqual([
      { topic: 'a', partitions: 8, created: true },
      { topic: 'b', partitions: 8, created: true },
    ]);
    expect(admin.calls).toEqual(['ready a,b', 'ready a,b', 'create a,b', 'ready a,b', 'create b', 'ready a,b']);
    expect(waits[0]).toEqual(['a', 'b']);
  });

  it('fails at once on an error asking again cannot fix (a replication factor above the broker count)', async () => {
    const bad = brokerError('INVALID_REPLICATION_FACTOR', false);
    const admin = scripted([new Map<string, 'created' | 'exists' | Error>([['t', bad]])], [new Map()]);
    await expect(ensureTopics(admin, [spec('t')], { retryMs: 1 })).rejects.toBe(bad);
  });

  it('gives up after its deadline, naming the topics not usable and the last error', async () => {
    const admin: TopicAdmin = {
      create: async () => new Map([['slow', 'exists']]),
      ready: async () => {
        throw new UnknownTopicError('slow');
      },
    };
    await expect(ensureTopics(admin, [spec('slow')], { waitMs: 50, retryMs: 5 })).rejects.toThrow(/topics slow not usable after 0.05 s: topic "slow" does not exist/);
  });

  it('on Kafka with no broker answering yet: retries the connection until its deadline, then fails naming the topics', async () => {
    // a port nobody listens on: the broker of a role started before Kafka
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    const bus = new KafkaBus({ brokers: [`127.0.0.1:${port}`], topicWaitMs: 2000 });
    try {
      await expect(bus.ensureTopics(['t.a', 't.b'])).rejects.toThrow(/^topics t\.a, t\.b not usable after 2 s: .*ECONNREFUSED/);
    } finally {
      await bus.close();
    }
  }, 60_000);
});
