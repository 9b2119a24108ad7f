/** Ed25519 key pairs from 32-byte seeds with node's native crypto (same keys as tweetnacl's keyPairFromSeed). */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyPair } from '@ton/crypto';

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** secretKey is tweetnacl's 64-byte form (seed || public key), as @ton/crypto's sign expects. */
export function keyPairFromSeed(seed: Buffer): KeyPair {
  if (seed.length !== 32) throw new Error(`an ed25519 seed is 32 bytes, got ${seed.length}`);
  const priv = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  const publicKey = Buffer.from(spki.subarray(spki.length - 32));
  return { publicKey, secretKey: Buffer.concat([seed, publicKey]) };
}
