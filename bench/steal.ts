/**
 * CPU time the hypervisor gave to other guests (`steal` in /proc/stat), summed over all CPUs, in seconds.
 * On a shared VM the same code can run up to 2x slower when steal is high, so the benches print it next to
 * their figures. Null where /proc/stat is missing (not Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * CPU seconds of this process's threads by thread name (/proc/self/task/*): the JS thread; V8's GC helpers and
 * libuv's pool (where chdb's statements start: its calls are async N-API work); chdb's engine threads. Names are
 * grouped by their text before a trailing number. Null where /proc is missing.
 */
export function threadCpuSeconds(): Map<string, number> | null {
  try {
    const out = new Map<string, number>();
    for (const tid of readdirSync('/proc/self/task')) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      } catch {
        continue; // the thread ended between the listing and the read
      }
      // `pid (comm) state ...`: comm may hold spaces and parentheses, so split at the last ')'
      const close = stat.lastIndexOf(')');
      // the JS thread is the one whose id is the process's; V8's and libuv's helper threads share its name
      const comm = stat.slice(stat.indexOf('(') + 1, close).replace(/[\s_-]*\d+$/, '');
      const name = Number(tid) === process.pid ? 'JS thread' : comm === 'node' ? 'node helpers (V8 GC, libuv pool)' : comm;
      const f = stat.slice(close + 2).split(' ');
      const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
      out.set(name, (out.get(name) ?? 0) + ticks / TICKS_PER_SECOND);
    }
    return out;
  } catch {
    return null;
  }
}

/** Thread CPU between two threadCpuSeconds() readings, largest first, as text ("JS thread 61.2 s, QueryPipelineEx 20.1 s, ..."). */
export function threadCpuSince(from: Map<string, number> | null, top = 8): string {
  const now = threadCpuSeconds();
  if (!from || !now) return 'n/a';
  // threads that ended during the run are gone from the second reading: their time is not counted
  const d = [...now].map(([k, v]) => [k, v - (from.get(k) ?? 0)] as const).filter(([, v]) => v >= 0.05);
  return d.sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ');
}
