/**
 * The writers of a Block and its parts (crypto/block/block.tlb, ton-blockchain/ton), beside decode.ts, which reads
 * them: ValueFlow, InMsgDescr, OutMsgDescr, ShardAccountBlocks, BlockExtra. BlockInfo's writer is tlb/block-info.ts,
 * McBlockExtra's tlb/mc-extra.ts. The devnet builds its blocks with them.
 */
import { beginCell, type Builder, type Cell } from '@ton/core';
import { currencyAug, storeCurrencyCollection } from '../tlb/common.ts';
import { hashmapAugECell, storeHashmapAug, type AugEntry, type AugKind } from '../tlb/hashmap.ts';

export interface ValueFlow {
  fromPrevBlk: bigint;
  toNextBlk: bigint;
  imported: bigint;
  exported: bigint;
  feesCollected: bigint;
  feesImported: bigint;
  recovered: bigint;
  created: bigint;
  minted: bigint;
}

/**
 * value_flow#b8e48dfb ^[ from_prev_blk:CurrencyCollection to_next_blk:CurrencyCollection
 *   imported:CurrencyCollection exported:CurrencyCollection ] fees_collected:CurrencyCollection
 *   ^[ fees_imported:CurrencyCollection recovered:CurrencyCollection created:CurrencyCollection
 *      minted:CurrencyCollection ] = ValueFlow;
 */
export function valueFlowCell(v: ValueFlow): Cell {
  const first = beginCell();
  for (const x of [v.fromPrevBlk, v.toNextBlk, v.imported, v.exported]) storeCurrencyCollection(first, x);
  const second = beginCell();
  for (const x of [v.feesImported, v.recovered, v.created, v.minted]) storeCurrencyCollection(second, x);
  const b = beginCell().storeUint(0xb8e48dfb, 32).storeRef(first.endCell());
  storeCurrencyCollection(b, v.feesCollected);
  return b.storeRef(second.endCell()).endCell();
}

/**
 * interm_addr_regular$0 use_dest_bits:(#<= 96) = IntermediateAddress;
 * msg_envelope#4 cur_addr:IntermediateAddress next_addr:IntermediateAddress fwd_fee_remaining:Grams
 *   msg:^(Message Any) = MsgEnvelope;
 */
export function msgEnvelopeCell(msg: Cell, curBits: number, nextBits: number, fwdFeeRemaining: bigint): Cell {
  return beginCell()
    .storeUint(4, 4)
    .storeBit(0)
    .storeUint(curBits, 7)
    .storeBit(0)
    .storeUint(nextBits, 7)
    .storeCoins(fwdFeeRemaining)
    .storeRef(msg)
    .endCell();
}

export interface ImportFees {
  feesCollected: bigint;
  valueImported: bigint;
}

/** import_fees$_ fees_collected:Grams value_imported:CurrencyCollection = ImportFees; */
const importFeesAug: AugKind<ImportFees> = {
  store: (b, v) => {
    b.storeCoins(v.feesCollected);
    storeCurrencyCollection(b, v.valueImported);
  },
  add: (a, b) => ({ feesCollected: a.feesCollected + b.feesCollected, valueImported: a.valueImported + b.valueImported }),
  zero: { feesCollected: 0n, valueImported: 0n },
};

export type InMsg =
  /** msg_import_ext$000 msg:^(Message Any) transaction:^Transaction = InMsg; */
  | { kind: 'ext'; msgHash: Buffer; msg: Cell; tx: Cell }
  /** msg_import_fin$100 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams = InMsg; */
  | { kind: 'fin'; msgHash: Buffer; msg: Cell; tx: Cell; fwdFee: bigint; value: bigint };

function storeInMsg(b: Builder, m: InMsg): void {
  if (m.kind === 'ext') {
    b.storeUint(0b000, 3).storeRef(m.msg).storeRef(m.tx);
  } else {
    b.storeUint(0b100, 3).storeRef(msgEnvelopeCell(m.msg, 96, 96, 0n)).storeRef(m.tx).storeCoins(m.fwdFee);
  }
}

