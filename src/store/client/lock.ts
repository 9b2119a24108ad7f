import { join, resolve } from 'node:path';
import { LockedError, removeFile, takeLockFile } from '../../util/index.ts';

/** Raised when another live process writes the data directory. */
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

/**
 * Takes `<dir>/store.lock`, naming this process as the directory's one writer: the engine runs statements from any
 * number of processes, but the key-value store beside it (src/kv) has one writer, and so do the traces stage's state
 * and the ingest checkpoint. Readers (`sql`, `status`, `serve`, API workers) take no lock. A lock whose holder is gone
 * (src/util/process-lock.ts) is taken over. Re-entrant inside one process (several clients of one process).
 */
export function lockDataDir(dir: string): DataDirLock {
  const abs = resolve(dir);
  const mine = held.get(abs);
  if (mine) {
    mine.count++;
    return mine.lock;
  }
  const path = join(abs, 'store.lock');
  try {
    takeLockFile(path);
  } catch (err) {
    if (err instanceof LockedError) throw new DataDirLockedError(abs, err.pid);
    throw err;
  }
  const onExit = () => removeFile(path);
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
}
