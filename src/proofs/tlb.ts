/**
 * The TL-B readers proof checks need: block headers, shard descriptions, config params, validator sets.
 * They work on Merkle proof trees (only the cells on the path read are needed). Beside them, the writers of
 * validator sets, block signatures and block proofs the devnet serves.
 * Schemas quoted from crypto/block/block.tlb (ton-blockchain/ton).
 */
import { beginCell, convertToMerkleProof, Dictionary, type Builder, type Cell, type DictionaryValue, type Slice } from '@ton/core';
import { shardChildren, shardParent } from '../format/index.ts';
import { prunedBranch, readBlockInfoCell, storeShardIdent, type BlockInfo, type CatchainConfig, type ValidatorDescr, type ValidatorSet } from '../ton/index.ts';

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 * The BlockInfo of a Block cell (in a header proof only the cells read need be there), read by src/ton's reader.
 */
export function readBlockInfo(block: Cell): BlockInfo {
  const tag = block.beginParse(true).loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`not a Block cell (tag 0x${tag.toString(16)})`);
  return readBlockInfoCell(block.refs[0]);
}

/** The global_id of a Block cell. */
export function readGlobalId(block: Cell): number {
  return block.beginParse(true).skip(32).loadInt(32);
}

/** The shard of a BlockInfo (or a block reference) as the unsigned 64-bit id. */
export const shardOf = (r: { shard: string }): bigint => BigInt('0x' + r.shard);

/** Shards of the previous blocks: children after a merge, the parent after a split, else the same shard. */
export function prevShards(info: BlockInfo): bigint[] {
  const shard = shardOf(info);
  if (info.after_merge) return shardChildren(shard);
  if (info.after_split) return [shardParent(shard)];
  return [shard];
}

export interface ShardTop {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
}

/** The shard tops of a ShardHashes dictionary root (the Hashmap 32 cell a non-empty HashmapE refers to). */
export function readShardHashesDict(dictRoot: Cell): ShardTop[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), dictRoot);
  const out: ShardTop[] = [];
  for (const [wc, treeRef] of dict) {
    // Values.Cell() already follows the ^ of ^(BinTree ShardDescr): treeRef is the tree root.
    const stack: { cell: Cell; shard: bigint }[] = [{ cell: treeRef, shard: 1n << 63n }];
    while (stack.length > 0) {
      const { cell, shard } = stack.pop()!;
      const s = cell.beginParse(true);
      if (!s.loadBit()) {
        s.loadUint(4);
        const seqno = s.loadUint(32);
        s.loadUint(32);
        const startLt = s.loadUintBig(64);
        const endLt = s.loadUintBig(64);
        out.push({ workchain: wc, shard, seqno, rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32), startLt, endLt });
        continue;
      }
      const delta = (shard & -shard) >> 1n;
      stack.push({ cell: s.loadRef(), shard: shard - delta });
      stack.push({ cell: s.loadRef(), shard: shard + delta });
    }
  }
  return out.sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
}

/**
 * Looks up one key of a Hashmap(E) root (labels hml_short$0 / hml_long$10 / hml_same$11, forks to refs 0/1).
 * Works on Merkle proof trees: only the cells on the key's path are read, a pruned one throws.
 * Returns the leaf slice (the value, after an augmented leaf's extra), null when the key is absent.
 */
export function hashmapLookup(root: Cell, keyBits: number, key: bigint): Slice | null {
  let cell = root;
  let remaining = keyBits;
  let pos = 0;
  const bitAt = (i: number) => (key >> BigInt(keyBits - 1 - i)) & 1n;
  for (;;) {
    const s = cell.beginParse();
    const lenBits = Math.ceil(Math.log2(remaining + 1));
    let label: bigint[];
    const b0 = s.loadBit();
    const b1 = b0 ? s.loadBit() : false;
    if (!b0) {
      let n = 0;
      while (s.loadBit()) n++;
      label = Array.from({ length: n }, () => (s.loadBit() ? 1n : 0n));
    } else if (!b1) {
      const n = s.loadUint(lenBits);
      label = Array.from({ length: n }, () => (s.loadBit() ? 1n : 0n));
    } else {
      const v = s.loadBit() ? 1n : 0n;
      label = new Array<bigint>(s.loadUint(lenBits)).fill(v);
    }
    for (const b of label) {
      if (bitAt(pos) !== b) return null;
      pos++;
    }
    remaining -= label.length;
    if (remaining === 0) return s;
    cell = cell.refs[Number(bitAt(pos))];
    pos++;
    remaining--;
  }
}

/** One config param (a ConfigParams dictionary, Hashmap 32 ^Cell) from a possibly pruned tree; null when absent. */
export function configParam(config: Cell, id: number): Cell | null {
  const leaf = hashmapLookup(config, 32, BigInt.asUintN(32, BigInt(id)));
  return leaf ? leaf.loadRef() : null;
}

/**
 * validators#11 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   list:(Hashmap 16 ValidatorDescr) = ValidatorSet;
 * validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;
 * validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr; ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;
 * validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256 = ValidatorDescr;
 */
export function loadValidatorSet(c: Cell): ValidatorSet {
  const s = c.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`not a ValidatorSet (tag 0x${tag.toString(16)})`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  let totalWeight = tag === 0x12 ? s.loadUintBig(64) : 0n;
  const value = {
    serialize: () => {
      throw new Error('read only');
    },
    parse: (v: Slice): ValidatorDescr => {
      const t = v.loadUint(8);
      if (t !== 0x53 && t !== 0x73) throw new Error(`not a ValidatorDescr (tag 0x${t.toString(16)})`);
      if (v.loadUint(32) !== 0x8e81278a) throw new Error('ValidatorDescr: not an ed25519 public key');
      const publicKey = v.loadBuffer(32);
      const weight = v.loadUintBig(64);
      return { publicKey, weight, adnlAddr: t === 0x73 ? v.loadBuffer(32) : null };
    },
  };
  const dict = tag === 0x12 ? s.loadDict(Dictionary.Keys.Uint(16), value) : Dictionary.loadDirect(Dictionary.Keys.Uint(16), value, s);
  const list = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  if (tag === 0x11) totalWeight = list.reduce((t, v) => t + v.weight, 0n);
  return { utimeSince, utimeUntil, total, main, totalWeight, list };
}

