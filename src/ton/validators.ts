/**
 * Validator sets as the node computes them, and block signatures as validators make them. Pure functions over
 * plain values (no cells): config params 34 and 28 are parsed by the caller. Ported from ton-blockchain/ton:
 * crypto/block/mc-config.cpp (Config::do_compute_validator_set, ValidatorSetPRNG), crypto/block/block.cpp
 * (compute_validator_set_hash) and crypto/block/check-proof.cpp (check_block_signatures, compute_node_id_short).
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { crc32c } from './cell/crc32c.ts';

/** validator#53 public_key:SigPubKey weight:uint64 / validator_addr#73 ... adnl_addr:bits256 = ValidatorDescr; */
export interface ValidatorDescr {
  /** ed25519 public key (ed25519_pubkey#8e81278a pubkey:bits256). */
  publicKey: Buffer;
  weight: bigint;
  /** adnl_addr of validator_addr#73; null for validator#53 (hashed as 32 zero bytes). */
  adnlAddr: Buffer | null;
}

/** validators#11 / validators_ext#12 (config params 32, 34, 36). */
export interface ValidatorSet {
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  totalWeight: bigint;
  /** In dictionary key order (0, 1, ...). */
  list: ValidatorDescr[];
}

/** catchain_config#c1 / catchain_config_new#c2 (config param 28); only what validator set computation reads. */
export interface CatchainConfig {
  shuffleMcValidators: boolean;
  shardValidatorsNum: number;
}

export interface ShardId {
  workchain: number;
  /** Unsigned 64-bit shard id (0x8000000000000000n: the whole workchain). */
  shard: bigint;
}

export class ValidatorSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidatorSetError';
  }
}

/**
 * ValidatorSetPRNG: seed (32 zero bytes) . shard (BE 64) . workchain (BE 32) . cc_seqno (BE 32) is hashed with
 * SHA-512; the eight big-endian 64-bit words of each hash are drawn in turn, then the seed is incremented
 * (big-endian) and hashed again.
 */
class ValidatorSetPrng {
  private readonly data = Buffer.alloc(48);
  private hash = Buffer.alloc(64);
  private pos = 0;
  private limit = 0;

  constructor(shard: ShardId, ccSeqno: number) {
    this.data.writeBigUInt64BE(BigInt.asUintN(64, shard.shard), 32);
    this.data.writeInt32BE(shard.workchain, 40);
    this.data.writeUInt32BE(ccSeqno >>> 0, 44);
  }

  private nextUlong(): bigint {
    if (this.pos < this.limit) return this.hash.readBigUInt64BE(8 * this.pos++);
    this.hash = createHash('sha512').update(this.data).digest();
    for (let i = 31; i >= 0; i--) {
      this.data[i] = (this.data[i] + 1) & 0xff;
      if (this.data[i] !== 0) break;
    }
    this.pos = 1;
    this.limit = 8;
    return this.hash.readBigUInt64BE(0);
  }

  /** An integer in 0 .. range-1: the high 64 bits of range * next. */
  nextRanged(range: bigint): bigint {
    return (range * this.nextUlong()) >> 64n;
  }
}

/**
 * The validators of one shard's group for catchain `ccSeqno`: for the masterchain the first `main` validators
 * (shuffled when param 28 says so); for a shardchain `shard_validators_num` validators drawn by weight without
 * replacement, each with weight 1.
 */
export function computeValidatorSubset(ccv: CatchainConfig, shard: ShardId, vset: ValidatorSet, ccSeqno: number): ValidatorDescr[] {
  if (vset.list.length !== vset.total) throw new ValidatorSetError(`validator set lists ${vset.list.length} validators, total says ${vset.total}`);
  const isMc = shard.workchain === -1;
  const count = Math.min(isMc ? vset.main : ccv.shardValidatorsNum, vset.total);
  if (count <= 0) return [];
  const gen = new ValidatorSetPrng(shard, ccSeqno);
  if (isMc) {
    if (!ccv.shuffleMcValidators) return vset.list.slice(0, count).map((v) => ({ ...v }));
    const idx = new Array<number>(count).fill(0);
    for (let i = 0; i < count; i++) {
      const j = Number(gen.nextRanged(BigInt(i + 1)));
      idx[i] = idx[j];
      idx[j] = i;
    }
    return idx.map((i) => ({ ...vset.list[i] }));
  }
  // Cumulative weights: entry k covers [cum[k], cum[k] + weight) of 0 .. total_weight-1.
  const cum: bigint[] = [];
  let acc = 0n;
  for (const v of vset.list) {
    cum.push(acc);
    acc += v.weight;
  }
  if (acc !== vset.totalWeight) throw new ValidatorSetError(`validator weights sum to ${acc}, total_weight says ${vset.totalWeight}`);
  const holes: [bigint, bigint][] = []; // (cum_weight, weight) of the validators taken, sorted
  let totalWt = vset.totalWeight;
  const nodes: ValidatorDescr[] = [];
  for (let i = 0; i < count; i++) {
    if (totalWt <= 0n) throw new ValidatorSetError('validator set has no weight left');
    let p = gen.nextRanged(totalWt);
    for (const [start, w] of holes) {
      if (p < start) break;
      p += w;
    }
    // the entry whose range holds p
    let k = 0;
    while (k + 1 < cum.length && cum[k + 1] <= p) k++;
    const entry = vset.list[k];
    nodes.push({ publicKey: entry.publicKey, weight: 1n, adnlAddr: entry.adnlAddr });
    totalWt -= entry.weight;
    const hole: [bigint, bigint] = [cum[k], entry.weight];
    let at = holes.findIndex((h) => h[0] > hole[0] || (h[0] === hole[0] && h[1] > hole[1]));
    if (at < 0) at = holes.length;
    holes.splice(at, 0, hole);
  }
  return nodes;
}

