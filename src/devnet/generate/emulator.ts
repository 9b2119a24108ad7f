/** The TVM emulator (@ton/sandbox Executor), run one message at a time with our own lt / now / seed. */
import { Cell } from '@ton/core';
import { Executor, defaultConfig } from '@ton/sandbox';

export interface Executed {
  tx: Cell;
  /** The new ShardAccount as the emulator returned it (base64 BoC): parsed only when needed. */
  shardAccountB64: string;
}

export class Emulator {
  private constructor(
    private readonly executor: Executor,
    readonly configBase64: string,
  ) {}

  static async create(configBase64: string = defaultConfig): Promise<Emulator> {
    return new Emulator(await Executor.create(), configBase64);
  }

  /** Runs one message against a ShardAccount (cell or base64 BoC); an error when the message is not accepted (no transaction). */
  async run(shardAccount: Cell | string, message: Cell, now: number, lt: bigint, randomSeed: Buffer): Promise<Executed | { error: string; exitCode?: number }> {
    const res = await this.executor.runTransaction({
      config: this.configBase64,
      libs: null,
      verbosity: 'short',
      shardAccount: typeof shardAccount === 'string' ? shardAccount : shardAccount.toBoc().toString('base64'),
      message,
      now,
      lt,
      randomSeed,
      ignoreChksig: false,
      debugEnabled: false,
    });
    if (!res.result.success) return { error: res.result.error, exitCode: res.result.vmResults?.vmExitCode };
    return {
      tx: Cell.fromBase64(res.result.transaction),
      shardAccountB64: res.result.shardAccount,
    };
  }
}

export { defaultConfig };
