import type { Command } from '../command.ts';

/** Every CLI command, in the order `--help` lists them. Add new commands here. */
export const commands: Command[] = [];