export { crc32c };

/**
 * gen_validator_list_hash_short of a validator group: CRC32-C of the little-endian words
 * magic(-1877581587, from test0.validatorSet) . cc_seqno . count, then per validator key(32) . weight(int64) . adnl_addr(32).
 */
export function validatorSetHashShort(ccSeqno: number, nodes: ValidatorDescr[]): number {
  const buf = Buffer.alloc(12 + nodes.length * 72);
  buf.writeInt32LE(-1877581587, 0);
  buf.writeInt32LE(ccSeqno | 0, 4);
  buf.writeUInt32LE(nodes.length, 8);
  let o = 12;
  for (const n of nodes) {
    n.publicKey.copy(buf, o);
    buf.writeBigInt64LE(BigInt.asIntN(64, n.weight), o + 32);
    (n.adnlAddr ?? Buffer.alloc(32)).copy(buf, o + 40);
    o += 72;
  }
  return crc32c(buf);
}

/** node_id_short: sha256 of TL pub.ed25519#4813b4c6 key:int256 (the id signatures name their signer by). */
export function nodeIdShort(publicKey: Buffer): Buffer {
  return createHash('sha256').update(Buffer.from([0xc6, 0xb4, 0x13, 0x48])).update(publicKey).digest();
}

/** What validators sign for a block: TL ton.blockId#c50b6e70 root_cell_hash:int256 file_hash:int256 (68 bytes). */
export function blockSignedData(rootHash: Buffer, fileHash: Buffer): Buffer {
  const b = Buffer.alloc(68);
  b.writeUInt32LE(0xc50b6e70, 0);
  rootHash.copy(b, 4);
  fileHash.copy(b, 36);
  return b;
}

const ED25519_SPKI = Buffer.from('302a300506032b6570032100', 'hex');

export function ed25519Verify(publicKey: Buffer, data: Buffer, signature: Buffer): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI, publicKey]), format: 'der', type: 'spki' });
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

export interface BlockSignature {
  nodeIdShort: Buffer;
  signature: Buffer;
}

/**
 * check_block_signatures: every signature names a validator of `nodes`, verifies over (root_hash, file_hash),
 * no validator signs twice, and the signers hold more than 2/3 of the weight. Throws ValidatorSetError.
 */
export function checkBlockSignatures(nodes: ValidatorDescr[], sigs: BlockSignature[], rootHash: Buffer, fileHash: Buffer): { signedWeight: bigint; totalWeight: bigint } {
  if (nodes.length === 0) throw new ValidatorSetError('empty validator public keys set');
  if (sigs.length === 0) throw new ValidatorSetError('empty validator signature set');
  const data = blockSignedData(rootHash, fileHash);
  const byId = new Map(nodes.map((n, i) => [nodeIdShort(n.publicKey).toString('hex'), i]));
  const totalWeight = nodes.reduce((t, n) => t + n.weight, 0n);
  let signedWeight = 0n;
  const seen = new Set<number>();
  for (const s of sigs) {
    const i = byId.get(s.nodeIdShort.toString('hex'));
    if (i === undefined) throw new ValidatorSetError(`signature set contains unknown NodeIdShort ${s.nodeIdShort.toString('hex')}`);
    if (seen.has(i)) throw new ValidatorSetError(`signature set contains duplicate signature for NodeIdShort ${s.nodeIdShort.toString('hex')}`);
    seen.add(i);
    if (!ed25519Verify(nodes[i].publicKey, data, s.signature)) throw new ValidatorSetError(`bad signature of NodeIdShort ${s.nodeIdShort.toString('hex')}`);
    signedWeight += nodes[i].weight;
  }
  if (3n * signedWeight <= 2n * totalWeight) throw new ValidatorSetError(`insufficient total signature weight: only ${signedWeight} out of ${totalWeight}`);
  return { signedWeight, totalWeight };
}
