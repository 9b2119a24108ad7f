/**
 * Block decoder: Block BoC bytes in, typed rows out (see ./types.ts). Pure, synchronous.
 *
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState)
 *   extra:^BlockExtra = Block;
 * block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
 *   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra;   (implicit tag #4a33f6fd)
 * _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;
 * acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
 *   state_update:^(HASH_UPDATE Account) = AccountBlock;
 * !merkle_update#02 {X:Type} old_hash:bits256 new_hash:bits256 old:^X new:^X = MERKLE_UPDATE X;
 */
import { createHash } from 'node:crypto';
import { CELL_MERKLE_PROOF, CELL_MERKLE_UPDATE, parseBoc, type Cells } from '../cell/boc.ts';
import { sha256Input, sha256Scratch } from '../cell/sha256.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { readAccount, readShardAccounts, type ShardAccountLeaf } from '../tlb/account.ts';
import { readBlockInfo, type BlockInfo, type BlockRef } from '../tlb/block-info.ts';
import { rawAddress, skipCurrencyCollection } from '../tlb/common.ts';
import { walkHashmapE, walkHashmapInline } from '../tlb/hashmap.ts';
import { readMcBlockExtra } from '../tlb/mc-extra.ts';
import { readTransaction, type TransactionRow } from '../tlb/transaction.ts';
import { deriveAccountStates } from './states.ts';
import type { AccountStateRow, BlockHeader, DecodedBlock, TransactionStateRow } from './types.ts';

/** Hash of the `account_none$0` cell: the state hash of an account that does not exist. */
export const ACCOUNT_NONE_HASH: string = (() => {
  const out = Buffer.alloc(32);
  sha256Input[0] = 0;
  sha256Input[1] = 1;
  sha256Input[2] = 0x40;
  sha256Scratch(3, out, 0);
  return out.toString('hex');
})();

/** sha256 of the BoC bytes as received (the block's file hash when the bytes are the node's serialization). */
export function fileHash(boc: Uint8Array): string {
  return createHash('sha256').update(boc).digest('hex');
}

function openBlock(boc: Uint8Array, parsed?: Cells): { cells: Cells; root: number; s: Slice } {
  if (!(boc instanceof Uint8Array)) throw new DecodeError('block BoC must be bytes');
  const cells = parsed ?? parseBoc(boc);
  const root = cells.roots[0];
  if (cells.type[root] === CELL_MERKLE_PROOF) throw new DecodeError('not a block: the BoC root is a Merkle proof (a block proof, not a full block)');
  if (cells.type[root] !== 0) throw new DecodeError(`not a block: the BoC root is an exotic cell (type ${cells.type[root]})`);
  const s = Slice.of(cells, root, 'Block');
  if (s.bitsLeft < 32) throw new DecodeError(`not a block: root cell has ${s.bitsLeft} bits`);
  const tag = s.uint(32);
  if (tag !== 0x11ef55aa) throw new DecodeError(`not a block: root cell tag is 0x${tag.toString(16).padStart(8, '0')}, expected block#11ef55aa`);
  if (s.refsLeft !== 4) throw new DecodeError(`not a block: root cell has ${s.refsLeft} refs, expected 4`);
  return { cells, root, s };
}

/** Representation hash of the block root cell (hashes every cell of the BoC). */
export function blockRootHash(boc: Uint8Array): string {
  const cells = parseBoc(boc);
  return cells.hashHex(cells.roots[0]);
}

/** id, global_id and BlockInfo, without transactions or states. `parsed`: `parseBoc(boc)` done already. */
export function decodeBlockHeader(boc: Uint8Array, parsed?: Cells): BlockHeader {
  const { cells, root, s } = openBlock(boc, parsed);
  const global_id = s.int(32);
  const info = readBlockInfo(cells, s.loadRef());
  return {
    id: { workchain: info.workchain, shard: info.shard, seqno: info.seqno, root_hash: cells.hashHex(root), file_hash: fileHash(boc) },
    global_id,
    info,
  };
}

/**
 * Decode a full Block BoC (as liteServer.getBlock returns it). Throws DecodeError for anything else.
 * `parsed`: `parseBoc(boc)` done already (hashing every cell is the larger part of a decode). `rebuildStates: false`
 * derives the states between transactions by the rules alone (./states.ts; for tests).
 */
