/** One CLI command: `ton-gateway <name> ...`. Commands only wire services together. */
export interface Command {
  name: string;
  summary: string;
  /** Full help text, shown by `ton-gateway <name> --help`. */
  usage: string;
  run(argv: string[]): Promise<number>;
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
