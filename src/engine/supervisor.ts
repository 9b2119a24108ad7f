/**
 * The client side of the engine: a process that opens a data directory's store takes a lease on its engine. The
 * lease finds the running engine (state.json, a live holder of engine.lock, an answer with the password), or starts
 * one (`ton-gateway engine --data DIR`, detached: a Ctrl-C of the terminal reaches the gateway, which flushes, not the
 * engine under it) and waits until it answers. After a failed statement, `recover` does the same again: the engine
 * that died is started anew, on the same ports when they are free. `release` ends the lease; the last process to
 * release stops the engine and waits for it to be gone (a container's main process exits only after its engine).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { liveHolder, packagePath } from '../util/index.ts';
import { liveClients, markClient, unmarkClient } from './clients.ts';
import { engineAnswers, engineUrl } from './http.ts';
import { enginePaths, readEngineState, type EnginePaths, type EngineState } from './layout.ts';
import { engineLibraryPath } from './library.ts';
import { ENGINE_EXIT } from './run.ts';

/** Where an engine answers, and with which password. */
export interface EngineEndpoint {
  url: string;
  host: string;
  httpPort: number;
  tcpPort: number;
  pid: number;
  version: string;
  /** the password of the engine's users (`gateway`, `reader`) */
  secret: string;
  /** started by hand (`ton-gateway engine`): clients never stop it */
  standalone: boolean;
}

/** Raised when no engine answers on a data directory and none could be started. */
export class EngineUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}

export interface LeaseOptions {
  /** Ports for an engine this lease starts (else free ones; ignored when one runs already). */
  ports?: { http?: number; tcp?: number };
  /** How long to wait for an engine to answer (default 5 minutes: a large store loads its parts first). */
  timeoutMs?: number;
  /** Lines about an engine that died and was started anew. */
  log?: (line: string) => void;
}

const LOG_MAX_BYTES = 8 << 20;
const RESPAWNS = 5;

function endpointOf(state: EngineState, secret: string): EngineEndpoint {
  return {
    url: engineUrl({ host: state.host, httpPort: state.http_port }),
    host: state.host,
    httpPort: state.http_port,
    tcpPort: state.tcp_port,
    pid: state.pid,
    version: state.version,
    secret,
    standalone: state.standalone === true,
  };
}

