/** Shared setup for the liteserver suites: the acton recorded chain, ton-lite-client and a raw ADNL client. */
import { randomBytes } from 'node:crypto';
import { ADNLClientTCP } from 'adnl';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { liteApi, type TlObject } from '../../src/tl/index.ts';

export { FIX, ACTON, ACTON_IDS as IDS } from '../helpers/acton.ts';
export const SHARD = '-9223372036854775808';

export async function connect(port: number, publicKey: Buffer): Promise<{ client: LiteClient; engine: LiteSingleEngine }> {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey });
  await new Promise<void>((resolve, reject) => {
    engine.once('ready', () => resolve());
    engine.once('error', () => reject(new Error('lite engine error')));
  });
  return { client: new LiteClient({ engine }), engine };
}

/** A raw ADNL client (the `adnl` package ton-lite-client uses) to see liteServer.error codes. */
export class RawClient {
  private readonly pending = new Map<string, (b: Buffer) => void>();
  private constructor(readonly adnl: ADNLClientTCP) {
    adnl.on('data', (data: Buffer) => {
      const msg = liteApi.decode(Buffer.from(data));
      if (msg._ !== 'adnl.message.answer') return; // e.g. tcp.pong
      const id = (msg.query_id as Buffer).toString('hex');
      this.pending.get(id)?.(msg.answer as Buffer);
      this.pending.delete(id);
    });
  }
  static async open(port: number, publicKey: Buffer): Promise<RawClient> {
    const adnl = new ADNLClientTCP(`tcp://127.0.0.1:${port}`, publicKey);
    const c = new RawClient(adnl);
    await new Promise<void>((resolve, reject) => {
      adnl.once('ready', () => resolve());
      adnl.once('error', reject);
      void adnl.connect();
    });
    return c;
  }
  /** Sends liteServer.query{data} and returns the decoded answer object. */
  async query(data: Buffer): Promise<TlObject> {
    const id = randomBytes(32);
    const answer = new Promise<Buffer>((resolve) => this.pending.set(id.toString('hex'), resolve));
    const q = liteApi.encode({ _: 'liteServer.query', data });
    this.adnl.write(liteApi.encode({ _: 'adnl.message.query', query_id: id, query: q }));
    return liteApi.decode(await answer);
  }
  call(obj: TlObject): Promise<TlObject> {
    return this.query(liteApi.encode(obj));
  }
  close(): void {
    this.adnl.end();
  }
  /** Drops the TCP connection at once (as a crashing client would). */
  destroy(): void {
    (this.adnl as unknown as { socket: { destroy(): void } }).socket.destroy();
  }
}

export function tlId(id: { workchain: number; shard: string | bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }): TlObject {
  return { workchain: id.workchain, shard: BigInt(id.shard), seqno: id.seqno, root_hash: id.rootHash, file_hash: id.fileHash };
}
