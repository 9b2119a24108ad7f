/**
 * Reads what the liteserver needs from a raw Block BoC: the id, the header (BlockInfo), the transactions
 * (with their cells, for proofs and BoCs), and for masterchain blocks the top shard blocks (ShardHashes).
 * Schema lines quoted from crypto/block/block.tlb (ton-blockchain/ton).
 */
import { createHash } from 'node:crypto';
import { Cell, Dictionary, loadCurrencyCollection, type Slice } from '@ton/core';
import { readBlockInfoCell, type BlockInfo as TonBlockInfo, type BlockRef, type ExtBlkRef } from '../../ton/index.ts';

/** A block's id as the devnet liteserver holds it: the short id (shard: unsigned 64-bit) and the hashes as bytes. */
export interface BlockIdExt extends BlockRef<bigint> {
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface BlockHeader {
  globalId: number;
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  keyBlock: boolean;
  vertSeqno: number;
  seqno: number;
  workchain: number;
  shard: bigint;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  masterRef: ExtBlkRef | null;
  prev: ExtBlkRef[];
}

/** shard_descr#b / shard_descr_new#a: the fields the liteserver reports about a top shard block. */
export interface ShardDescr {
  workchain: number;
  shard: bigint;
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  genUtime: number;
  /** The BinTree leaf cell holding this descriptor, for proofs. */
  cell: Cell;
  /** The descriptor as its own cell (bits and refs of the leaf after the bt_leaf$0 bit). */
  descrCell: Cell;
}

export interface BlockTx {
  /** account_addr:bits256 */
  account: Buffer;
  lt: bigint;
  /** The key in the block's transactions dictionary (normally equal to lt). */
  dictLt: bigint;
  hash: Buffer;
  cell: Cell;
  prevLt: bigint;
  prevHash: Buffer;
  now: number;
}

export interface ParsedBlock {
  id: BlockIdExt;
  boc: Buffer;
  root: Cell;
  header: BlockHeader;
  /** Sorted by (account, lt) as the account_blocks dictionary orders them. */
  transactions: BlockTx[];
  /** Masterchain blocks: the top shard blocks from McBlockExtra.shard_hashes. */
  shards: ShardDescr[];
  /** Masterchain blocks: the ShardHashes dictionary root (a ref), null if empty. */
  shardHashesRoot: Cell | null;
  /** Masterchain key blocks: the ConfigParams dictionary root from McBlockExtra. */
  configRoot: Cell | null;
}

export class BlockParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockParseError';
  }
}

export const SHARD_ALL = 0x8000000000000000n;

export function shardHex(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).padStart(16, '0');
}

/** Whether one shard contains the other (split/merge ancestry) or they are equal. */
export { shardsIntersect as shardOverlaps } from '../../format/index.ts';

export function blockKey(ref: BlockRef<bigint>): string {
  return `${ref.workchain}:${shardHex(ref.shard)}:${ref.seqno}`;
}

/** The header facts of a BlockInfo cell, read by src/ton's BlockInfo reader. */
export function loadBlockInfo(infoCell: Cell, globalId: number): BlockHeader {
  let info: TonBlockInfo;
  try {
    info = readBlockInfoCell(infoCell);
  } catch (err) {
    throw new BlockParseError((err as Error).message);
  }
  return {
    globalId,
    version: info.version,
    notMaster: info.not_master,
    afterMerge: info.after_merge,
    beforeSplit: info.before_split,
    afterSplit: info.after_split,
    keyBlock: info.key_block,
    vertSeqno: info.vert_seqno,
    seqno: info.seqno,
    workchain: info.workchain,
    shard: BigInt('0x' + info.shard),
    genUtime: info.gen_utime,
    startLt: info.start_lt,
    endLt: info.end_lt,
    minRefMcSeqno: info.min_ref_mc_seqno,
    prevKeyBlockSeqno: info.prev_key_block_seqno,
    masterRef: info.master_ref,
    prev: info.prev_ref,
  };
}

/** CurrencyCollection extra of an augmented dictionary node, then the value. */
const txValue = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice): Cell => {
    loadCurrencyCollection(s);
    return s.loadRef();
  },
};

/**
 * Reads the ShardHashes BinTree leaves:
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256
 *   before_split:Bool before_merge:Bool want_split:Bool want_merge:Bool nx_cc_updated:Bool flags:(## 3)
 *   next_catchain_seqno:uint32 next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32 ...
 * (shard_descr_new#a has the same prefix).
 */
