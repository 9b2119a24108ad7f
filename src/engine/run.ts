/**
 * The engine process (`ton-gateway engine`): ClickHouse over one data directory, serving its HTTP and native
 * protocols on loopback, for every process of the gateway that opens the directory's store.
 *
 * Lifecycle. One engine per data directory (`engine/engine.lock`). It listens, checks that it answers, then publishes
 * `engine/state.json` (ports, pid): clients find it there. Started by a client (src/engine/supervisor.ts) it runs while
 * a process uses it (`engine/clients/`, src/engine/clients.ts) and stops a moment after the last one is gone, killed
 * ones included; on SIGTERM it waits for its clients to finish (at most STOP_WAIT_MS) and stops. Started by hand
 * (`standalone`), it runs until SIGTERM or SIGINT. Stopping ends the statement that keeps the engine alive, and
 * clickhouse-local shuts down as it does at the end of a command line; every insert it acknowledged is already on
 * disk (MergeTree writes a part before it answers).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LockedError, ownLockText, packagePath, removeFile, takeLockFile } from '../util/index.ts';
import { liveClients } from './clients.ts';
import { configXml, innerConfig, KEEP_ALIVE, STARTUP_STATEMENTS, usersXml } from './config.ts';
import { engineAnswers, engineStatement } from './http.ts';
import { engineLibraryPath, runCommandLine } from './library.ts';
import { engineSecret, ensureEngineDir, enginePaths, readEngineState, writeEngineState, writePrivate, type EnginePaths, type EngineState } from './layout.ts';
import { startNativeGate } from './native-gate.ts';
import { choosePorts, freePort } from './ports.ts';
import { ENGINE_USERS } from './config.ts';

/** Exit codes a spawning client reads (supervisor.ts). */
export const ENGINE_EXIT = { ok: 0, failed: 1, alreadyRunning: 3, portTaken: 4 } as const;

/** How long a stopping engine waits for its clients to go (they flush their writes first). */
export const STOP_WAIT_MS = 10_000;
/** How often the engine looks for its clients, and how many looks in a row must find none before it stops. */
const WATCH_MS = 500;
const IDLE_LOOKS = 3;
/** How long the engine may take to answer after it started listening (a large store loads its parts first). */
const READY_TIMEOUT_MS = 300_000;

export interface RunEngineOptions {
  dataDir: string;
  httpPort?: number;
  tcpPort?: number;
  /** Runs until a signal (by hand) rather than while clients use it (started by a client). */
  standalone: boolean;
  log: (line: string) => void;
}

const HOST = '127.0.0.1';

/** clickhouse-local running: where it answers, the statement that keeps it alive, and how it ended (once it has). */
interface EngineProcess {
  address: { host: string; httpPort: number };
  secret: string;
  keepAliveId: string;
  /** the engine's end: its error, or null */
  running: Promise<string | null>;
  /** undefined while it runs */
  ended: string | null | undefined;
}

/** Runs the engine until it stops; resolves with the process's exit code. */
export async function runEngine(o: RunEngineOptions): Promise<number> {
  const paths = enginePaths(o.dataDir);
  ensureEngineDir(paths);
  try {
    takeLockFile(paths.lock);
  } catch (err) {
    if (err instanceof LockedError) {
      o.log(`an engine already runs on ${paths.dataDir} (pid ${err.pid})`);
      return ENGINE_EXIT.alreadyRunning;
    }
    throw err;
  }
  process.once('exit', () => removeFile(paths.lock));
  const { previous, secret } = prepareEngineDir(paths);

  let ports: { http: number; tcp: number };
  try {
    ports = await choosePorts({ host: HOST, http: o.httpPort, tcp: o.tcpPort, previous: previous ? { http: previous.http_port, tcp: previous.tcp_port } : undefined });
  } catch (err) {
    o.log((err as Error).message);
    return ENGINE_EXIT.portTaken;
  }
  // ClickHouse's own native listener, behind the gate tools connect to (native-gate.ts)
  let internalTcp = await freePort(HOST);
  while (internalTcp === ports.http || internalTcp === ports.tcp) internalTcp = await freePort(HOST);
  const engine = launchEngine(paths.clickhouse, paths.config, secret, ports.http, internalTcp);
  const notReady = await untilAnswers(o, engine);
  if (notReady !== null) return notReady;
  const version = (await engineStatement(engine.address, secret, 'SELECT version()')).trim();
  let gate;
  try {
    gate = await startNativeGate({ host: HOST, port: ports.tcp, enginePort: internalTcp, users: new Map([[ENGINE_USERS.writer, secret], [ENGINE_USERS.reader, secret]]) });
  } catch (err) {
    o.log(`the native protocol's port ${HOST}:${ports.tcp} cannot be listened on: ${(err as Error).message}`);
    await stopEngine(o, engine);
    return ENGINE_EXIT.portTaken;
  }
  const state: EngineState = { pid: process.pid, owner: ownLockText(), http_port: ports.http, tcp_port: ports.tcp, host: HOST, version, started_at: new Date().toISOString(), standalone: o.standalone };
  writeEngineState(paths, state);
  o.log(`engine ${version} on ${paths.dataDir}: HTTP ${HOST}:${ports.http}, native ${HOST}:${ports.tcp} (pid ${process.pid})`);

  const { why, signalled } = await untilStop(o, paths, state, engine);
  if (engine.ended !== undefined) {
    o.log(`the engine ended: ${(engine.ended ?? 'no error').split('\n')[0]}`);
    removeFile(paths.state);
    return ENGINE_EXIT.failed;
  }
  // a signal while clients still write: they flush first (their own stop has a deadline shorter than this)
  if (signalled && !o.standalone) {
    const until = Date.now() + STOP_WAIT_MS;
    while (liveClients(paths).length > 0 && Date.now() < until) await sleep(100);
  }
  o.log(`stopping (${why})`);
  removeFile(paths.state);
  gate.close();
  await stopEngine(o, engine);
  return ENGINE_EXIT.ok;
}

