import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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

/**
 * Takes `<dir>/store.lock` holding our pid. chdb runs one engine per data directory per process,
 * so a second process must not open it; a lock left by a dead pid is taken over. Re-entrant
 * inside one process (several clients of the same process share one engine).
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
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
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
    let pid: number;
    try {
      pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    } catch {
      continue; // removed between open and read: retry
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new DataDirLockedError(abs, pid);
    }
    // Stale (dead pid, our own pid from a crashed earlier run, or garbage): take it over.
    try {
      unlinkSync(path);
    } catch {
      /* someone else took it over first; the next open decides */
    }
  }
  throw new Error(`could not lock data directory ${abs}`);
}
