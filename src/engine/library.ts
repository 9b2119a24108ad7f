/**
 * The engine library: `libchdb.so` of the `@chdb/lib-linux-x64-gnu` package (ClickHouse built as a library), called
 * through `chdb_query_cmdline`, clickhouse-local's command line, which alone can start ClickHouse's HTTP and native
 * servers (a chdb connection refuses SYSTEM START LISTEN: no start_servers_callback). Called through ffi-rs on a
 * native thread of its own: ClickHouse checks each frame against its thread's pthread stack, and an FFI that runs
 * calls on a stack of its own (koffi) fails every statement with TOO_DEEP_RECURSION.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Raised when this platform has no engine library (only linux-x64 glibc is published). */
export class NoEngineLibraryError extends Error {
  constructor(detail: string) {
    super(`no embedded ClickHouse engine for ${process.platform}-${process.arch} (${detail}): set CLICKHOUSE_URL to a ClickHouse server`);
    this.name = 'NoEngineLibraryError';
  }
}

/** The path of libchdb.so, or NoEngineLibraryError. */
export function engineLibraryPath(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve('@chdb/lib-linux-x64-gnu/package.json')), 'libchdb.so');
  } catch {
    throw new NoEngineLibraryError('the optional package @chdb/lib-linux-x64-gnu is not installed');
  }
}

/**
 * Runs clickhouse-local's command line `args` (argv[0] included) in the library and resolves when it returns: its
 * error text, or null. The engine's servers run while it does.
 */
export async function runCommandLine(libraryPath: string, args: readonly string[]): Promise<string | null> {
  let ffi: typeof import('ffi-rs');
  try {
    ffi = await import('ffi-rs');
  } catch (err) {
    throw new NoEngineLibraryError(`ffi-rs does not load: ${(err as Error).message.split('\n')[0]}`);
  }
  const { DataType, load, open } = ffi;
  open({ library: 'chdb', path: libraryPath });
  const result = await load({
    library: 'chdb',
    funcName: 'chdb_query_cmdline',
    retType: DataType.External,
    paramsType: [DataType.I32, DataType.StringArray],
    paramsValue: [args.length, [...args]],
    runInNewThread: true,
  });
  if (ffi.isNullPointer(result)) return 'the engine returned no result';
  const errorOf = <T extends typeof DataType.External | typeof DataType.String>(retType: T) =>
    load({ library: 'chdb', funcName: 'chdb_result_error', retType, paramsType: [DataType.External], paramsValue: [result] });
  // read as a string only when there is one: ffi-rs reads a null char* as a string and crashes
  if (ffi.isNullPointer(errorOf(DataType.External) as import('ffi-rs').JsExternal)) return null;
  return (errorOf(DataType.String) as string) || null;
}
