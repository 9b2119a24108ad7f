/**
 * The devnet's validators: deterministic ed25519 keys derived from the seed, the validator set they form
 * (written as config param 34 of the config the chain carries), the validator group of each shard with its
 * gen_validator_list_hash_short, and the signatures of every masterchain block (what the node keeps in its
 * block proofs and liteservers serve in forward proof links).
 */
import { beginCell, Dictionary, type Cell } from '@ton/core';
import { sign } from '@ton/crypto';
import {
  blockSignedData,
  computeValidatorSubset,
  nodeIdShort,
  validatorSetHashShort,
  type CatchainConfig,
  type ValidatorDescr,
  type ValidatorSet,
} from '../../ton/index.ts';
import { blockSignaturesCell, validatorSetCell } from '../../proofs/index.ts';
import { keyPairFromSeed } from './keys.ts';

/** Four validators of equal weight (2^58 each: mainnet weights sum to about 2^60). */
export const DEVNET_VALIDATORS = 4;
const WEIGHT = 1n << 58n;
/** The devnet never rotates its validators: the set is valid for ten years from the zero state. */
const VSET_LIFETIME = 10 * 365 * 86400;
/** Every devnet block is made in the first catchain session. */
export const CATCHAIN_SEQNO = 0;

/**
 * catchain_config#c1 mc_catchain_lifetime:uint32 shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32
 *   shard_validators_num:uint32 = CatchainConfig;
 * catchain_config_new#c2 flags:(## 7) { flags = 0 } shuffle_mc_validators:Bool mc_catchain_lifetime:uint32
 *   shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32 shard_validators_num:uint32 = CatchainConfig;
 * Absent param 28: the node's defaults (no shuffle, 7 shard validators).
 */
function catchainConfig(c: Cell | undefined): CatchainConfig {
  if (!c) return { shuffleMcValidators: false, shardValidatorsNum: 7 };
  const s = c.beginParse();
  const tag = s.loadUint(8);
  let shuffle = false;
  if (tag === 0xc2) {
    s.skip(7);
    shuffle = s.loadBit();
  } else if (tag !== 0xc1) {
    throw new Error(`config param 28: unknown CatchainConfig tag 0x${tag.toString(16)}`);
  }
  s.skip(96);
  return { shuffleMcValidators: shuffle, shardValidatorsNum: s.loadUint(32) };
}

export class DevnetValidators {
  readonly keys: { publicKey: Buffer; secretKey: Buffer }[];
  readonly set: ValidatorSet;
  readonly catchain: CatchainConfig;
  /** The config with param 34 = this set (and no param 32 / 36: no other set ever signs here). */
  readonly config: Cell;
  private readonly groups = new Map<string, { nodes: ValidatorDescr[]; hash: number }>();

  constructor(derive: (label: string) => Buffer, baseConfig: Cell, startTime: number) {
    this.keys = Array.from({ length: DEVNET_VALIDATORS }, (_, i) => keyPairFromSeed(derive(`validator/${i}`)));
    const list = this.keys.map((k) => ({ publicKey: k.publicKey, weight: WEIGHT, adnlAddr: null }));
    this.set = { utimeSince: startTime, utimeUntil: startTime + VSET_LIFETIME, total: list.length, main: list.length, totalWeight: WEIGHT * BigInt(list.length), list };
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), baseConfig);
    this.catchain = catchainConfig(dict.get(28));
    dict.set(34, validatorSetCell({ utimeSince: this.set.utimeSince, utimeUntil: this.set.utimeUntil, main: this.set.main, list }));
    dict.delete(32);
    dict.delete(36);
    this.config = beginCell().storeDictDirect(dict).endCell();
  }

  /** The validator group of a shard (masterchain: -1, 0x8000000000000000n) and its list hash. */
  group(workchain: number, shard: bigint): { nodes: ValidatorDescr[]; hash: number } {
    const key = `${workchain}:${shard}`;
    let g = this.groups.get(key);
    if (!g) {
      const nodes = computeValidatorSubset(this.catchain, { workchain, shard }, this.set, CATCHAIN_SEQNO);
      g = { nodes, hash: validatorSetHashShort(CATCHAIN_SEQNO, nodes) };
      this.groups.set(key, g);
    }
    return g;
  }

  /** BlockSignatures of a masterchain block: every validator of the masterchain group signs (root_hash, file_hash). */
  signMasterchainBlock(rootHash: Buffer, fileHash: Buffer): Cell {
    const g = this.group(-1, 0x8000000000000000n);
    const data = blockSignedData(rootHash, fileHash);
    const signatures = g.nodes.map((n) => {
      const key = this.keys.find((k) => k.publicKey.equals(n.publicKey))!;
      return { nodeIdShort: nodeIdShort(n.publicKey), signature: sign(data, key.secretKey) };
    });
    const weight = g.nodes.reduce((t, n) => t + n.weight, 0n);
    return blockSignaturesCell({ validatorListHashShort: g.hash, catchainSeqno: CATCHAIN_SEQNO, weight, signatures });
  }
}
