/** Shared setup for the liteserver suites: the acton recorded chain, ton-lite-client and a raw ADNL client. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ADNLClientTCP } from 'adnl';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { liteApi, type TlObject } from '../../src/tl/index.ts';

export const FIX = join(import.meta.dirname, '..', 'fixtures');
export const ACTON = ['mc-1', 'mc-2', 'wc0-8000000000000000-1', 'wc0-8000000000000000-2'].map((f) =>
  join(FIX, 'blocks', 'localnet', `localnet-acton-${f}.boc`),
);
/** Ids from test/fixtures/MANIFEST.md (acton localnet chain). */
export const IDS = {
  mc1: { root: 'c911a25caecd8fc34793a26039b7ecb9ea6df0854c26294cd3fc2cd3f92aeaf4', file: '163e5cb17f1e3adc1f8c10dd2f161962a72d22e19d37fdcea7faddc6347ad5a4' },
  mc2: { root: 'b0f2dbe0cb343261fb66a5be59808dd20a6adac7befc78fea496030476a46cec' },
  wc1: { root: 'c668aa75d8986c395c927808bd2ac2f71f9399b7ff6ef9618bdaa46f11e0377c', file: 'b88cedf0c58ee678e83cdcd8f6ba8d4c145e0804097015e512a32ded87ac7253' },
  wc2: { root: 'ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e' },
  wallet: '3029b3eaeda86a5381d86100f2a8b761c38de45642edb6e4bb1cca2e6dd7ffed',
  tx1: 'e0d6d60a6b679ce0f3284e609ff7a5ebeb840d4f29e029896a249774750e8164',
  tx2: 'a1e15230a9021318f8b6d94bd53922890e42a60fdc3022d09e14cbe7949e7ded',
  tx4: 'a17dcd62e4136c053b59bd76092803a30553895b788f288b1a5f02e50d30922d',
};
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
