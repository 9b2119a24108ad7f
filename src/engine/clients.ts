/**
 * The processes using an engine. Each writes `<data dir>/engine/clients/<pid>` (its pid, start time and boot id) while
 * it has a store open on the directory, and removes it when it closes the last one. The engine runs while one of them
 * lives: it stops when the last one removed its mark, or died without doing so (kill -9: a mark whose process is gone
 * is stale, src/util/process-lock.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { liveHolder, ownLockText, removeFile } from '../util/index.ts';
import { ensureEngineDir, writePrivate, type EnginePaths } from './layout.ts';

const marks = new Map<string, { count: number; path: string; onExit: () => void }>();

/** Marks this process as using the engine of `paths` (re-entrant: one mark, counted). */
export function markClient(paths: EnginePaths): void {
  const mine = marks.get(paths.dir);
  if (mine) {
    mine.count++;
    return;
  }
  ensureEngineDir(paths);
  const path = join(paths.clients, String(process.pid));
  writePrivate(path, ownLockText());
  const onExit = () => removeFile(path);
  process.once('exit', onExit);
  marks.set(paths.dir, { count: 1, path, onExit });
}

/** Ends one use; the mark goes with the last. Returns whether this process no longer uses the engine. */
export function unmarkClient(paths: EnginePaths): boolean {
  const mine = marks.get(paths.dir);
  if (!mine) return true;
  if (--mine.count > 0) return false;
  marks.delete(paths.dir);
  process.removeListener('exit', mine.onExit);
  mine.onExit();
  return true;
}

/** The pids of the live processes using the engine (stale marks are removed); `except` is left out. */
export function liveClients(paths: EnginePaths, except?: number): number[] {
  let names: string[];
  try {
    names = readdirSync(paths.clients);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const path = join(paths.clients, name);
    const holder = liveHolder(path);
    if (holder === null) {
      removeFile(path);
      continue;
    }
    if (holder.pid !== except) out.push(holder.pid);
  }
  return out;
}
