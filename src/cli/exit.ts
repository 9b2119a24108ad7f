/**
 * ton-lite-client leaves timers behind that nothing can cancel (a 30 s reconnect after any socket error, each
 * query's timeout), so a long-running command whose cleanup is done would linger half a minute. These end the
 * process with the command's own exit code (process.exitCode, set by bin/ton-gateway.js) instead.
 */

/** Once cleanup is done: exit shortly (output flushed), unless the process ends by itself first. */
export function exitWhenDone(graceMs = 500): void {
  setTimeout(() => process.exit(), graceMs).unref();
}

/** Before cleanup: a guard for cleanup that hangs. */
export function exitIfStuck(ms = 10_000): void {
  setTimeout(() => process.exit(), ms).unref();
}

/**
 * SIGINT / SIGTERM taken from now on: a signal before `onStop` is given (a startup still running) arms exitIfStuck,
 * so a startup that hangs still ends, and calls `onStop` as soon as it is given; one after it calls it at once.
 */
export function takeStopSignal(): { signal: () => NodeJS.Signals | null; onStop: (stop: () => void) => void } {
  let signal: NodeJS.Signals | null = null;
  let stop: (() => void) | null = null;
  const onSignal = (s: NodeJS.Signals) => {
    signal = s;
    if (stop) stop();
    else exitIfStuck();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: () => signal,
    onStop(fn) {
      stop = fn;
      if (signal) fn();
    },
  };
}
