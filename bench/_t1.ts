import { parseBoc } from '../src/ton/cell/boc.ts';
import { readFileSync, readdirSync } from 'fs';
import { Cell } from '@ton/core';
for (const net of ['mainnet','testnet','localnet']) for (const f of readdirSync(`test/fixtures/blocks/${net}`)) {
  const b = readFileSync(`test/fixtures/blocks/${net}/${f}`);
  const c = parseBoc(b);
  const ref = Cell.fromBoc(b)[0].hash().toString('hex');
  console.log(f, c.hashHex(c.roots[0]) === ref ? 'OK' : 'MISMATCH ' + c.hashHex(c.roots[0]) + ' ' + ref);
}
const files = ['mainnet','testnet','localnet'].flatMap(n => readdirSync(`test/fixtures/blocks/${n}`).map(f => readFileSync(`test/fixtures/blocks/${n}/${f}`)));
for (let r=0;r<3;r++){ const t=performance.now(); for (const b of files) parseBoc(b); console.log('pass', (performance.now()-t).toFixed(0),'ms'); }