/**
 * catchain_config#c1 mc_catchain_lifetime:uint32 shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32
 *   shard_validators_num:uint32 = CatchainConfig;
 * catchain_config_new#c2 flags:(## 7) { flags = 0 } shuffle_mc_validators:Bool mc_catchain_lifetime:uint32
 *   shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32 shard_validators_num:uint32 = CatchainConfig;
 * (no param 28: the node's defaults, no shuffle and 7 shard validators)
 */
export function loadCatchainConfig(c: Cell | null): CatchainConfig {
  if (!c) return { shuffleMcValidators: false, shardValidatorsNum: 7 };
  const s = c.beginParse();
  const tag = s.loadUint(8);
  let shuffleMcValidators = false;
  if (tag === 0xc2) {
    s.skip(7);
    shuffleMcValidators = s.loadBit();
  } else if (tag !== 0xc1) {
    throw new Error(`not a CatchainConfig (tag 0x${tag.toString(16)})`);
  }
  s.skip(96);
  return { shuffleMcValidators, shardValidatorsNum: s.loadUint(32) };
}

/** Dictionary values the devnet only writes. */
function writeOnly<V>(serialize: (v: V, b: Builder) => void): DictionaryValue<V> {
  return {
    serialize,
    parse: () => {
      throw new Error('write only');
    },
  };
}

export interface ValidatorEntry {
  publicKey: Buffer;
  weight: bigint;
}

/**
 * ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;
 * validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr;
 * validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;
 */
export function validatorSetCell(v: { utimeSince: number; utimeUntil: number; main: number; list: ValidatorEntry[] }): Cell {
  const dict = Dictionary.empty(
    Dictionary.Keys.Uint(16),
    writeOnly((e: ValidatorEntry, b: Builder) => {
      b.storeUint(0x53, 8).storeUint(0x8e81278a, 32).storeBuffer(e.publicKey, 32).storeUint(e.weight, 64);
    }),
  );
  v.list.forEach((e, i) => dict.set(i, e));
  const total = v.list.reduce((t, e) => t + e.weight, 0n);
  return beginCell()
    .storeUint(0x12, 8)
    .storeUint(v.utimeSince, 32)
    .storeUint(v.utimeUntil, 32)
    .storeUint(v.list.length, 16)
    .storeUint(v.main, 16)
    .storeUint(total, 64)
    .storeDict(dict)
    .endCell();
}

export interface SignaturePair {
  nodeIdShort: Buffer;
  /** 64-byte ed25519 signature (R . s). */
  signature: Buffer;
}

/**
 * block_signatures#11 validator_info:ValidatorBaseInfo pure_signatures:BlockSignaturesPure = BlockSignatures;
 * validator_base_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 = ValidatorBaseInfo;
 * block_signatures_pure#_ sig_count:uint32 sig_weight:uint64 signatures:(HashmapE 16 CryptoSignaturePair) = BlockSignaturesPure;
 * sig_pair$_ node_id_short:bits256 sign:CryptoSignature = CryptoSignaturePair;
 * ed25519_signature#5 R:bits256 s:bits256 = CryptoSignatureSimple;
 */
export function blockSignaturesCell(s: { validatorListHashShort: number; catchainSeqno: number; weight: bigint; signatures: SignaturePair[] }): Cell {
  const dict = Dictionary.empty(
    Dictionary.Keys.Uint(16),
    writeOnly((p: SignaturePair, b: Builder) => {
      b.storeBuffer(p.nodeIdShort, 32).storeUint(5, 4).storeBuffer(p.signature, 64);
    }),
  );
  s.signatures.forEach((p, i) => dict.set(i, p));
  return beginCell()
    .storeUint(0x11, 8)
    .storeUint(s.validatorListHashShort, 32)
    .storeUint(s.catchainSeqno, 32)
    .storeUint(s.signatures.length, 32)
    .storeUint(s.weight, 64)
    .storeDict(dict)
    .endCell();
}

/**
 * block_proof#c3 proof_for:BlockIdExt root:^Cell signatures:(Maybe ^BlockSignatures) = BlockProof;
 * block_id_ext$_ shard_id:ShardIdent seq_no:uint32 root_hash:bits256 file_hash:bits256 = BlockIdExt;
 * `root` is a Merkle proof of the block keeping its header (BlockInfo), as the node's proof files do.
 */
export function blockProofCell(
  id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer },
  block: Cell,
  signatures: Cell | null,
): Cell {
  const header = beginCell()
    .storeBits(block.bits)
    .storeRef(block.refs[0])
    .storeRef(prunedBranch(block.refs[1]))
    .storeRef(prunedBranch(block.refs[2]))
    .storeRef(prunedBranch(block.refs[3]))
    .endCell();
  const b = beginCell().storeUint(0xc3, 8);
  storeShardIdent(b, id.workchain, id.shard);
  b.storeUint(id.seqno, 32).storeBuffer(id.rootHash, 32).storeBuffer(id.fileHash, 32);
  b.storeRef(convertToMerkleProof(header));
  if (signatures) b.storeBit(1).storeRef(signatures);
  else b.storeBit(0);
  return b.endCell();
}
