/**
 * What the engine keeps under `<data dir>/engine/`: its lock, the state it publishes once it listens (ports, pid),
 * the generated password, its configuration, its log, and the marks of the processes using it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface EnginePaths {
  /** `<data dir>`, absolute */
  dataDir: string;
  /** `<data dir>/engine`: readable by the owner only (the password is there) */
  dir: string;
  /** the engine process's lock: one engine per data directory */
  lock: string;
  /** EngineState as JSON, written once the engine listens, removed when it stops */
  state: string;
  /** the password of the engine's users, 64 hex digits */
  secret: string;
  config: string;
  users: string;
  /** what the engine prints (ClickHouse's errors, the engine's own lines) */
  log: string;
  /** one file per process using the engine (src/engine/clients.ts) */
  clients: string;
  /** ClickHouse's files: the same directory the in-process engine of earlier versions wrote */
  clickhouse: string;
}

export function enginePaths(dataDir: string): EnginePaths {
  const abs = resolve(dataDir);
  const dir = join(abs, 'engine');
  return {
    dataDir: abs,
    dir,
    lock: join(dir, 'engine.lock'),
    state: join(dir, 'state.json'),
    secret: join(dir, 'secret'),
    config: join(dir, 'config.xml'),
    users: join(dir, 'users.xml'),
    log: join(dir, 'engine.log'),
    clients: join(dir, 'clients'),
    clickhouse: join(abs, 'clickhouse'),
  };
}

/** What a running engine publishes: where it listens, who it is. */
export interface EngineState {
  pid: number;
  /** the engine process's lock text (pid, start ticks, boot id): tells a live engine from a stale state file */
  owner: string;
  http_port: number;
  tcp_port: number;
  host: string;
  version: string;
  started_at: string;
  /** started by hand (`ton-gateway engine`), not by a client: it runs until a signal, and clients never stop it */
  standalone?: boolean;
}

export function readEngineState(paths: EnginePaths): EngineState | null {
  try {
    const s = JSON.parse(readFileSync(paths.state, 'utf8')) as EngineState;
    return Number.isInteger(s.http_port) && Number.isInteger(s.tcp_port) && typeof s.owner === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function writeEngineState(paths: EnginePaths, state: EngineState): void {
  writePrivate(paths.state, JSON.stringify(state, null, 2) + '\n');
}

/** The engine directory, made readable by its owner only. */
export function ensureEngineDir(paths: EnginePaths): void {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  chmodSync(paths.dir, 0o700);
  mkdirSync(paths.clients, { recursive: true, mode: 0o700 });
}

/** The engine's password: generated once (32 random bytes), then read. */
export function engineSecret(paths: EnginePaths): string {
  try {
    const s = readFileSync(paths.secret, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(s)) return s;
  } catch {
    /* none yet */
  }
  ensureEngineDir(paths);
  const s = randomBytes(32).toString('hex');
  writePrivate(paths.secret, s + '\n');
  return s;
}

/** Written aside, then renamed: a reader sees the old file or the new one, never half of one. Mode 0600. */
export function writePrivate(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}
