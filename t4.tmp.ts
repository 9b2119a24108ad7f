import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Cell } from '@ton/core';
import { readLiteServerJson } from './src/devnet/liteserver/index.ts';
const [ls] = readLiteServerJson('/tmp/dn1');
const engine = new LiteSingleEngine({ host: `tcp://${ls.host}:${ls.port}`, publicKey: ls.publicKey });
await new Promise(r => engine.once('ready', r)); const client = new LiteClient({ engine });
try {
  const mi = await client.getMasterchainInfo();
  console.log('tip', mi.last.seqno);
  for (const s of [3, 4, 5, 8, 12]) { const sh = await client.getAllShardsInfo((await client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: s })).id); console.log(s, JSON.stringify(sh.shards)); }
  const full = await client.getFullBlock(5);
  console.log(full.shards.map(s => [s.workchain, s.shard, s.seqno, s.transactions.length]));
  const cfg = await client.getConfig(mi.last);
  console.log('config keys', [...cfg.config.keys()].length);
} catch (e) { console.log('ERR', e); }
engine.close();
