import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Address, Cell, loadTransaction } from '@ton/core';
import { loadRecordedChain } from './src/devnet/chain/index.ts';
import { startLiteServer, seedFromText } from './src/devnet/liteserver/index.ts';
const dir = 'test/fixtures/blocks/localnet/';
const chain = loadRecordedChain(['mc-1','mc-2','wc0-8000000000000000-1','wc0-8000000000000000-2'].map(f => `${dir}localnet-acton-${f}.boc`));
const srv = await startLiteServer({ source: chain, key: seedFromText('t'), onQuery: (m, e) => e && console.log('Q', m, e.code, e.message) });
const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${srv.port}`, publicKey: srv.publicKey });
await new Promise(r => engine.once('ready', r)); const client = new LiteClient({ engine });
const addr = Address.parseRaw('0:3029b3eaeda86a5381d86100f2a8b761c38de45642edb6e4bb1cca2e6dd7ffed');
try {
const mi = await client.getMasterchainInfo();
const st = await client.getAccountState(addr, mi.last);
console.log('balance', st.balance, 'lastTx', st.lastTx, st.state?.storage.state.type, 'shardblk', st.shardBlock.seqno);
const r = await client.runMethod(addr, 'seqno', Buffer.alloc(0), mi.last);
console.log('seqno', r);
const r2 = await client.runMethod(addr, 'get_public_key', Buffer.alloc(0), mi.last);
console.log('pk', r2);
const tl = await client.getAccountTransactions(addr, st.lastTx!.lt.toString(), Buffer.from(st.lastTx!.hash.toString(16).padStart(64,'0'), 'hex'), 10);
const txs = Cell.fromBoc(tl.transactions);
console.log('txs', txs.length, txs.map(c => c.hash().toString('hex')), tl.ids.map(i => i.seqno));
const sb = tl.ids[0];
const one = await client.getAccountTransaction(addr, '2', sb);
console.log('one', Cell.fromBoc(one.transaction)[0].hash().toString('hex'), one.proof.length);
const st1 = await client.getAccountState(addr, (await client.lookupBlockByID({workchain:-1, shard:'-9223372036854775808', seqno:1})).id);
console.log('balance@1', st1.balance, st1.lastTx);
} catch (e) { console.log('ERR', e); }
engine.close(); await srv.close();