export function decodeBlock(boc: Uint8Array, parsed?: Cells, opts: { rebuildStates?: boolean } = {}): DecodedBlock {
  const { cells, root, s } = openBlock(boc, parsed);
  const global_id = s.int(32);
  const info = readBlockInfo(cells, s.loadRef());
  s.loadRef(); // value_flow
  const update = readStateUpdate(cells, s.loadRef());
  const extra = readBlockExtra(cells, s.loadRef());
  const touched = readAccountBlocks(cells, extra.accountBlocks, info);

  // account states after the block
  const leaves = readShardAccounts(cells, update.newState);
  const between = statesBetween(cells, touched, leaves, update.oldState, info, opts.rebuildStates);
  const account_states = statesAfter(cells, touched, leaves, info);

  let shards: DecodedBlock['shards'] = null;
  let config: DecodedBlock['config'] = null;
  if (extra.mcExtra >= 0) {
    const mc = readMcBlockExtra(cells, extra.mcExtra);
    shards = mc.shards;
    config = mc.config;
  }

  return {
    id: { workchain: info.workchain, shard: info.shard, seqno: info.seqno, root_hash: cells.hashHex(root), file_hash: fileHash(boc) },
    global_id,
    info,
    rand_seed: extra.rand_seed,
    created_by: extra.created_by,
    state_update: update.state_update,
    transactions: touched.transactions,
    account_states,
    states_before: between.states_before,
    intermediate_states: between.intermediate_states,
    shards,
    config,
  };
}

/** state_update: the MERKLE_UPDATE exotic cell, its two hashes and the old and new ShardState cells. */
function readStateUpdate(cells: Cells, updateCell: number): { state_update: DecodedBlock['state_update']; oldState: number; newState: number } {
  if (cells.type[updateCell] !== CELL_MERKLE_UPDATE) throw new DecodeError('Block: state_update is not a Merkle update cell (not a full block?)');
  const uoff = cells.dataOff[updateCell];
  return {
    state_update: {
      old_hash: cells.buf.toString('hex', uoff + 1, uoff + 33),
      new_hash: cells.buf.toString('hex', uoff + 33, uoff + 65),
    },
    oldState: cells.refs[updateCell * 4],
    newState: cells.refs[updateCell * 4 + 1],
  };
}

/** BlockExtra: the account blocks, rand_seed, created_by and the McBlockExtra cell (-1 in a shard block). */
function readBlockExtra(cells: Cells, extraCell: number): { accountBlocks: Slice; rand_seed: string; created_by: string; mcExtra: number } {
  const x = Slice.of(cells, extraCell, 'BlockExtra');
  const xtag = x.uint(32);
  if (xtag !== 0x4a33f6fd) throw new DecodeError(`BlockExtra: bad tag 0x${xtag.toString(16)} (expected block_extra#4a33f6fd)`);
  x.loadRef(); // in_msg_descr
  x.loadRef(); // out_msg_descr
  const accountBlocks = x.refSlice('ShardAccountBlocks');
  const rand_seed = x.hash();
  const created_by = x.hash();
  const mcExtra = x.bit() ? x.loadRef() : -1;
  return { accountBlocks, rand_seed, created_by, mcExtra };
}

/** The block's transactions (lt order, then account), and per account (hex address) its last one and all of them. */
interface TouchedAccounts {
  transactions: TransactionRow[];
  lastTx: Map<string, TransactionRow>;
  txsOf: Map<string, TransactionRow[]>;
}

/** ShardAccountBlocks: every transaction of every account block, read and tagged with the block. */
function readAccountBlocks(cells: Cells, accountBlocks: Slice, info: BlockInfo): TouchedAccounts {
  const { workchain } = info;
  const globalVersion = info.gen_software?.version ?? 0;
  const blockRef: BlockRef = { workchain, shard: info.shard, seqno: info.seqno };
  const transactions: TransactionRow[] = [];
  const lastTx = new Map<string, TransactionRow>();
  const txsOf = new Map<string, TransactionRow[]>();
  walkHashmapE(accountBlocks, 256, (_key, v) => {
    skipCurrencyCollection(v); // aug extra
    const tag = v.uint(4);
    if (tag !== 0x5) throw new DecodeError(`AccountBlock: bad tag 0x${tag.toString(16)} (expected acc_trans#5)`);
    const addr = v.hex(256, true);
    walkHashmapInline(v, 64, (_k, t) => {
      skipCurrencyCollection(t); // aug extra
      const txCell = t.loadRef();
      let tx: TransactionRow;
      try {
        tx = readTransaction(cells, txCell, workchain, globalVersion);
      } catch (e) {
        if (e instanceof DecodeError) throw new DecodeError(`transaction ${cells.hashHex(txCell)} of account ${workchain}:${addr}: ${e.message}`);
        throw e;
      }
      tx.block_ref = blockRef;
      transactions.push(tx);
      const prev = lastTx.get(addr);
      if (!prev || prev.lt < tx.lt) lastTx.set(addr, tx);
      const list = txsOf.get(addr);
      if (list) list.push(tx);
      else txsOf.set(addr, [tx]);
    }, false, 'AccountBlock transactions');
  }, false, 'ShardAccountBlocks');
  transactions.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return { transactions, lastTx, txsOf };
}

