import pino from 'pino';
import { CliError, intOption, type Command } from '../command.ts';
import { TOPICS } from '../../../schemas/bus/index.ts';
import { BusConfigError, KafkaBus, kafkaOptionsFromEnv } from '../../bus/index.ts';

export const kafkaInitCommand: Command = {
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
