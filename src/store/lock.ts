import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Raised when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`data directory ${dir} in use by pid ${pid}`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

const held = new Map<string, { count: number; lock: DataDirLock }>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to another user, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), null without /proc. The
 * command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
 */
export function processStartTicks(pid: number): string | null {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start && /^\d+$/.test(start) ? start : null;
}

function bootId(): string | null {
  return readOr('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

/** What a lock file says about its holder: `pid`, or (since issue 21) `pid start-ticks boot-id`. */
export interface LockOwner {
  pid: number;
  start: string | null;
  boot: string | null;
}

export function parseLockFile(text: string): LockOwner | null {
  const [pid, start, boot] = text.trim().split(/\s+/);
  const n = Number(pid);
  if (!/^\d+$/.test(pid ?? '') || !Number.isSafeInteger(n) || n <= 0) return null;
  return { pid: n, start: start && /^\d+$/.test(start) ? start : null, boot: boot && boot !== '-' ? boot : null };
}

/** Seconds since the epoch at which `pid` started (boot time + start ticks at USER_HZ 100), null without /proc. */
function processStartEpoch(pid: number): number | null {
  const ticks = processStartTicks(pid);
  const btime = /^btime (\d+)$/m.exec(readOr('/proc/stat') ?? '')?.[1];
  return ticks === null || btime === undefined ? null : Number(btime) + Number(ticks) / 100;
}

/**
 * True when the process a lock names still holds it. A pid is reused after a crash (a reboot, or a busy machine),
 * so a live pid is not enough: the lock records the holder's start time and the boot id, and a process that started
 * at another time, or a lock from another boot, is stale. A lock of the older format (the pid alone) is stale when
 * its process started after the lock file was written.
 */
export function lockHeld(owner: LockOwner, lockMtimeMs: number): boolean {
  if (owner.pid === process.pid || !alive(owner.pid)) return false;
  const boot = bootId();
  if (owner.boot !== null && boot !== null && owner.boot !== boot) return false;
  if (owner.start !== null) {
    const now = processStartTicks(owner.pid);
    return now === null || now === owner.start;
  }
  const started = processStartEpoch(owner.pid);
  // two seconds of slack: tick rounding, and a lock written within the process's first moments
  return started === null || started * 1000 <= lockMtimeMs + 2000;
}

/**
 * Takes `<dir>/store.lock` holding our pid, start time and boot id. chdb runs one engine per data directory per
 * process, so a second process must not open it; a lock whose holder is gone (see lockHeld) is taken over.
 * Re-entrant inside one process (several clients of the same process share one engine).
 */
export function lockDataDir(dir: string): DataDirLock {
  const abs = resolve(dir);
  const mine = held.get(abs);
  if (mine) {
    mine.count++;
    return mine.lock;
  }
  mkdirSync(abs, { recursive: true });
  const path = join(abs, 'store.lock');
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // written aside, then linked into place: a reader never sees the lock file empty (and take it for garbage)
      const tmp = `${path}.${process.pid}`;
      writeFileSync(tmp, `${process.pid} ${processStartTicks(process.pid) ?? '-'} ${bootId() ?? '-'}`);
      try {
        linkSync(tmp, path);
      } finally {
        unlinkSync(tmp);
      }
      const onExit = () => {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', onExit);
      const lock: DataDirLock = {
        path,
        release() {
          const entry = held.get(abs);
          if (!entry || --entry.count > 0) return;
          held.delete(abs);
          process.removeListener('exit', onExit);
          onExit();
        },
      };
      held.set(abs, { count: 1, lock });
      return lock;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner: LockOwner | null;
    let mtimeMs: number;
    try {
      owner = parseLockFile(readFileSync(path, 'utf8'));
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      continue; // removed between open and read: retry
    }
    if (owner && lockHeld(owner, mtimeMs)) throw new DataDirLockedError(abs, owner.pid);
    // Stale (dead pid, a pid reused by another process, our own pid from a crashed earlier run, or garbage): take it over.
    try {
      unlinkSync(path);
    } catch {
      /* someone else took it over first; the next open decides */
    }
  }
  throw new Error(`could not lock data directory ${abs}`);
}
