import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { MASTER_SHARD, refKey, shardChildren, shardParent, shardsIntersect, type BlockIdExt } from '../../src/source/block-id.ts';
import { BlockHashMismatch, sha256Hex, verifyBlock, type VerifiedBlock } from '../../src/source/block-header.ts';
import { readBlockHeader, readShardTops } from './block-header-reader.ts';
import { ChainLinkError, followStep, walkShardBlocks } from '../../src/source/walk.ts';
import { reencode } from './liars.ts';

// The real recorded acton local-net chain: mc1, mc2 and the wc0 blocks 1 and 2 they commit.
const dir = new URL('../fixtures/blocks/localnet/', import.meta.url);
const file = (name: string) => readFileSync(new URL(`localnet-acton-${name}.boc`, dir));
const files: Record<string, Buffer> = {
  '-1:8000000000000000:1': file('mc-1'),
  '-1:8000000000000000:2': file('mc-2'),
  '0:8000000000000000:1': file('wc0-8000000000000000-1'),
  '0:8000000000000000:2': file('wc0-8000000000000000-2'),
};

/** fetchBlock over the fixture files, verifying like the pool does; counts fetches. */
function fileSource() {
  const fetched: string[] = [];
  const fetchBlock = async (id: BlockIdExt): Promise<VerifiedBlock> => {
    const bytes = files[refKey(id)];
    if (!bytes) throw new Error(`no fixture for ${refKey(id)}`);
    fetched.push(refKey(id));
    return verifyBlock(id, bytes);
  };
  return { fetched, fetchBlock };
}

function mcId(seqno: number): BlockIdExt {
  const bytes = files[`-1:8000000000000000:${seqno}`];
  return { workchain: -1, shard: MASTER_SHARD, seqno, rootHash: readRootHash(bytes), fileHash: sha256Hex(bytes) };
}
function readRootHash(bytes: Buffer): string {
  return Cell.fromBoc(bytes)[0].hash().toString('hex');
}

describe('shard ids', () => {
  it('computes parents, children and overlaps as the node does', () => {
    const [l, r] = shardChildren(MASTER_SHARD);
    expect(l).toBe(0x4000000000000000n);
    expect(r).toBe(0xc000000000000000n);
    expect(shardParent(l)).toBe(MASTER_SHARD);
    expect(shardParent(0xe000000000000000n)).toBe(0xc000000000000000n);
    expect(shardsIntersect(MASTER_SHARD, 0x6000000000000000n)).toBe(true);
    expect(shardsIntersect(0x4000000000000000n, 0xc000000000000000n)).toBe(false);
    expect(shardsIntersect(0x2000000000000000n, 0x6000000000000000n)).toBe(false);
  });
});

describe('block header', () => {
  it('reads BlockInfo links of real blocks', () => {
    const root = Cell.fromBoc(files['-1:8000000000000000:2'])[0];
    const h = readBlockHeader(root);
    expect(h.globalId).toBe(-3);
    expect(h.seqno).toBe(2);
    expect(h.prev).toEqual([{ workchain: -1, shard: MASTER_SHARD, seqno: 1, rootHash: 'c911a25caecd8fc34793a26039b7ecb9ea6df0854c26294cd3fc2cd3f92aeaf4', fileHash: '163e5cb17f1e3adc1f8c10dd2f161962a72d22e19d37fdcea7faddc6347ad5a4' }]);
    expect(readShardTops(root).map((t) => [refKey(t), t.rootHash, t.fileHash])).toEqual([
      ['0:8000000000000000:2', 'ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e', '480e8a6ae2378470204a9fcc63a3f180d5426186b77488e743fd2bd37675cb44'],
    ]);
  });

  it('reads the master ref of a shard block', () => {
    const id = { workchain: 0, shard: MASTER_SHARD, seqno: 2, rootHash: 'ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e', fileHash: '480e8a6ae2378470204a9fcc63a3f180d5426186b77488e743fd2bd37675cb44' };
    const h = verifyBlock(id, files['0:8000000000000000:2']).header;
    expect(h.masterRef?.seqno).toBe(1);
    expect(h.masterRef?.root_hash).toBe('c911a25caecd8fc34793a26039b7ecb9ea6df0854c26294cd3fc2cd3f92aeaf4');
    expect(h.prev[0].seqno).toBe(1);
    expect(h.prev[0].rootHash).toBe('c668aa75d8986c395c927808bd2ac2f71f9399b7ff6ef9618bdaa46f11e0377c');
  });

  it('rejects corrupted bytes and wrong ids, naming what differs', () => {
    const bytes = Buffer.from(files['0:8000000000000000:2']);
    const id = { workchain: 0, shard: MASTER_SHARD, seqno: 2, rootHash: 'ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e', fileHash: '480e8a6ae2378470204a9fcc63a3f180d5426186b77488e743fd2bd37675cb44' };
    bytes[bytes.length - 40] ^= 1;
    expect(() => verifyBlock(id, bytes)).toThrow(BlockHashMismatch);
    expect(() => verifyBlock(id, bytes)).toThrow(/file_hash of 0:8000000000000000:2/);
    // Right file hash but claimed as another block: the root hash check catches it.
    const other = { ...id, fileHash: sha256Hex(files['0:8000000000000000:1']) };
    expect(() => verifyBlock(other, files['0:8000000000000000:1'])).toThrow(/root_hash of 0:8000000000000000:2/);
  });
});

