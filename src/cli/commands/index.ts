import type { Command } from '../command.ts';
import { migrateCommand } from './migrate.ts';
import { sqlCommand } from './sql.ts';

/** Every CLI command, in the order `--help` lists them. Add new commands here. */
export const commands: Command[] = [
  migrateCommand,
  sqlCommand,
];
