import { decodeBlock } from '../src/ton/index.ts';
import { readFileSync } from 'fs';
const d = decodeBlock(readFileSync('test/fixtures/blocks/localnet/localnet-acton-wc0-8000000000000000-2.boc'));
console.log(d.info.start_lt, d.info.end_lt, d.transactions.map(t => [t.lt, t.account, t.in_msg?.created_lt]));
