/**
 * @ton/core hashes every cell it parses or builds with @ton/crypto's `sha256_sync`. That function
 * hex-encodes its input and hashes the hex with jssha, in pure JS. In bench:ingest it took about 1 s of
 * the JS thread per 20k transactions: the classifier's and the entity readers' `Cell.fromBoc`, and the
 * TVM's cells. This swaps in node:crypto's SHA-256 with the same contract (Buffer or UTF-8 string in,
 * 32-byte Buffer out). It replaces the export of the module @ton/core itself loads, which @ton/crypto's
 * index re-exports through a getter. Nothing changes when that module is not found.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

type Sha256Sync = (source: Buffer | string) => Buffer;

export function nativeSha256Sync(source: Buffer | string): Buffer {
  return createHash('sha256').update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source).digest();
}

/** The `@ton/crypto` sha256 module @ton/core resolves, or null. */
export function tonCryptoSha256Module(): { sha256_sync: Sha256Sync } | null {
  try {
    const fromCore = createRequire(createRequire(import.meta.url).resolve('@ton/core'));
    const mod = fromCore('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync?: unknown };
    return typeof mod.sha256_sync === 'function' ? (mod as { sha256_sync: Sha256Sync }) : null;
  } catch {
    return null;
  }
}

let installed: boolean | null = null;

/** Installs once per process; true when @ton/core's sha256 module was found. */
export function installNativeTonCoreSha256(): boolean {
  if (installed !== null) return installed;
  const mod = tonCryptoSha256Module();
  if (mod) mod.sha256_sync = nativeSha256Sync;
  installed = mod !== null;
  return installed;
}

installNativeTonCoreSha256();
