/**
 * The few TL-B readers API v2 needs on liteserver answers (proofs and shard descriptions).
 * Schemas quoted from crypto/block/block.tlb (ton-blockchain/ton).
 */
import { Cell, loadShardStateUnsplit } from '@ton/core';
import { readBlockInfo, readShardHashesDict, type ShardTop } from '../../proofs/index.ts';

// The readers proof checks share with ingest live in src/proofs.
export {
  configParam,
  hashmapLookup,
  loadCatchainConfig,
  loadValidatorSet,
  prevShards,
  readBlockInfo,
  readGlobalId,
  readShardHashesDict,
  shardOf,
  type ShardTop,
} from '../../proofs/index.ts';

/** The Block cell inside a Merkle proof BoC (the proof's single ref). */
export function blockFromProof(proofBoc: Buffer, root = 0): Cell {
  const cells = Cell.fromBoc(proofBoc);
  const proof = cells[root];
  return proof.isExotic ? proof.refs[0] : proof;
}

/**
 * _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256 ... = ShardDescr;
 * (shard_descr_new#a has the same leading fields)
 */
export function readShardHashes(data: Buffer): ShardTop[] {
  const root = Cell.fromBoc(data)[0];
  const cs = root.beginParse(true);
  if (!cs.loadBit()) return [];
  return readShardHashesDict(cs.loadRef());
}

/** last_trans_lt / last_trans_hash of an account from a getAccountState state proof (ShardState). */
export function lastTxFromStateProof(proofBoc: Buffer, accountHash: Buffer): { lt: bigint; hash: Buffer } | null {
  try {
    const roots = Cell.fromBoc(proofBoc);
    const stateProof = roots[1];
    if (!stateProof) return null;
    const state = loadShardStateUnsplit(stateProof.refs[0].beginParse(true));
    const acc = state.accounts?.get(BigInt('0x' + accountHash.toString('hex')));
    if (!acc) return null;
    return { lt: acc.shardAccount.lastTransactionLt, hash: Buffer.from(acc.shardAccount.lastTransactionHash.toString(16).padStart(64, '0'), 'hex') };
  } catch {
    return null;
  }
}

/** gen_utime of the shard block in a getAccountState proof (first root: the shard block's header proof). */
export function genUtimeFromAccountProof(proofBoc: Buffer): number | null {
  try {
    return readBlockInfo(blockFromProof(proofBoc, 0)).gen_utime;
  } catch {
    return null;
  }
}

/** The ConfigParams dictionary cell from a getConfigAll / getConfigParams config proof (ShardStateUnsplit -> McStateExtra). */
export function configFromProof(configProofBoc: Buffer): Cell {
  const proof = Cell.fromBoc(configProofBoc)[0];
  const stateCell = proof.isExotic ? proof.refs[0] : proof;
  // shard_state#9023afe2 ... ^[...] custom:(Maybe ^McStateExtra) = ShardStateUnsplit; custom is the last ref
  const s = stateCell.beginParse(true);
  if (s.loadUint(32) !== 0x9023afe2) throw new Error('config proof does not hold a ShardStateUnsplit');
  const refs = stateCell.refs;
  // out_msg_queue_info, accounts, ^[overload...], custom?: McStateExtra is the 4th ref when present.
  const extra = refs[3];
  if (!extra) throw new Error('config proof has no McStateExtra');
  // masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ...
  // _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;
  const es = extra.beginParse(true);
  if (es.loadUint(16) !== 0xcc26) throw new Error('McStateExtra tag mismatch');
  if (es.loadBit()) es.loadRef(); // shard_hashes (HashmapE)
  es.loadBuffer(32);
  return es.loadRef();
}

