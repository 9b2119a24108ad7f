import { decodeBlock } from '../src/ton/index.ts';
import { readFileSync, readdirSync } from 'fs';
let n=0;
for (const net of ['mainnet','testnet','localnet']) for (const f of readdirSync(`test/fixtures/blocks/${net}`)) {
  const b = readFileSync(`test/fixtures/blocks/${net}/${f}`);
  try { const d = decodeBlock(b); n+=d.transactions.length; console.log(f, d.transactions.length, d.account_states.length, d.shards?.length ?? '-', d.config ? d.config.params.length : '-', d.info.after_merge); }
  catch (e) { console.log(f, 'ERR', (e as Error).message); }
}
console.log('txs', n);
