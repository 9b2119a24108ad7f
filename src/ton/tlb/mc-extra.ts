/**
 * Masterchain block extra: shard descriptors and (key blocks) config params (crypto/block/block.tlb); beside the
 * ShardDescr reader, its writer (the devnet's; test/ton/tlb-write.test.ts round-trips them).
 */
import { beginCell, Dictionary, type Builder, type Cell } from '@ton/core';
import { shardChildren } from '../../format/index.ts';
import type { Cells } from '../cell/boc.ts';
import { serializeBoc } from '../cell/std-boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { loadCurrencyCollection, type ExtraCurrencies, rawAddress, shardChild, shardHex, skipCurrencyCollection, storeCurrencyCollection } from './common.ts';
import { keyToNumber, keyToSigned, walkHashmap, walkHashmapE } from './hashmap.ts';

/** `split_merge_at:FutureSplitMerge` (fsm_none / fsm_split / fsm_merge). */
export interface FutureSplitMerge {
  type: 'none' | 'split' | 'merge';
  utime: number | null;
  interval: number | null;
}

/** One shard descriptor of `masterchain_block_extra#cca5` ShardHashes (`shard_descr#b` or `shard_descr_new#a`). */
export interface ShardDescr {
  workchain: number;
  /** resolved from the BinTree path */
  shard: string;
  seqno: number;
  reg_mc_seqno: number;
  start_lt: bigint;
  end_lt: bigint;
  root_hash: string;
  file_hash: string;
  before_split: boolean;
  before_merge: boolean;
  want_split: boolean;
  want_merge: boolean;
  nx_cc_updated: boolean;
  flags: number;
  next_catchain_seqno: number;
  /** uint64 as 16-digit upper-case hex */
  next_validator_shard: string;
  min_ref_mc_seqno: number;
  gen_utime: number;
  split_merge_at: FutureSplitMerge;
  fees_collected: bigint;
  fees_collected_extra_currencies: ExtraCurrencies;
  funds_created: bigint;
  funds_created_extra_currencies: ExtraCurrencies;
  /** which constructor the chain used: `b` = shard_descr#b (fees inline), `a` = shard_descr_new#a (fees in a ref) */
  descr_tag: 'a' | 'b';
}

/** One ConfigParams entry: the param's value cell as it is in the block. */
export interface ConfigParamCell {
  id: number;
  /** representation hash of the param's value cell */
  hash: string;
  /** standard base64 BoC of the value cell (may contain pruned branches if the block carried them) */
  boc: string;
}

/** `validators#11` / `validators_ext#12` summary (ConfigParam 32..37). */
export interface ValidatorSetSummary {
  utime_since: number;
  utime_until: number;
  total: number;
  main: number;
  /** only in validators_ext#12 */
  total_weight: bigint | null;
}

/** `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;` (key blocks only). */
export interface BlockConfig {
  /** config smart contract, raw `-1:HEX` */
  config_addr: string;
  /** every param, ascending id */
  params: ConfigParamCell[];
  /** ConfigParam 0/1/2 as raw `-1:HEX` (null when absent) */
  config_address: string | null;
  elector_address: string | null;
  minter_address: string | null;
  /** ConfigParam 34 summary (null when absent/unreadable) */
  cur_validators: ValidatorSetSummary | null;
}

/**
 * fsm_none$0 = FutureSplitMerge;
 * fsm_split$10 split_utime:uint32 interval:uint32 = FutureSplitMerge;
 * fsm_merge$11 merge_utime:uint32 interval:uint32 = FutureSplitMerge;
 */
function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.bit()) return { type: 'none', utime: null, interval: null };
  const type = s.bit() ? 'merge' : 'split';
  return { type, utime: s.uint(32), interval: s.uint(32) };
}

export function storeFutureSplitMerge(b: Builder, f: FutureSplitMerge): void {
  if (f.type === 'none') {
    b.storeBit(0);
    return;
  }
  if (f.utime === null || f.interval === null) throw new Error(`FutureSplitMerge: fsm_${f.type} needs utime and interval`);
  b.storeUint(f.type === 'merge' ? 0b11 : 0b10, 2).storeUint(f.utime, 32).storeUint(f.interval, 32);
}

/**
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256
 *   before_split:Bool before_merge:Bool want_split:Bool want_merge:Bool nx_cc_updated:Bool flags:(## 3) { flags = 0 }
 *   next_catchain_seqno:uint32 next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32
 *   split_merge_at:FutureSplitMerge fees_collected:CurrencyCollection funds_created:CurrencyCollection = ShardDescr;
 * shard_descr_new#a … split_merge_at:FutureSplitMerge
 *   ^[ fees_collected:CurrencyCollection funds_created:CurrencyCollection ] = ShardDescr;
 */
