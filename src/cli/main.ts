import { CliError, type CommandSpec } from './command.ts';
import { commands } from './commands/index.ts';
import { endQuietlyOnClosedPipe } from './closed-pipe.ts';

function help(list: CommandSpec[]): string {
  const width = Math.max(...list.map((c) => c.name.length), 4);
  return [
    'ton-gateway: self-hosted TON indexer and API gateway',
    '',
    'Usage: ton-gateway <command> [options]',
    '',
    'Commands:',
    ...list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `ton-gateway <command> --help` for the options of a command.',
  ].join('\n');
}

/** CLI entry: returns the process exit code. Help comes from the registry; a command's module loads only to run it. */
export async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  const [name] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help(commands));
    return 0;
  }
  // Commands may have sub-commands ("devnet generate"): match the longest name first.
  const sorted = [...commands].sort((a, b) => b.name.length - a.name.length);
  const joined = argv.join(' ');
  const cmd = sorted.find((c) => joined === c.name || joined.startsWith(c.name + ' '));
  if (!cmd) {
    console.error(`ton-gateway: unknown command "${name}". Run \`ton-gateway --help\` for the list.`);
    return 1;
  }
  const args = argv.slice(cmd.name.split(' ').length);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(cmd.usage);
    return 0;
  }
  const command = await cmd.load();
  try {
    return await command.run(args);
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`ton-gateway ${cmd.name}: ${err.message}`);
      return err.exitCode;
    }
    throw err;
  }
}