function readSecret(paths: EnginePaths): string | null {
  try {
    const s = readFileSync(paths.secret, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(s) ? s : null;
  } catch {
    return null;
  }
}

/** The engine running on `paths` and answering, or null. */
async function runningEngine(paths: EnginePaths): Promise<EngineEndpoint | null> {
  const state = readEngineState(paths);
  if (!state) return null;
  const holder = liveHolder(paths.lock);
  const secret = readSecret(paths);
  if (!holder || holder.pid !== state.pid || !secret) return null;
  const ep = endpointOf(state, secret);
  return (await engineAnswers({ host: ep.host, httpPort: ep.httpPort }, secret)) ? ep : null;
}

/** The last lines of the engine's log, for an error that says why it did not start. */
function logTail(paths: EnginePaths): string {
  try {
    const lines = readFileSync(paths.log, 'utf8').trim().split('\n');
    return lines.slice(-3).join(' | ');
  } catch {
    return 'no log';
  }
}

interface Spawned {
  pid: number;
  /** the engine process's exit code once it exited (null: by a signal) */
  exit: number | null | undefined;
}

function spawnEngine(paths: EnginePaths, ports?: LeaseOptions['ports']): Spawned {
  try {
    if (statSync(paths.log).size > LOG_MAX_BYTES) truncateSync(paths.log, 0);
  } catch {
    /* no log yet */
  }
  const fd = openSync(paths.log, 'a', 0o600);
  const args = [packagePath('bin', 'ton-gateway.js'), 'engine', '--data', paths.dataDir, '--for-clients'];
  if (ports?.http !== undefined) args.push('--http-port', String(ports.http));
  if (ports?.tcp !== undefined) args.push('--tcp-port', String(ports.tcp));
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', fd, fd], env: process.env });
  closeSync(fd);
  const out: Spawned = { pid: child.pid ?? 0, exit: undefined };
  child.once('exit', (code) => (out.exit = code));
  child.once('error', () => (out.exit = ENGINE_EXIT.failed));
  child.unref();
  return out;
}

/** Finds the running engine, else starts one, and resolves once it answers. */
async function connect(paths: EnginePaths, opts: LeaseOptions): Promise<EngineEndpoint> {
  const deadline = Date.now() + (opts.timeoutMs ?? 300_000);
  let child: Spawned | null = null;
  let spawns = 0;
  for (;;) {
    const ep = await runningEngine(paths);
    if (ep) return ep;
    if (child && child.exit !== undefined) {
      const code = child.exit;
      child = null;
      // another process's engine took the lock first: wait for it to answer
      if (code === ENGINE_EXIT.alreadyRunning) continue;
      const explicit = opts.ports?.http !== undefined || opts.ports?.tcp !== undefined;
      if (code !== ENGINE_EXIT.portTaken || explicit || spawns >= RESPAWNS) {
        throw new EngineUnavailableError(`the engine of ${paths.dataDir} did not start (exit ${code ?? 'by a signal'}): ${logTail(paths)} (log: ${paths.log})`);
      }
    }
    if (Date.now() > deadline) throw new EngineUnavailableError(`no engine answers on ${paths.dataDir} after ${Math.round((opts.timeoutMs ?? 300_000) / 1000)} s (log: ${paths.log})`);
    // no engine holds the directory (none ran, or it died): start one; a live holder is starting or stopping
    if (!child && liveHolder(paths.lock) === null) {
      // this platform has no engine library: say so at once, not after a process that cannot start
      engineLibraryPath();
      child = spawnEngine(paths, opts.ports);
      spawns++;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A process's use of the engine of one data directory. */
export class EngineLease {
  private recovering: Promise<EngineEndpoint> | null = null;
  private released = false;

  private constructor(
    readonly paths: EnginePaths,
    private readonly opts: LeaseOptions,
    private current: EngineEndpoint,
  ) {}

  /** Marks this process as a client (before anything else: a new engine stops when it has none), then connects. */
  static async acquire(dataDir: string, opts: LeaseOptions = {}): Promise<EngineLease> {
    const paths = enginePaths(dataDir);
    markClient(paths);
    try {
      return new EngineLease(paths, opts, await connect(paths, opts));
    } catch (err) {
      unmarkClient(paths);
      throw err;
    }
  }

  get endpoint(): EngineEndpoint {
    return this.current;
  }

  /**
   * After a statement failed for want of an engine: the engine running now (started anew if it died). Concurrent
   * callers share one recovery.
   */
  recover(): Promise<EngineEndpoint> {
    this.recovering ??= (async () => {
      try {
        const before = this.current.pid;
        this.current = await connect(this.paths, { ...this.opts, log: undefined });
        if (this.current.pid !== before) this.opts.log?.(`the engine of ${this.paths.dataDir} (pid ${before}) is gone; now pid ${this.current.pid} (HTTP ${this.current.host}:${this.current.httpPort})`);
        return this.current;
      } finally {
        this.recovering = null;
      }
    })();
    return this.recovering;
  }

  /** Ends this use. The last process using an engine it did not start by hand stops it and waits until it is gone. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (!unmarkClient(this.paths) || liveClients(this.paths).length > 0) return;
    const state = readEngineState(this.paths);
    if (state?.standalone) return;
    const holder = liveHolder(this.paths.lock);
    if (!holder) return;
    try {
      process.kill(holder.pid, 'SIGTERM');
    } catch {
      return;
    }
    const until = Date.now() + 40_000;
    while (liveHolder(this.paths.lock) !== null && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }
}
