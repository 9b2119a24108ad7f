import { readFileSync } from 'node:fs';
import { Cell } from '@ton/core';
import { ProofBuilder } from './src/devnet/liteserver/proof.ts';
const root = Cell.fromBoc(readFileSync('test/fixtures/blocks/localnet/localnet-acton-wc0-8000000000000000-2.boc'))[0];
for (const mode of [0, 1]) {
  const pb = new ProofBuilder(root); pb.visitAll(root.refs[0]); if (mode & 1) pb.path(2);
  const p = pb.pruned();
  console.log(mode, p.hash(0).toString('hex'), root.hash().toString('hex'));
  const mu = root.refs[2];
  const re = new Cell({ exotic: true, bits: mu.bits, refs: mu.refs });
  console.log(' mu', mu.hash(0).toString('hex'), re.hash(0).toString('hex'), mu.level(), mu.refs.map(r => [r.level(), r.isExotic]));
}
