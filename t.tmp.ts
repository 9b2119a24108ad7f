import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { loadRecordedChain } from './src/devnet/chain/index.ts';
import { startLiteServer, seedFromText } from './src/devnet/liteserver/index.ts';
const dir = 'test/fixtures/blocks/localnet/';
const chain = loadRecordedChain(['mc-1','mc-2','wc0-8000000000000000-1','wc0-8000000000000000-2'].map(f => `${dir}localnet-acton-${f}.boc`));
const srv = await startLiteServer({ source: chain, key: seedFromText('t') });
const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${srv.port}`, publicKey: srv.publicKey });
engine.on('error', (e) => console.log('engine error', e)); await new Promise(r => engine.once('ready', r)); const client = new LiteClient({ engine });
try {
const mi = await client.getMasterchainInfo();
console.log(mi.last.seqno, mi.last.rootHash.toString('hex'));
console.log(await client.getMasterchainInfoExt());
console.log(await client.getCurrentTime(), await client.getVersion());
const h = await client.getBlockHeader(mi.last);
console.log('header', h.headerProof.length);
const sh = await client.getAllShardsInfo(mi.last);
console.log(sh.shards);
const b1 = await client.lookupBlockByID({ workchain: 0, shard: '-9223372036854775808', seqno: 2 });
console.log(b1.id);
const txs = await client.listBlockTransactions(b1.id);
console.log(txs.ids.map(t => [t.account?.toString('hex'), t.lt, t.hash?.toString('hex')]));
const full = await client.getFullBlock(2);
console.log(JSON.stringify(full, (k, v) => typeof v === 'bigint' ? v.toString() : v).slice(0, 500));
} catch (e) { console.log('ERR', e); }
engine.close(); await srv.close();
