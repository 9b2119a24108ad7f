import type { Command } from '../command.ts';
import { indexCommand } from './index-chain.ts';
import { startCommand } from './start.ts';
import { demoCommand } from './demo.ts';
import { statusCommand } from './status.ts';
import { devnetGenerateCommand } from './devnet-generate.ts';
import { devnetServeCommand } from './devnet-serve.ts';
import { migrateCommand } from './migrate.ts';
import { sqlCommand } from './sql.ts';
import { importBlocksCommand } from './import-blocks.ts';
import { decodeBlockCommand } from './decode-block.ts';
import { serveCommand } from './serve.ts';
import { kafkaInitCommand } from './kafka.ts';

/** Every CLI command, in the order `--help` lists them. Add new commands here. */
export const commands: Command[] = [
  startCommand,
  demoCommand,
  indexCommand,
  statusCommand,
  migrateCommand,
  sqlCommand,
  importBlocksCommand,
  decodeBlockCommand,
  devnetGenerateCommand,
  devnetServeCommand,
  serveCommand,
  kafkaInitCommand,
];
