/** Small helpers every floor may use: a size-bounded Map, the package's own files, lock files naming a live process, the table row type. */
export { BoundedMap } from './bounded-map.ts';
export { packagePath, packageRoot } from './package-root.ts';
export { liveHolder, LockedError, lockHeld, ownerAlive, ownLockText, parseLockFile, processStartTicks, removeFile, takeLockFile, type LockOwner } from './process-lock.ts';
export type { Row } from './row.ts';