type ShardAccountLeaves = Map<string, ShardAccountLeaf>;

/** Per touched account: its state before its first transaction, and after each of its transactions but the last. */
function statesBetween(
  cells: Cells,
  touched: TouchedAccounts,
  leaves: ShardAccountLeaves,
  oldState: number,
  info: BlockInfo,
  rebuild: boolean | undefined,
): { states_before: TransactionStateRow[]; intermediate_states: TransactionStateRow[] } {
  const { lastTx, txsOf } = touched;
  const globalVersion = info.gen_software?.version ?? 0;
  const states_before: TransactionStateRow[] = [];
  const intermediate_states: TransactionStateRow[] = [];
  // the old ShardState is read only for the states before: a layout this reader does not know leaves them to the rules
  let oldLeaves = new Map<string, { account: number }>();
  try {
    if (txsOf.size > 0) oldLeaves = readShardAccounts(cells, oldState);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
  }
  for (const addr of [...lastTx.keys()].sort()) {
    const txs = txsOf.get(addr)!.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    const leaf = leaves.get(addr);
    let derived: ReturnType<typeof deriveAccountStates> = null;
    try {
      derived = deriveAccountStates(cells, txs, oldLeaves.get(addr)?.account ?? -1, leaf ? leaf.account : -1, !leaf, globalVersion, { rebuild });
    } catch (e) {
      // an Account cell this reader does not know: the states stay underived (their hashes render alone), the block decodes
      if (!(e instanceof DecodeError)) throw e;
    }
    if (!derived) continue;
    const account = rawAddress(info.workchain, addr);
    derived.states.forEach((st, i) => {
      if (i === txs.length) return;
      const row: TransactionStateRow = {
        account,
        hash: st.hash,
        last_trans_hash: i === 0 ? txs[0].prev_trans_hash : txs[i - 1].hash,
        last_trans_lt: i === 0 ? txs[0].prev_trans_lt : txs[i - 1].lt,
        balance: st.balance,
        balance_extra_currencies: st.balance_extra_currencies,
        account_status: st.account_status,
        frozen_hash: st.frozen_hash,
        code_hash: st.code_hash,
        data_hash: st.data_hash,
        complete: st.complete,
        proof: st.proof,
        timestamp: info.gen_utime,
      };
      (i === 0 ? states_before : intermediate_states).push(row);
    });
  }
  return { states_before, intermediate_states };
}

/** Per touched account (address order): its state after the block, from the new ShardState (nonexist when deleted). */
function statesAfter(cells: Cells, touched: TouchedAccounts, leaves: ShardAccountLeaves, info: BlockInfo): AccountStateRow[] {
  const { lastTx } = touched;
  const account_states: AccountStateRow[] = [];
  for (const addr of [...lastTx.keys()].sort()) {
    const leaf = leaves.get(addr);
    const last = lastTx.get(addr)!;
    const account = rawAddress(info.workchain, addr);
    if (!leaf) {
      // deleted accounts leave the ShardAccounts dictionary
      account_states.push({
        account,
        hash: ACCOUNT_NONE_HASH,
        last_trans_hash: last.hash,
        last_trans_lt: last.lt,
        balance: 0n,
        balance_extra_currencies: null,
        account_status: 'nonexist',
        frozen_hash: null,
        code_hash: null,
        data_hash: null,
        code_boc: null,
        data_boc: null,
        data_root_boc: null,
        timestamp: info.gen_utime,
      });
      continue;
    }
    const a = readAccount(cells, leaf.account);
    account_states.push({
      account,
      hash: cells.hash0Hex(leaf.account),
      last_trans_hash: leaf.last_trans_hash,
      last_trans_lt: leaf.last_trans_lt,
      balance: a.balance,
      balance_extra_currencies: a.extra,
      account_status: a.status,
      frozen_hash: a.frozen_hash,
      code_hash: a.code_hash,
      data_hash: a.data_hash,
      code_boc: a.code_boc,
      data_boc: a.data_boc,
      data_root_boc: a.data_root_boc,
      timestamp: info.gen_utime,
    });
  }
  return account_states;
}