/** The state an earlier engine left (its ports are tried first), and the configuration this one runs with. */
function prepareEngineDir(paths: EnginePaths): { previous: EngineState | null; secret: string } {
  const previous = readEngineState(paths);
  removeFile(paths.state);
  const secret = engineSecret(paths);
  writePrivate(paths.users, usersXml(secret));
  writePrivate(paths.config, configXml({ usersPath: paths.users, serverOptions: innerConfig(readFileSync(packagePath('clickhouse', 'rocksdb.xml'), 'utf8')) }));
  // the in-process engine of earlier versions staged its inserts here; what a crash left is garbage
  rmSync(join(paths.clickhouse, 'insert-staging'), { recursive: true, force: true });
  return { previous, secret };
}

/** Starts clickhouse-local listening on loopback, kept alive by a statement that runs until stopEngine kills it. */
function launchEngine(clickhouseDir: string, configPath: string, secret: string, httpPort: number, internalTcp: number): EngineProcess {
  const keepAliveId = `ton-gateway-engine-${randomUUID()}`;
  const args = [
    'clickhouse',
    `--path=${clickhouseDir}/`,
    `--config-file=${configPath}`,
    `--listen_host=${HOST}`,
    `--http_port=${httpPort}`,
    `--tcp_port=${internalTcp}`,
    `--query_id=${keepAliveId}`,
    '--multiquery',
    `--query=${STARTUP_STATEMENTS.join('; ')}; ${KEEP_ALIVE}`,
  ];
  const engine: EngineProcess = { address: { host: HOST, httpPort }, secret, keepAliveId, running: Promise.resolve(null), ended: undefined };
  engine.running = runCommandLine(engineLibraryPath(), args).then((err) => (engine.ended = err));
  return engine;
}

/** Waits until the engine listens and answers with our password: null, or the exit code when it never does. */
async function untilAnswers(o: RunEngineOptions, engine: EngineProcess): Promise<number | null> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await engineAnswers(engine.address, engine.secret))) {
    if (engine.ended !== undefined) {
      const why = engine.ended ?? 'the engine stopped before it answered';
      o.log(`the engine did not start: ${why.split('\n')[0]}`);
      // a port taken between the check and the listen: the spawning client tries again with others
      return /Address already in use/.test(why) && o.httpPort === undefined && o.tcpPort === undefined ? ENGINE_EXIT.portTaken : ENGINE_EXIT.failed;
    }
    if (Date.now() > deadline) {
      o.log(`the engine did not answer within ${READY_TIMEOUT_MS / 1000} s`);
      return ENGINE_EXIT.failed;
    }
    await sleep(50);
  }
  return null;
}

/** Until a signal, the end of the engine, or (started by a client) no client left: why, and whether a signal. */
async function untilStop(o: RunEngineOptions, paths: EnginePaths, state: EngineState, engine: EngineProcess): Promise<{ why: string; signalled: boolean }> {
  let signalled = false;
  const stopReason = new Promise<string>((resolve) => {
    const onSignal = (sig: NodeJS.Signals) => {
      signalled = true;
      resolve(sig);
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    void engine.running.then(() => resolve('the engine ended'));
  });
  let why: string;
  for (;;) {
    let watch: ReturnType<typeof setInterval> | undefined;
    const idle = o.standalone
      ? new Promise<never>(() => undefined)
      : new Promise<string>((resolve) => {
          let looks = 0;
          watch = setInterval(() => {
            looks = liveClients(paths).length === 0 ? looks + 1 : 0;
            if (looks >= IDLE_LOOKS) resolve('no process uses it');
          }, WATCH_MS);
        });
    why = await Promise.race([stopReason, idle]);
    clearInterval(watch);
    if (signalled || engine.ended !== undefined) break;
    // No client left. A client marks itself before it reads the state: with the state gone, one that came meanwhile
    // is seen now, and one that comes later finds no state and starts an engine of its own once this one is gone.
    removeFile(paths.state);
    if (liveClients(paths).length === 0) break;
    writeEngineState(paths, state);
  }
  return { why, signalled };
}

/** Ends the statement that keeps the engine alive and waits for clickhouse-local to shut down. */
async function stopEngine(o: RunEngineOptions, engine: EngineProcess): Promise<void> {
  try {
    await engineStatement(engine.address, engine.secret, `KILL QUERY WHERE query_id = '${engine.keepAliveId}' SYNC`, 15_000);
  } catch (err) {
    o.log(`could not end the engine's session: ${(err as Error).message}`);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopped = await Promise.race([engine.running.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), 30_000)))]);
  clearTimeout(timer);
  if (!stopped) {
    o.log('the engine did not shut down within 30 s; killing it');
    process.kill(process.pid, 'SIGKILL');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