export function loadShardDescr(s: Slice, workchain: number, shard: bigint): ShardDescr {
  const tag = s.uint(4);
  if (tag !== 0xb && tag !== 0xa) throw new DecodeError(`ShardDescr: bad tag 0x${tag.toString(16)}`);
  const seqno = s.uint(32);
  const reg_mc_seqno = s.uint(32);
  const start_lt = s.uint64();
  const end_lt = s.uint64();
  const root_hash = s.hash();
  const file_hash = s.hash();
  const before_split = s.bit();
  const before_merge = s.bit();
  const want_split = s.bit();
  const want_merge = s.bit();
  const nx_cc_updated = s.bit();
  const flags = s.uint(3);
  const next_catchain_seqno = s.uint(32);
  const next_validator_shard = shardHex(s.uint64());
  const min_ref_mc_seqno = s.uint(32);
  const gen_utime = s.uint(32);
  const split_merge_at = loadFutureSplitMerge(s);
  const fs = tag === 0xa ? s.refSlice('ShardDescr fees') : s;
  const fees = loadCurrencyCollection(fs);
  const funds = loadCurrencyCollection(fs);
  return {
    workchain,
    shard: shardHex(shard),
    seqno,
    reg_mc_seqno,
    start_lt,
    end_lt,
    root_hash,
    file_hash,
    before_split,
    before_merge,
    want_split,
    want_merge,
    nx_cc_updated,
    flags,
    next_catchain_seqno,
    next_validator_shard,
    min_ref_mc_seqno,
    gen_utime,
    split_merge_at,
    fees_collected: fees.grams,
    fees_collected_extra_currencies: fees.extra,
    funds_created: funds.grams,
    funds_created_extra_currencies: funds.extra,
    descr_tag: tag === 0xa ? 'a' : 'b',
  };
}

/** The writer of loadShardDescr, either constructor (`descr_tag`); workchain and shard are the BinTree's, not stored here. */
export function storeShardDescr(b: Builder, d: ShardDescr): void {
  if (d.flags !== 0) throw new Error('ShardDescr: flags must be 0');
  b.storeUint(d.descr_tag === 'a' ? 0xa : 0xb, 4)
    .storeUint(d.seqno, 32)
    .storeUint(d.reg_mc_seqno, 32)
    .storeUint(d.start_lt, 64)
    .storeUint(d.end_lt, 64)
    .storeBuffer(Buffer.from(d.root_hash, 'hex'), 32)
    .storeBuffer(Buffer.from(d.file_hash, 'hex'), 32)
    .storeBit(d.before_split)
    .storeBit(d.before_merge)
    .storeBit(d.want_split)
    .storeBit(d.want_merge)
    .storeBit(d.nx_cc_updated)
    .storeUint(d.flags, 3)
    .storeUint(d.next_catchain_seqno, 32)
    .storeUint(BigInt('0x' + d.next_validator_shard), 64)
    .storeUint(d.min_ref_mc_seqno, 32)
    .storeUint(d.gen_utime, 32);
  storeFutureSplitMerge(b, d.split_merge_at);
  const fees = d.descr_tag === 'a' ? beginCell() : b;
  storeCurrencyCollection(fees, d.fees_collected, d.fees_collected_extra_currencies);
  storeCurrencyCollection(fees, d.funds_created, d.funds_created_extra_currencies);
  if (fees !== b) b.storeRef(fees.endCell());
}

