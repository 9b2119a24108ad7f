/**
 * The embedded ClickHouse engine: one process per data directory serving ClickHouse's HTTP and native protocols on
 * loopback (run.ts), found or started by every process that opens the directory's store (supervisor.ts).
 */
export { ENGINE_USERS } from './config.ts';
export { enginePaths, readEngineState, type EnginePaths, type EngineState } from './layout.ts';
export { NoEngineLibraryError } from './library.ts';
export { PortTakenError } from './ports.ts';
export { ENGINE_EXIT, runEngine, type RunEngineOptions } from './run.ts';
export { EngineLease, EngineUnavailableError, type EngineEndpoint, type LeaseOptions } from './supervisor.ts';
