import pino from 'pino';
import { CliError, intOption, type Command } from '../command.ts';
import { TOPICS } from '../../../schemas/bus/index.ts';
import { BusConfigError, KafkaBus, kafkaOptionsFromEnv } from '../../bus/index.ts';

export const kafkaInitCommand: Command = {
  name: 'kafka init',
  summary: 'create the Kafka topics of a split deployment (idempotent; every role also does it at start)',
  usage: [
    'Usage: ton-gateway kafka init [--partitions N] [--replication-factor N] [--wait-seconds S]',
    '',
    `Creates the bus topics (${Object.values(TOPICS).join(', ')}) on KAFKA_BROKERS where missing and waits until`,
    'every partition has a leader, then prints each topic with its partition count. Safe to run any number of times',
    'and at the same time as the roles: a topic that exists is left as it is (with its own partition count; raise it',
    'with kafka-topics.sh --alter). Every `index --roles ...` process runs the same step at start, so any start order',
    'works; this command only makes it explicit (a deploy step before the workers).',
    '',
    'Options:',
    '  --partitions N          partitions of the topics it creates (default KAFKA_PARTITIONS, else 8): the most',
    '                          decode workers that share the work',
    '  --replication-factor N  (default KAFKA_REPLICATION_FACTOR, else 1)',
    '  --wait-seconds S        give up after S seconds without usable topics (default 120; exit 1)',
    '',
    'Environment: KAFKA_BROKERS=host:9092,... (required), KAFKA_TOPIC_PREFIX (prefix of topic and group names).',
  ].join('\n'),
  async run(argv) {
    let partitions: number | undefined;
    let replicationFactor: number | undefined;
    let waitSeconds = 120;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--partitions') partitions = intOption('--partitions', argv[++i], 1, 10_000);
      else if (a === '--replication-factor') replicationFactor = intOption('--replication-factor', argv[++i], 1, 100);
      else if (a === '--wait-seconds') waitSeconds = intOption('--wait-seconds', argv[++i], 1, 86_400);
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    let opts;
    try {
      opts = kafkaOptionsFromEnv(process.env);
    } catch (err) {
      if (err instanceof BusConfigError) throw new CliError(err.message);
      throw err;
    }
    if (!opts) throw new CliError('KAFKA_BROKERS is not set: give the brokers, e.g. KAFKA_BROKERS=localhost:9092');
    const log = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
    const want = partitions ?? opts.partitions ?? 8;
    const bus = new KafkaBus({ ...opts, partitions: want, replicationFactor: replicationFactor ?? opts.replicationFactor, topicWaitMs: waitSeconds * 1000, logger: log });
    try {
      const topics = await bus.initTopics(Object.values(TOPICS));
      for (const t of topics) {
        const note = t.partitions !== want ? `  (exists with ${t.partitions}, not ${want}: kafka-topics.sh --alter --partitions to raise it)` : '';
        console.log(`${t.topic}\t${t.partitions} partitions\t${t.created ? 'created' : 'exists'}${note}`);
      }
      return 0;
    } catch (err) {
      throw new CliError((err as Error).message.split('\n')[0]);
    } finally {
      await bus.close();
    }
  },
};