/** bt_leaf$0 {X:Type} leaf:X = BinTree X; bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X; */
function walkShardTree(cells: Cells, cell: number, workchain: number, shard: bigint, out: ShardDescr[]): void {
  const s = Slice.of(cells, cell, 'BinTree ShardDescr');
  if (!s.bit()) {
    out.push(loadShardDescr(s, workchain, shard));
    return;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  walkShardTree(cells, left, workchain, shardChild(shard, false), out);
  walkShardTree(cells, right, workchain, shardChild(shard, true), out);
}

/** _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams; */
function loadConfigParams(s: Slice): BlockConfig {
  const cells = s.cells;
  const addrHex = s.hex(256, true);
  const root = s.loadRef();
  const params: ConfigParamCell[] = [];
  const byId = new Map<number, number>();
  walkHashmap(cells, root, 32, (key, v) => {
    const id = keyToSigned(key);
    const c = v.loadRef();
    byId.set(id, c);
    params.push({ id, hash: cells.hashHex(c), boc: serializeBoc(cells, c).toString('base64') });
  }, true, 'ConfigParams');
  params.sort((a, b) => a.id - b.id);
  const addrParam = (id: number): string | null => {
    const c = byId.get(id);
    if (c === undefined || cells.type[c] !== 0 || cells.bits[c] < 256) return null;
    return rawAddress(-1, new Slice(cells, c).hex(256, true));
  };
  let cur_validators: ValidatorSetSummary | null = null;
  const p34 = byId.get(34);
  if (p34 !== undefined && cells.type[p34] === 0) {
    try {
      cur_validators = loadValidatorSetSummary(new Slice(cells, p34));
    } catch {
      cur_validators = null;
    }
  }
  return {
    config_addr: rawAddress(-1, addrHex),
    params,
    config_address: addrParam(0),
    elector_address: addrParam(1),
    minter_address: addrParam(2),
    cur_validators,
  };
}

/**
 * validators#11 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   list:(Hashmap 16 ValidatorDescr) = ValidatorSet;
 * validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;
 */
function loadValidatorSetSummary(s: Slice): ValidatorSetSummary {
  const tag = s.uint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new DecodeError(`ValidatorSet: bad tag 0x${tag.toString(16)}`);
  const utime_since = s.uint(32);
  const utime_until = s.uint(32);
  const total = s.uint(16);
  const main = s.uint(16);
  const total_weight = tag === 0x12 ? s.uint64() : null;
  return { utime_since, utime_until, total, main, total_weight };
}

/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
 *   config:key_block?ConfigParams = McBlockExtra;
 * _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
 * _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees;
 * _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated;
 */
export function readMcBlockExtra(cells: Cells, cell: number): { shards: ShardDescr[]; config: BlockConfig | null } {
  const s = Slice.of(cells, cell, 'McBlockExtra');
  const tag = s.uint(16);
  if (tag !== 0xcca5) throw new DecodeError(`McBlockExtra: bad tag 0x${tag.toString(16)} (expected masterchain_block_extra#cca5)`);
  const keyBlock = s.bit();
  const shards: ShardDescr[] = [];
  walkHashmapE(s, 32, (key, v) => {
    walkShardTree(cells, v.loadRef(), keyToNumber(key) | 0, 1n << 63n, shards);
  }, false, 'ShardHashes');
  // shard_fees: root bit (+ref), then the aug extra ShardFeeCreated
  if (s.bit()) s.loadRef();
  skipCurrencyCollection(s);
  skipCurrencyCollection(s);
  s.loadRef(); // ^[ prev_blk_signatures recover_create_msg mint_msg ]
  const config = keyBlock ? loadConfigParams(s) : null;
  return { shards, config };
}

/**
 * bt_leaf$0 {X:Type} leaf:X = BinTree X;
 * bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
 */
function binTree(descrs: ShardDescr[], shard: bigint): Cell {
  const own = descrs.find((d) => BigInt('0x' + d.shard) === shard);
  const b = beginCell();
  if (own) {
    b.storeBit(0);
    storeShardDescr(b, own);
    return b.endCell();
  }
  if ((shard & 1n) === 1n) throw new Error(`no shard descriptor covers ${shard.toString(16)}`);
  const [l, r] = shardChildren(shard);
  return b.storeBit(1).storeRef(binTree(descrs, l)).storeRef(binTree(descrs, r)).endCell();
}

/** _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes; */
export function storeShardHashes(b: Builder, descrs: ShardDescr[]): void {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const wcs = [...new Set(descrs.map((d) => d.workchain))].sort((a, c) => a - c);
  for (const wc of wcs) {
    dict.set(
      wc,
      binTree(
        descrs.filter((d) => d.workchain === wc),
        0x8000000000000000n,
      ),
    );
  }
  b.storeDict(dict);
}

export interface McBlockExtra {
  keyBlock: boolean;
  shards: ShardDescr[];
  /** Config dict root (Hashmap 32 ^Cell) and config address: key blocks only. */
  config: { addr: Buffer; root: Cell } | null;
}

/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg)
 *      mint_msg:(Maybe ^InMsg) ] config:key_block?ConfigParams = McBlockExtra;
 * _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated;
 * _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees;
 */
export function mcBlockExtraCell(m: McBlockExtra): Cell {
  const b = beginCell().storeUint(0xcca5, 16).storeBit(m.keyBlock);
  storeShardHashes(b, m.shards);
  // ShardFees left empty: ahme_empty$0 extra:ShardFeeCreated (zero fees, zero created).
  b.storeBit(0);
  storeCurrencyCollection(b, 0n);
  storeCurrencyCollection(b, 0n);
  b.storeRef(beginCell().storeBit(0).storeBit(0).storeBit(0).endCell());
  if (m.keyBlock) {
    if (!m.config) throw new Error('a key block carries the config');
    b.storeBuffer(m.config.addr, 32).storeRef(m.config.root);
  }
  return b.endCell();
}
