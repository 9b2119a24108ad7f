/**
 * ADNL over TCP, server side: the handshake (client key id, ephemeral ed25519 key, sha256 of the 160 random
 * bytes, those bytes AES-256-CTR encrypted with a key/nonce from the x25519 shared secret), then both
 * directions AES-256-CTR streams keyed by the 160 bytes, carrying frames
 * `size:uint32le nonce:32 payload sha256(nonce||payload):32`.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, type Cipher, type Decipher } from 'node:crypto';
import type { Socket } from 'node:net';
import { sharedSecret, type ServerKey } from './keys.ts';

const HANDSHAKE_SIZE = 32 + 32 + 32 + 160;
/** Frames larger than this are a protocol violation (real liteservers cap queries far lower). */
const MAX_FRAME = 16 * 1024 * 1024;

export interface AdnlConnectionEvents {
  /** A decrypted frame payload (a TL object). */
  onPacket(payload: Buffer, conn: AdnlConnection): void;
  onClose?(conn: AdnlConnection): void;
}

export class AdnlConnection {
  private buffer = Buffer.alloc(0);
  private rx?: Decipher;
  private tx?: Cipher;
  closed = false;

  constructor(
    readonly socket: Socket,
    private readonly key: ServerKey,
    private readonly events: AdnlConnectionEvents,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => {
      this.closed = true;
      events.onClose?.(this);
    });
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    if (!this.rx) {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      if (this.buffer.length < HANDSHAKE_SIZE) return;
      const hs = this.buffer.subarray(0, HANDSHAKE_SIZE);
      const rest = this.buffer.subarray(HANDSHAKE_SIZE);
      this.buffer = Buffer.alloc(0);
      if (!this.handshake(hs)) {
        this.close();
        return;
      }
      if (rest.length > 0) this.onData(rest);
      return;
    }
    this.buffer = Buffer.concat([this.buffer, this.rx.update(chunk)]);
    while (this.buffer.length >= 4) {
      const size = this.buffer.readUInt32LE(0);
      if (size < 64 || size > MAX_FRAME) {
        this.close();
        return;
      }
      if (this.buffer.length < 4 + size) return;
      const frame = this.buffer.subarray(4, 4 + size);
      this.buffer = this.buffer.subarray(4 + size);
      const nonce = frame.subarray(0, 32);
      const payload = frame.subarray(32, size - 32);
      const sum = frame.subarray(size - 32);
      if (!createHash('sha256').update(nonce).update(payload).digest().equals(sum)) {
        this.close(); // a bad checksum means the streams are out of sync: nothing more can be read
        return;
      }
      if (payload.length > 0) this.events.onPacket(Buffer.from(payload), this);
    }
  }

  private handshake(hs: Buffer): boolean {
    const keyId = hs.subarray(0, 32);
    if (!keyId.equals(this.key.keyId)) return false;
    const clientPub = hs.subarray(32, 64);
    const digest = hs.subarray(64, 96);
    let secret: Buffer;
    try {
      secret = sharedSecret(this.key.seed, clientPub);
    } catch {
      return false;
    }
    const k = Buffer.concat([secret.subarray(0, 16), digest.subarray(16, 32)]);
    const iv = Buffer.concat([digest.subarray(0, 4), secret.subarray(20, 32)]);
    const d = createDecipheriv('aes-256-ctr', k, iv);
    const params = Buffer.concat([d.update(hs.subarray(96)), d.final()]);
    if (!createHash('sha256').update(params).digest().equals(digest)) return false;
    // The client encrypts with params[32:64]/[80:96] and decrypts with params[0:32]/[64:80].
    this.rx = createDecipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
    this.tx = createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));
    this.send(Buffer.alloc(0)); // empty frame: handshake accepted
    return true;
  }

  /** Sends one frame; silently dropped once the peer has gone. */
  send(payload: Buffer): void {
    if (this.closed || !this.tx || this.socket.destroyed || !this.socket.writable) return;
    const nonce = randomBytes(32);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(payload.length + 64);
    const sum = createHash('sha256').update(nonce).update(payload).digest();
    this.socket.write(this.tx.update(Buffer.concat([size, nonce, payload, sum])));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
  }
}
