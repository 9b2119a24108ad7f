/** The full fixture blocks, decoded: the templates the store and API benchmarks scale up. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock, type DecodedBlock } from '../src/ton/index.ts';

export function fixtureBlocks(): DecodedBlock[] {
  const root = new URL('../test/fixtures/blocks/', import.meta.url).pathname;
  const out: DecodedBlock[] = [];
  for (const net of readdirSync(root)) {
    const dir = join(root, net);
    if (net === 'proofs' || !statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.boc')) continue;
      try {
        out.push(decodeBlock(readFileSync(join(dir, f))));
      } catch {
        /* a block the decoder rejects (pruned fixture BoCs) is not a template */
      }
    }
  }
  return out;
}
