/** CPU seconds (user + system) of a process so far, from /proc/PID/stat (this process: process.cpuUsage()); NaN where it cannot be read. */
import { readFileSync } from 'node:fs';

export function processCpuSeconds(pid: number): number {
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
  try {
    // fields after the command's closing parenthesis: utime is the 12th, stime the 13th (in USER_HZ, 1/100 s)
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}
