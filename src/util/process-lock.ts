/**
 * Files that name a live process: a lock held by one process (the data directory's writer, the engine of a data
 * directory) and the marks of the processes using an engine. Each records the process's pid, its start time and the
 * boot id, so that a file left by a crash is recognised as stale even when its pid now belongs to another process.
 */
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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

/** This process as a lock file records it. */
export function ownLockText(): string {
  return `${process.pid} ${processStartTicks(process.pid) ?? '-'} ${bootId() ?? '-'}`;
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
 * True when the process a lock names is still the one that wrote it (another than this one). A pid is reused after a
 * crash (a reboot, or a busy machine), so a live pid is not enough: a process that started at another time, or a lock
 * from another boot, is stale. A lock of the older format (the pid alone) is stale when its process started after the
 * lock file was written.
 */
export function lockHeld(owner: LockOwner, lockMtimeMs: number): boolean {
  if (owner.pid === process.pid || !alive(owner.pid)) return false;
  return ownerAlive(owner, lockMtimeMs);
}

/** Whether the process a lock names (this one included) still runs: lockHeld without the exception for ourselves. */
export function ownerAlive(owner: LockOwner, lockMtimeMs: number): boolean {
  if (owner.pid !== process.pid && !alive(owner.pid)) return false;
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

/** The live holder a lock file names, null when the file is missing, garbage or stale (see lockHeld). */
export function liveHolder(path: string): LockOwner | null {
  try {
    const owner = parseLockFile(readFileSync(path, 'utf8'));
    return owner && ownerAlive(owner, statSync(path).mtimeMs) ? owner : null;
  } catch {
    return null;
  }
}

/** Raised when another live process holds a lock file. */
export class LockedError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(`${path} is held by pid ${pid}`);
    this.name = 'LockedError';
  }
}

/**
 * Creates `path` naming this process, or takes over a stale one. Written aside, then linked into place: a reader
 * never sees the file empty (and takes it for garbage). Throws LockedError while another live process holds it.
 */
export function takeLockFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const tmp = `${path}.${process.pid}`;
      writeFileSync(tmp, ownLockText());
      try {
        linkSync(tmp, path);
      } finally {
        unlinkSync(tmp);
      }
      return;
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
    if (owner && lockHeld(owner, mtimeMs)) throw new LockedError(path, owner.pid);
    // Stale (dead pid, a pid reused by another process, our own pid from a crashed earlier run, or garbage): take it over.
    removeFile(path);
  }
  throw new Error(`could not take ${path}`);
}

/** Removes a file that may already be gone. */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}
