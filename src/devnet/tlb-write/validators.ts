/**
 * Validator set (config param 34) and block signature writers (crypto/block/block.tlb, ton-blockchain/ton).
 */
import { beginCell, convertToMerkleProof, Dictionary, type Builder, type Cell, type DictionaryValue } from '@ton/core';
import { storeShardIdent } from '../../ton/index.ts';
import { prunedBranch } from './merkle.ts';

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