/** _ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr; */
export function inMsgDescrCell(msgs: InMsg[]): Cell {
  const entries: AugEntry<ImportFees>[] = msgs.map((m) => ({
    key: BigInt('0x' + m.msgHash.toString('hex')),
    extra: m.kind === 'ext' ? importFeesAug.zero : { feesCollected: m.fwdFee, valueImported: m.value + m.fwdFee },
    value: (b: Builder) => storeInMsg(b, m),
  }));
  return hashmapAugECell(importFeesAug, 256, entries).cell;
}

export type OutMsg =
  /** msg_export_ext$000 msg:^(Message Any) transaction:^Transaction = OutMsg; */
  | { kind: 'ext'; msgHash: Buffer; msg: Cell; tx: Cell }
  /** msg_export_new$001 out_msg:^MsgEnvelope transaction:^Transaction = OutMsg; */
  | { kind: 'new'; msgHash: Buffer; msg: Cell; tx: Cell; fwdFee: bigint; value: bigint };

function storeOutMsg(b: Builder, m: OutMsg): void {
  if (m.kind === 'ext') {
    b.storeUint(0b000, 3).storeRef(m.msg).storeRef(m.tx);
  } else {
    b.storeUint(0b001, 3).storeRef(msgEnvelopeCell(m.msg, 0, 96, m.fwdFee)).storeRef(m.tx);
  }
}

/** _ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr; */
export function outMsgDescrCell(msgs: OutMsg[]): Cell {
  const entries: AugEntry<bigint>[] = msgs.map((m) => ({
    key: BigInt('0x' + m.msgHash.toString('hex')),
    extra: m.kind === 'ext' ? 0n : m.value + m.fwdFee,
    value: (b: Builder) => storeOutMsg(b, m),
  }));
  return hashmapAugECell(currencyAug, 256, entries).cell;
}

export interface AccountBlockTx {
  lt: bigint;
  cell: Cell;
  totalFees: bigint;
}

export interface AccountBlock {
  id: bigint;
  txs: AccountBlockTx[];
  oldAccountHash: Buffer;
  newAccountHash: Buffer;
}

/**
 * acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
 *   state_update:^(HASH_UPDATE Account) = AccountBlock;
 * update_hashes#72 {X:Type} old_hash:bits256 new_hash:bits256 = HASH_UPDATE X;
 * _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;
 */
export function shardAccountBlocksCell(blocks: AccountBlock[]): Cell {
  const entries: AugEntry<bigint>[] = blocks.map((a) => ({
    key: a.id,
    extra: a.txs.reduce((s, t) => s + t.totalFees, 0n),
    value: (b: Builder) => {
      b.storeUint(5, 4).storeUint(a.id, 256);
      storeHashmapAug(
        b,
        currencyAug,
        64,
        a.txs.map((t) => ({ key: t.lt, extra: t.totalFees, value: (vb: Builder) => vb.storeRef(t.cell) })),
      );
      b.storeRef(beginCell().storeUint(0x72, 8).storeBuffer(a.oldAccountHash, 32).storeBuffer(a.newAccountHash, 32).endCell());
    },
  }));
  return hashmapAugECell(currencyAug, 256, entries).cell;
}

/**
 * block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
 *   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra;
 * (tlbc's constructor tag for block_extra is #4a33f6fd.)
 */
export function blockExtraCell(inMsgDescr: Cell, outMsgDescr: Cell, accountBlocks: Cell, randSeed: Buffer, createdBy: Buffer, custom: Cell | null): Cell {
  const b = beginCell()
    .storeUint(0x4a33f6fd, 32)
    .storeRef(inMsgDescr)
    .storeRef(outMsgDescr)
    .storeRef(accountBlocks)
    .storeBuffer(randSeed, 32)
    .storeBuffer(createdBy, 32);
  if (custom) b.storeBit(1).storeRef(custom);
  else b.storeBit(0);
  return b.endCell();
}

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 *   state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 */
export function blockCell(globalId: number, info: Cell, valueFlow: Cell, stateUpdate: Cell, extra: Cell): Cell {
  return beginCell().storeUint(0x11ef55aa, 32).storeInt(globalId, 32).storeRef(info).storeRef(valueFlow).storeRef(stateUpdate).storeRef(extra).endCell();
}