describe('walk', () => {
  it('genesis step: mc1 commits wc0:1, walking stops at the zero state', async () => {
    const src = fileSource();
    const mc1 = verifyBlock(mcId(1), files['-1:8000000000000000:1']);
    const step = await followStep(null, mc1, src.fetchBlock);
    expect(step.mcSeqno).toBe(1);
    expect(step.shardBlocks.map((b) => refKey(b.id))).toEqual(['0:8000000000000000:1']);
    expect(step.shardBlocks[0].id.fileHash).toBe('b88cedf0c58ee678e83cdcd8f6ba8d4c145e0804097015e512a32ded87ac7253');
    expect(src.fetched).toEqual(['0:8000000000000000:1']);
  });

  it('mc2 commits exactly wc0:2 (wc0:1 belongs to mc1), prev link verified', async () => {
    const src = fileSource();
    const mc1 = verifyBlock(mcId(1), files['-1:8000000000000000:1']);
    const mc2 = verifyBlock(mcId(2), files['-1:8000000000000000:2']);
    const step = await followStep(mc1, mc2, src.fetchBlock);
    expect(step.shardBlocks.map((b) => refKey(b.id))).toEqual(['0:8000000000000000:2']);
    expect(step.shardTops.map(refKey)).toEqual(['0:8000000000000000:2']);
    expect(src.fetched).toEqual(['0:8000000000000000:2']);
  });

  it('walking from genesis to the mc2 tops collects both shard blocks, oldest first', async () => {
    const src = fileSource();
    const mc2 = verifyBlock(mcId(2), files['-1:8000000000000000:2']);
    const blocks = await walkShardBlocks([], mc2.shardTops!, src.fetchBlock);
    expect(blocks.map((b) => refKey(b.id))).toEqual(['0:8000000000000000:1', '0:8000000000000000:2']);
  });

  it('refuses a masterchain block whose prev is not the previous block', async () => {
    const src = fileSource();
    const mc2 = verifyBlock(mcId(2), files['-1:8000000000000000:2']);
    await expect(followStep(mc2, mc2, src.fetchBlock)).rejects.toThrow(ChainLinkError);
  });

  it('a link whose root hash matches and file hash does not names the file hashes, not two equal root hashes', async () => {
    const src = fileSource();
    const mc2 = verifyBlock(mcId(2), files['-1:8000000000000000:2']);
    // the same cells in other bytes: a re-encoded previous block has the root hash and another file hash
    const bytes = reencode(files['-1:8000000000000000:1']);
    const reencoded = verifyBlock({ ...mcId(1), fileHash: createHash('sha256').update(bytes).digest('hex') }, bytes);
    const err = await followStep(reencoded, mc2, src.fetchBlock).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(ChainLinkError);
    expect(err!.message).toBe(`masterchain block 2 names its prev block with file_hash ${mcId(1).fileHash} instead of ${reencoded.id.fileHash}`);
    const top = mc2.shardTops![0];
    const sameRoot = [{ ...top, seqno: 2, fileHash: 'ab'.repeat(32) }];
    await expect(walkShardBlocks(sameRoot, mc2.shardTops!, src.fetchBlock)).rejects.toThrow(
      `block 0:8000000000000000:2 is referenced with file_hash ${top.fileHash} instead of ${'ab'.repeat(32)} (the previous masterchain block registered it)`,
    );
  });

  it('refuses tops that skip past the previous registered top (fork / wrong chain)', async () => {
    const src = fileSource();
    const mc2 = verifyBlock(mcId(2), files['-1:8000000000000000:2']);
    const wrongPrev = [{ workchain: 0, shard: MASTER_SHARD, seqno: 1, rootHash: '00'.repeat(32), fileHash: '00'.repeat(32) }];
    await expect(walkShardBlocks(wrongPrev, mc2.shardTops!, src.fetchBlock)).rejects.toThrow(/referenced with root_hash c668aa75/);
  });
});

describe('linking facts: src/ton decoder vs the independent @ton/core reader', () => {
  it('agree on every recorded local-net block (prev refs, master ref, shard tops)', async () => {
    const { readdirSync } = await import('node:fs');
    const names = readdirSync(dir).filter((f) => f.endsWith('.boc'));
    expect(names.length).toBeGreaterThanOrEqual(18);
    for (const name of names) {
      const bytes = readFileSync(new URL(name, dir));
      const root = Cell.fromBoc(bytes)[0];
      const ref = readBlockHeader(root);
      const id = { workchain: ref.workchain, shard: ref.shard, seqno: ref.seqno, rootHash: root.hash().toString('hex'), fileHash: sha256Hex(bytes) };
      const v = verifyBlock(id, bytes);
      expect(v.header, name).toEqual(ref);
      if (ref.workchain === -1) expect(v.shardTops, name).toEqual(readShardTops(root));
      else expect(v.shardTops, name).toBeNull();
    }
  });
});
