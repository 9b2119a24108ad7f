/** A devnet directory that keeps growing while it is served, and resumes where it stopped (`ton-gateway demo`). */
export { LiveDevnetDir, LiveDirError, type LiveDirOptions } from './live-dir.ts';