function loadShardTree(workchain: number, cell: Cell, shard: bigint, out: ShardDescr[]): void {
  const s = cell.beginParse();
  if (s.loadBit()) {
    // bt_fork$1 left:^(BinTree X) right:^(BinTree X)
    const delta = (shard & -shard) >> 1n;
    loadShardTree(workchain, s.loadRef(), shard - delta, out);
    loadShardTree(workchain, s.loadRef(), shard + delta, out);
    return;
  }
  // bt_leaf$0 leaf:X
  const descrCell = s.clone().asCell();
  const tag = s.loadUint(4);
  if (tag !== 0xb && tag !== 0xa) throw new BlockParseError(`bad ShardDescr tag ${tag}`);
  const seqno = s.loadUint(32);
  const regMcSeqno = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const rootHash = s.loadBuffer(32);
  const fileHash = s.loadBuffer(32);
  s.skip(5 + 3 + 32 + 64 + 32);
  const genUtime = s.loadUint(32);
  out.push({ workchain, shard, seqno, regMcSeqno, startLt, endLt, rootHash, fileHash, genUtime, cell, descrCell });
}

/** Parses a Block BoC. `fileHash` defaults to sha256 of the bytes. */
export function parseBlock(boc: Buffer): ParsedBlock {
  let root: Cell;
  try {
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) throw new BlockParseError(`a block BoC has one root, got ${roots.length}`);
    root = roots[0];
  } catch (err) {
    if (err instanceof BlockParseError) throw err;
    throw new BlockParseError(`not a BoC: ${(err as Error).message}`);
  }
  const s = root.beginParse();
  // block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
  if (s.loadUint(32) !== 0x11ef55aa) throw new BlockParseError('not a Block (bad tag)');
  const globalId = s.loadInt(32);
  const header = loadBlockInfo(root.refs[0], globalId);
  const extra = root.refs[3].beginParse();
  // block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
  //   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra;
  if (extra.loadUint(32) !== 0x4a33f6fd) throw new BlockParseError('bad BlockExtra tag');
  extra.loadRef();
  extra.loadRef();
  const accountBlocks = extra.loadRef();
  extra.skip(512);
  const transactions: BlockTx[] = [];
  const ab = accountBlocks.beginParse();
  // ShardAccountBlocks = HashmapAugE 256 AccountBlock CurrencyCollection
  if (ab.loadBit()) {
    const accounts = Dictionary.loadDirect(
      Dictionary.Keys.BigUint(256),
      {
        serialize: () => {
          throw new Error('read only');
        },
        parse: (v: Slice) => {
          loadCurrencyCollection(v);
          // acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
          //   state_update:^(HASH_UPDATE Account) = AccountBlock;
          if (v.loadUint(4) !== 5) throw new BlockParseError('bad AccountBlock tag');
          const addr = v.loadBuffer(32);
          const txs = Dictionary.loadDirect(Dictionary.Keys.BigUint(64), txValue, v);
          return { addr, txs };
        },
      },
      ab.loadRef(),
    );
    for (const { addr, txs } of accounts.values()) {
      for (const [dictLt, cell] of txs) {
        const ts = cell.beginParse();
        // transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32 ...
        ts.skip(4 + 256);
        // The transaction's own lt, not the dictionary key: recorded chains exist where they differ
        // (acton localnet wc0:2 files lt 4 under key 3), and clients look transactions up by their lt.
        const lt = ts.loadUintBig(64);
        const prevHash = ts.loadBuffer(32);
        const prevLt = ts.loadUintBig(64);
        const now = ts.loadUint(32);
        transactions.push({ account: addr, lt, dictLt, hash: cell.hash(), cell, prevLt, prevHash, now });
      }
    }
  }
  transactions.sort((a, b) => Buffer.compare(a.account, b.account) || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const shards: ShardDescr[] = [];
  let shardHashesRoot: Cell | null = null;
  let configRoot: Cell | null = null;
  if (extra.loadBit()) {
    // masterchain_block_extra#cca5 key_extra:Bool shard_hashes:ShardHashes shard_fees:ShardFees ^[...] config:key_extra?ConfigParams
    const mc = extra.loadRef().beginParse();
    if (mc.loadUint(16) !== 0xcca5) throw new BlockParseError('bad McBlockExtra tag');
    const keyExtra = mc.loadBit();
    if (mc.loadBit()) {
      shardHashesRoot = mc.loadRef();
      // ShardHashes = HashmapE 32 ^(BinTree ShardDescr)
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), shardHashesRoot);
      for (const [wc, tree] of dict) loadShardTree(wc, tree, SHARD_ALL, shards);
    }
    if (keyExtra) {
      // shard_fees:ShardFees (HashmapAugE 32 ShardFeeCreated ShardFeeCreated) then ^[...], then config_addr + ^config
      if (mc.loadBit()) mc.loadRef();
      loadCurrencyCollection(mc);
      loadCurrencyCollection(mc);
      mc.loadRef();
      mc.skip(256);
      configRoot = mc.loadRef();
    }
  }
  const fileHash = createHash('sha256').update(boc).digest();
  return {
    id: { workchain: header.workchain, shard: header.shard, seqno: header.seqno, rootHash: root.hash(), fileHash },
    boc,
    root,
    header,
    transactions,
    shards,
    shardHashesRoot,
    configRoot,
  };
}
