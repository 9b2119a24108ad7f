/**
 * Native code in place of two pure-JS paths of the `adnl` package, ton-lite-client's transport. Both are
 * replaced through the package's own exports objects, which it calls through at run time. Every block
 * fetched is still checked end to end: its sha256 and root hash against its id.
 *
 * AES-256-CTR: the package encrypts with aes-js, about half the time of fetching a 100 KB block. Node's
 * cipher is the same (128-bit big-endian counter).
 *
 * Packet parsing:
 * adnl 1.0.3 checks each received packet's SHA-256 over `new Uint8Array([...nonce, ...payload])`. That
 * spreads a block-sized payload into a JS array, element by element. In bench:ingest it was the largest
 * single JS cost of fetching, about 1.4 s per 20k transactions. This parser reads the same layout:
 *   size:uint32le nonce:32 payload:(size-64) sha256(nonce ++ payload):32
 * It hashes with node:crypto over views of the received buffer, and has the same results and errors: null
 * while the packet is incomplete, 'ADNLPacket: Bad packet hash.' on a mismatch.
 *
 * The class is replaced in place, because the client calls `packet_1.ADNLPacket.parse` through the
 * module. When the package no longer has that shape, nothing is patched and the original code runs.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { createRequire } from 'node:module';

interface PacketClass {
  new (payload: Buffer, nonce?: Buffer): { payload: Buffer; nonce: Buffer; length: number };
  parse(data: Buffer): { payload: Buffer; nonce: Buffer; length: number } | null;
}

/** A module of the adnl package that ton-lite-client loads, or null when it is not there. */
function adnlModule<T>(path: string): T | null {
  try {
    return createRequire(createRequire(import.meta.url).resolve('ton-lite-client'))(`adnl/dist/${path}`) as T;
  } catch {
    return null;
  }
}

export function adnlPacketClass(): PacketClass | null {
  const mod = adnlModule<{ ADNLPacket?: PacketClass }>('packet.js');
  return typeof mod?.ADNLPacket?.parse === 'function' ? mod.ADNLPacket : null;
}

/** Parses one packet from the start of `data` (see the module comment). */
export function parseAdnlPacket<P>(data: Buffer, make: (payload: Buffer, nonce: Buffer) => P): P | null {
  if (data.byteLength < 4) return null;
  const size = data.readUInt32LE(0);
  if (data.byteLength - 4 < size) return null;
  const nonce = data.subarray(4, 36);
  const payload = data.subarray(36, 4 + size - 32);
  const hash = data.subarray(4 + size - 32, 4 + size);
  const target = createHash('sha256').update(nonce).update(payload).digest();
  if (!hash.equals(target)) throw new Error('ADNLPacket: Bad packet hash.');
  return make(payload, nonce);
}

let installed: boolean | null = null;

/** Installs both once per process; true when the adnl package has the expected shape. */
export function installAdnlSpeedups(): boolean {
  if (installed !== null) return installed;
  const aes = adnlModule<{ createCipheriv?: unknown; createDecipheriv?: unknown }>('aes.js');
  const cls = adnlPacketClass();
  installed = cls !== null && typeof aes?.createCipheriv === 'function';
  if (aes && typeof aes.createCipheriv === 'function') {
    aes.createCipheriv = createCipheriv;
    aes.createDecipheriv = createDecipheriv;
  }
  if (cls) cls.parse = (data: Buffer) => parseAdnlPacket(data, (payload, nonce) => new cls(payload, nonce));
  return installed;
}
