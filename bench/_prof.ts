import { readFileSync, readdirSync } from 'node:fs';
import { decodeBlock } from '../src/ton/index.ts';
const bl: Buffer[] = [];
for (const net of ['mainnet','testnet','localnet']) for (const f of readdirSync(`test/fixtures/blocks/${net}`)) if (!f.includes('31440712') && !f.includes('49383163')) bl.push(readFileSync(`test/fixtures/blocks/${net}/${f}`));
for (let i=0;i<12;i++){ const c=process.cpuUsage(); const t=performance.now(); for (const b of bl) decodeBlock(b); const u=process.cpuUsage(c); console.log('wall',(performance.now()-t).toFixed(0),'cpu',((u.user+u.system)/1000).toFixed(0)); }
