/**
 * Get-method runner: the TVM emulator of @ton/sandbox (`Executor`), as tonlib runs get-methods locally
 * against an account state fetched from a liteserver.
 */
import { Address, beginCell, Cell, Dictionary, parseTuple, type TupleItem } from '@ton/core';
import { Executor } from '@ton/sandbox';
import '../format/ton-core-sha256.ts'; // native SHA-256 under @ton/core's cell hashing
import { methodIdOf } from './method-id.ts';

let executorPromise: Promise<Executor> | null = null;

/** One emulator per process: the WASM module takes a while to instantiate. */
export function getExecutor(): Promise<Executor> {
  if (!executorPromise) {
    executorPromise = Executor.create().catch((e) => {
      executorPromise = null;
      throw e;
    });
  }
  return executorPromise;
}

export interface RunGetMethodInput {
  code: Cell;
  data: Cell;
  address: Address;
  /** nanotons */
  balance: bigint;
  /** Blockchain config: the ConfigParams dictionary cell (as liteServer.getConfigAll returns it). */
  config: Cell;
  /** Library cells by hash (lower-case hex) known up front. */
  libs?: Map<string, Cell>;
  /** Called with the hash (hex) of a library the code needs and that `libs` lacks. */
  loadLibrary?: (hashHex: string) => Promise<Cell | null>;
  /** unix time seen by the contract (NOW). */
  now: number;
  method: string | number;
  stack: TupleItem[];
  gasLimit?: bigint;
  randomSeed?: Buffer;
}

export interface RunGetMethodOutput {
  exitCode: number;
  gasUsed: bigint;
  stack: TupleItem[];
  vmLog: string;
}

export class TvmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TvmError';
  }
}

function libsCell(libs: Map<string, Cell>): Cell | undefined {
  if (libs.size === 0) return undefined;
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [hash, cell] of libs) dict.set(Buffer.from(hash, 'hex'), cell);
  return beginCell().storeDictDirect(dict).endCell();
}

/**
 * Runs `fn` on the shared emulator. A failure inside its WebAssembly (a bare number thrown as a C++ exception, or a
 * trap) leaves that instance unusable for every later call, so it is dropped and the next call instantiates anew.
 */
// WebAssembly's globals are not in the ES2022 lib this project compiles against
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } }).WebAssembly.RuntimeError;

export async function withExecutor<T>(what: string, fn: (executor: Executor) => Promise<T>): Promise<T> {
  const current = getExecutor();
  const executor = await current;
  try {
    return await fn(executor);
  } catch (e) {
    if (e instanceof Error && !(e instanceof WasmRuntimeError)) throw e;
    if (executorPromise === current) executorPromise = null;
    throw new TvmError(`the emulator failed inside its WebAssembly (${e instanceof Error ? e.message : String(e)}) ${what}`);
  }
}

export function runGetMethod(input: RunGetMethodInput): Promise<RunGetMethodOutput> {
  return withExecutor(`running ${String(input.method)}`, (executor) => runOn(executor, input));
}

async function runOn(executor: Executor, input: RunGetMethodInput): Promise<RunGetMethodOutput> {
  const libs = new Map(input.libs ?? []);
  const methodId = methodIdOf(input.method);
  const config = input.config.toBoc().toString('base64');
  // A library the code references is loaded and the run repeated, at most a few times.
  for (let attempt = 0; attempt < 8; attempt++) {
    const res = await executor.runGetMethod({
      code: input.code,
      data: input.data,
      methodId,
      stack: input.stack,
      config,
      verbosity: 'short',
      libs: libsCell(libs),
      address: input.address,
      unixTime: input.now,
      balance: input.balance,
      randomSeed: input.randomSeed ?? Buffer.alloc(32),
      gasLimit: input.gasLimit ?? 10_000_000n,
      debugEnabled: false,
    });
    if (!res.output.success) throw new TvmError(`emulator error: ${res.output.error}`);
    const missing = res.output.missing_library;
    if (missing && input.loadLibrary && !libs.has(missing.toLowerCase())) {
      const lib = await input.loadLibrary(missing.toLowerCase());
      if (lib) {
        libs.set(missing.toLowerCase(), lib);
        continue;
      }
    }
    let stack: TupleItem[] = [];
    if (res.output.stack) {
      try {
        stack = parseTuple(Cell.fromBase64(res.output.stack));
      } catch {
        stack = [];
      }
    }
    return { exitCode: res.output.vm_exit_code, gasUsed: BigInt(res.output.gas_used), stack, vmLog: res.output.vm_log };
  }
  throw new TvmError('too many missing libraries while running the get-method');
}
