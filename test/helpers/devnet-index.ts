/**
 * A devnet directory served by its liteserver over ADNL and indexed by the real pipeline (runIndexer on the in-process
 * bus) from masterchain block 1 to `until`: what the devnet tests index before they check what was stored.
 */
import { runIndexer } from '../../pipelines/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import type { StoreClient } from '../../src/store/client/index.ts';

/** Indexes `dir` into `store`; the liteserver it started keeps serving (the caller closes it). `key`: its key's byte. */
export async function indexDevnetDir(dir: string, store: StoreClient, o: { until: number; key: number }): Promise<LiteServer> {
  const ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, o.key), host: '127.0.0.1' });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  try {
    await pool.start();
    const h = await runIndexer({ bus: new MemoryBus(), source: pool, store, fromSeqno: 1, untilSeqno: o.until });
    await h.done;
    await h.stop();
    return ls;
  } catch (err) {
    await ls.close();
    throw err;
  } finally {
    await pool.close();
  }
}
