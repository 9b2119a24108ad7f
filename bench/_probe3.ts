import { loadChainDir } from '../src/devnet/chain/index.ts';
import { startLiteServer } from '../src/devnet/liteserver/index.ts';
import { LiteserverPool, followMasterchain } from '../src/source/index.ts';
const chain = loadChainDir('/tmp/tg-dev1');
const ls = await startLiteServer({ source: chain, key: Buffer.alloc(32, 42), host: '127.0.0.1' });
const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 30_000 });
await pool.start();
for (const pf of [1, 8, 32]) {
  const t = performance.now();
  let n = 0;
  for await (const s of followMasterchain(pool, { fromSeqno: 1, untilSeqno: 32, prefetch: pf })) n += 1 + s.shardBlocks.length;
  console.log('prefetch', pf, n, 'blocks', (performance.now() - t).toFixed(0), 'ms');
}
await pool.close(); await ls.close();
