/** BoC parsing, cell hashing (all levels, exotic cells) and serialization vs @ton/core on every fixture BoC. */
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { bocOfCell, CELL_MERKLE_UPDATE, CELL_PRUNED, cellHash, DecodeError, parseBoc, serializeBoc } from '../../src/ton/index.ts';
import { listDir, read } from './fixtures.ts';

const files = [
  ...['blocks/mainnet', 'blocks/testnet', 'blocks/localnet', 'blocks/proofs'].flatMap((d) => listDir(d)),
  ...listDir('txs'),
  ...listDir('msgs'),
  ...listDir('accounts'),
  ...listDir('codes'),
  ...listDir('config'),
];

describe('parseBoc + hashing', () => {
  it('covers blocks, proofs, txs, msgs, accounts, codes and configs', () => {
    expect(files.length).toBeGreaterThan(250);
  });

  it.each(files)('%s: every cell hash and depth equals @ton/core', (f) => {
    const boc = read(f);
    const cells = parseBoc(boc);
    const roots = Cell.fromBoc(boc);
    expect(cells.roots.length).toBe(roots.length);
    // walk both trees in parallel: every cell's representation hash, level-0 hash, level mask and depth
    const seen = new Set<number>();
    const bad: string[] = [];
    const walk = (i: number, c: Cell) => {
      if (seen.has(i)) return;
      seen.add(i);
      if (cells.hashHex(i) !== c.hash().toString('hex')) bad.push(`${i}: hash`);
      if (cells.hash0Hex(i) !== c.hash(0).toString('hex')) bad.push(`${i}: level-0 hash`);
      if (cells.depth(i) !== c.depth()) bad.push(`${i}: depth`);
      if (cells.refCount[i] !== c.refs.length || cells.bits[i] !== c.bits.length) bad.push(`${i}: shape`);
      if ((cells.levelMask[i] === 0) !== (c.level() === 0)) bad.push(`${i}: level`);
      for (let r = 0; r < c.refs.length; r++) walk(cells.refs[i * 4 + r], c.refs[r]);
    };
    roots.forEach((c, k) => walk(cells.roots[k], c));
    expect(bad).toEqual([]);
    expect(seen.size).toBe(cells.count);
    expect(cellHash(boc)).toBe(roots[0].hash().toString('hex'));
  });

  it('hash: false reads the same structure and no hashes', () => {
    for (const f of files.slice(0, 60)) {
      const boc = read(f);
      const full = parseBoc(boc);
      const bare = parseBoc(boc, { hash: false });
      expect([bare.count, bare.roots, bare.hashes.length, bare.depths.length], f).toEqual([full.count, full.roots, 0, 0]);
      expect([bare.dataOff, bare.bits, bare.refCount, bare.refs, bare.type], f).toEqual([full.dataOff, full.bits, full.refCount, full.refs, full.type]);
    }
  });

  it('full blocks carry a Merkle update whose children have pruned branches (levels 1)', () => {
    const cells = parseBoc(read('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc'));
    const root = cells.roots[0];
    const mu = cells.refs[root * 4 + 2];
    expect(cells.type[mu]).toBe(CELL_MERKLE_UPDATE);
    expect(cells.levelMask[mu]).toBe(0);
    const newState = cells.refs[mu * 4 + 1];
    expect(cells.levelMask[newState]).toBe(1);
    // Merkle update data stores the level-0 hashes of both states
    const off = cells.dataOff[mu];
    expect(cells.buf.toString('hex', off + 33, off + 65)).toBe(cells.hash0Hex(newState));
    let pruned = 0;
    for (let i = 0; i < cells.count; i++) if (cells.type[i] === CELL_PRUNED) pruned++;
    expect(pruned).toBeGreaterThan(100);
  });
});

describe('serializeBoc', () => {
  it.each(['txs/mainnet-jetton-transfer-wc0-71398501-lt76734069000003-2a587123.boc', 'codes/wallet-v5r1.boc', 'blocks/mainnet/mainnet-mc-46991999.boc'])(
    '%s: re-serialized subtree parses back (ours and @ton/core) to the same hash',
    (f) => {
      const boc = read(f);
      const cells = parseBoc(boc);
      const out = serializeBoc(cells, cells.roots[0]);
      expect(Cell.fromBoc(out)[0].hash().toString('hex')).toBe(cells.hashHex(cells.roots[0]));
      expect(cellHash(out)).toBe(cells.hashHex(cells.roots[0]));
      expect(bocOfCell(boc).equals(out)).toBe(true);
      // every subtree too (first 200 cells)
      for (let i = 0; i < Math.min(cells.count, 200); i++) {
        const sub = serializeBoc(cells, i);
        expect(parseBoc(sub).hashHex(0)).toBe(cells.hashHex(i));
      }
    },
  );
});

describe('bad BoCs', () => {
  it('reject garbage, truncation and bad refs with DecodeError', () => {
    expect(() => parseBoc(new Uint8Array([1, 2, 3]))).toThrow(DecodeError);
    expect(() => parseBoc(Buffer.from('b5ee9c7200000000', 'hex'))).toThrow(DecodeError);
    const good = read('codes/wallet-v4r2.boc');
    expect(() => parseBoc(good.subarray(0, good.length - 10))).toThrow(/truncated BoC/);
    expect(() => parseBoc(Buffer.from('deadbeef00112233', 'hex'))).toThrow(/bad magic/);
  });
});
