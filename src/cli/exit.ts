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
