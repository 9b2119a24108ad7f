/**
 * The code behind one CLI command (`ton-gateway <name> ...`), exported by its module in `commands/`. Commands only
 * wire services together. Its name and help text live in the registry (`commands/index.ts`), so `--help` never
 * loads the command's module (and the services it imports).
 */
export interface Command {
  run(argv: string[]): Promise<number>;
}

/** A registry entry: what `--help` prints, and a loader for the command's module (imported only to run it). */
export interface CommandSpec {
  /** One word, or two for a sub-command ("devnet generate"). */
  name: string;
  summary: string;
  /** Full help text, shown by `ton-gateway <name> --help`. */
  usage: string;
  load(): Promise<Command>;
}

/** A user-facing failure: printed as one line, exit code 1 (or `exitCode`), never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The value after option `name` (`argv[i]`); a missing value or another option in its place is an error. */
export function optionValue(name: string, v: string | undefined): string {
  if (v === undefined || v.startsWith('--')) throw new CliError(`${name} needs a value`);
  return v;
}

/** An integer option within [min, max]. */
export function intOption(name: string, v: string | undefined, min: number, max: number): number {
  const s = optionValue(name, v);
  if (!/^\d+$/.test(s) || Number(s) < min || Number(s) > max) throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${s}"`);
  return Number(s);
}

/** `--port`: 0 (any free port) to 65535. */
export function portOption(v: string | undefined): number {
  return intOption('--port', v, 0, 65535);
}
