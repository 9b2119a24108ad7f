/**
 * Server keys: an ed25519 key pair from a 32-byte seed, its ADNL key id, and the x25519 shared secret
 * with a client's ed25519 public key (as ADNL does: both keys mapped to Curve25519).
 */
import { createHash, createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';

const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const X25519_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI = Buffer.from('302a300506032b656e032100', 'hex');
const P = 2n ** 255n - 19n;

export interface ServerKey {
  /** 32-byte ed25519 seed (the private key as stored in liteserver.key). */
  seed: Buffer;
  publicKey: Buffer;
  /** sha256 of TL `pub.ed25519 key:int256`: what clients put first in the handshake. */
  keyId: Buffer;
}

export function serverKeyFromSeed(seed: Buffer): ServerKey {
  if (seed.length !== 32) throw new Error(`an ed25519 seed is 32 bytes, got ${seed.length}`);
  const priv = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  const publicKey = Buffer.from(spki.subarray(spki.length - 32));
  return { seed, publicKey, keyId: adnlKeyId(publicKey) };
}

/** Deterministic seed from a text seed (same text, same key). */
export function seedFromText(text: string): Buffer {
  return createHash('sha256').update(`ton-gateway devnet liteserver key:${text}`).digest();
}

export function adnlKeyId(publicKey: Buffer): Buffer {
  // pub.ed25519#4813b4c6 key:int256, TL little-endian constructor id
  return createHash('sha256').update(Buffer.concat([Buffer.from([0xc6, 0xb4, 0x13, 0x48]), publicKey])).digest();
}

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b %= P;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}

/** Edwards y -> Montgomery u = (1 + y) / (1 - y) mod p. */
function edwardsToMontgomery(pub: Buffer): Buffer {
  const le = Buffer.from(pub);
  le[31] &= 0x7f;
  const y = BigInt('0x' + Buffer.from(le).reverse().toString('hex'));
  const denom = (1n - y + P) % P;
  if (denom === 0n) throw new Error('bad ed25519 public key');
  const u = ((1n + y) * modPow(denom, P - 2n)) % P;
  return Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse();
}

/** x25519(clamped sha512(seed)[0:32], montgomery(peer)). */
export function sharedSecret(seed: Buffer, peerEd25519: Buffer): Buffer {
  const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
  const privateKey = createPrivateKey({ key: Buffer.concat([X25519_PKCS8, scalar]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey({ key: Buffer.concat([X25519_SPKI, edwardsToMontgomery(peerEd25519)]), format: 'der', type: 'spki' });
  return diffieHellman({ privateKey, publicKey });
}
