/**
 * CPU time the hypervisor gave to other guests (`steal` in /proc/stat), summed over all CPUs, in seconds.
 * On a shared VM the same code can run up to 2x slower when steal is high, so the benches print it next to
 * their figures. Null where /proc/stat is missing (not Linux).
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc/stat counts in 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

export function stealSeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu '));
    const steal = line?.trim().split(/\s+/)[8];
    return steal === undefined ? null : Number(steal) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Steal since `from` (a stealSeconds() reading), as text for a report: "12.3 s" or "n/a". */
export function stealSince(from: number | null): string {
  const now = stealSeconds();
  return from === null || now === null ? 'n/a' : `${(now - from).toFixed(1)} s`;
}
