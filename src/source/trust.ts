/**
 * Which masterchain blocks ingest may trust. The root of trust is the network config's `init_block` (or its zero
 * state when it names none); from there a block is trusted only through a proof chain a liteserver sends
 * (liteServer.getBlockProof) and src/proofs checks, as tonlib's BlockProofChain: forward links from key block to
 * key block, each signed by more than 2/3 of the weight of the validators the previous key block names, and the
 * last link carrying the signatures of the block itself (or, for a block older than every trusted one, a backward
 * link through the masterchain state of a trusted block).
 *
 * The key blocks reached on the way are kept (and saved through a TrustedBlockStore), so the next block is proved
 * from the nearest one below it: usually one forward link, and a restart does not walk from the init block again.
 */
import type { Logger } from 'pino';
import { checkPartialProof, idStr, ProofCheckError } from '../proofs/index.ts';
import type { TlBlockIdExt, TlObject } from '../tl/index.ts';
import { MASTER_SHARD, sameId, shardFromSigned, shardToSigned, type BlockIdExt } from './block-id.ts';

/** Where the key blocks proved from one anchor are kept between runs (the store's trusted_blocks table). */
export interface TrustedBlockStore {
  load(): Promise<BlockIdExt[]>;
  save(blocks: BlockIdExt[]): Promise<void>;
}

/** Sends one lite_api query to the liteserver whose answer is being checked. */
export type AskLiteserver = (query: TlObject) => Promise<TlObject>;

/** The trust anchor or a stored block is unusable (another network's store, a config without a root). */
export class TrustError extends Error {
  override name = 'TrustError';
}

export function toTl(id: BlockIdExt): TlBlockIdExt {
  return { workchain: id.workchain, shard: shardToSigned(id.shard), seqno: id.seqno, root_hash: Buffer.from(id.rootHash, 'hex'), file_hash: Buffer.from(id.fileHash, 'hex') };
}

export function fromTl(id: TlBlockIdExt): BlockIdExt {
  return { workchain: id.workchain, shard: shardFromSigned(id.shard), seqno: id.seqno, rootHash: id.root_hash.toString('hex'), fileHash: id.file_hash.toString('hex') };
}

/** A proof walk this long means a liteserver leads us in circles. */
const MAX_ROUNDS = 100_000;

export class ChainTrust {
  /** Trusted masterchain blocks (the anchor and key blocks), by seqno. */
  private readonly trusted = new Map<number, BlockIdExt>();
  /** Their seqnos, ascending. */
  private seqnos: number[] = [];
  private readonly log?: Logger;

  constructor(
    readonly anchor: BlockIdExt,
    private readonly store?: TrustedBlockStore,
    opts: { logger?: Logger } = {},
  ) {
    if (anchor.workchain !== -1 || anchor.shard !== MASTER_SHARD) throw new TrustError(`the trust anchor ${idStr(toTl(anchor))} is not a masterchain block`);
    this.log = opts.logger;
    this.add(anchor);
  }

  /** Loads the key blocks a previous run proved from this anchor (the store keeps them per anchor). */
  async load(): Promise<number> {
    if (!this.store) return 0;
    const stored = await this.store.load();
    if (!stored.some((b) => sameId(b, this.anchor))) await this.store.save([this.anchor]);
    for (const b of stored) this.add(b);
    return stored.length;
  }

  /** The trusted blocks, ascending. */
  blocks(): BlockIdExt[] {
    return this.seqnos.map((s) => this.trusted.get(s)!);
  }

  /** The newest trusted key block (or the anchor). */
  latest(): BlockIdExt {
    return this.trusted.get(this.seqnos[this.seqnos.length - 1])!;
  }

  private add(id: BlockIdExt): boolean {
    const have = this.trusted.get(id.seqno);
    if (have) {
      // two proved blocks of one height: the proofs are broken, or the network forked under us
      if (!sameId(have, id)) throw new TrustError(`two trusted masterchain blocks of height ${id.seqno}: root_hash ${have.rootHash} and ${id.rootHash}`);
      return false;
    }
    this.trusted.set(id.seqno, id);
    const i = this.seqnos.findIndex((s) => s > id.seqno);
    if (i < 0) this.seqnos.push(id.seqno);
    else this.seqnos.splice(i, 0, id.seqno);
    return true;
  }

  /** The trusted block to prove `seqno` from: the nearest below it, else the nearest above (a backward link). */
  private base(seqno: number): BlockIdExt {
    let below: number | undefined;
    for (const s of this.seqnos) {
      if (s <= seqno) below = s;
      else return this.trusted.get(below ?? s)!;
    }
    return this.trusted.get(below!)!;
  }

  /**
   * Proves that `target` (a masterchain block id a liteserver named) is the network's block, asking `ask` for the
   * proof chain. Throws ProofCheckError when the answers do not prove it. Key blocks passed are trusted (and saved)
   * as soon as their link checks, so an interrupted walk continues where it stopped.
   */
  async prove(target: BlockIdExt, ask: AskLiteserver): Promise<void> {
    if (target.workchain !== -1 || target.shard !== MASTER_SHARD) throw new ProofCheckError(`${idStr(toTl(target))} is not a masterchain block`);
    const known = this.trusted.get(target.seqno);
    if (known) {
      if (sameId(known, target)) return;
      throw new ProofCheckError(`masterchain block ${target.seqno} is trusted with root_hash ${known.rootHash} file_hash ${known.fileHash}, not ${target.rootHash} / ${target.fileHash}`);
    }
    let cur = this.base(target.seqno);
    const goal = toTl(target);
    const startedAt = cur.seqno;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const answer = await ask({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: toTl(cur), target_block: goal });
      const proven = checkPartialProof(answer, toTl(cur), goal);
      const fresh = proven.keyBlocks.map(fromTl).filter((b) => this.add(b));
      if (fresh.length > 0) {
        await this.store?.save(fresh);
        if (round > 0 || fresh.length > 1) this.log?.info({ from: startedAt, reached: fresh[fresh.length - 1].seqno, target: target.seqno }, 'verifying the chain from the trusted key blocks');
      }
      cur = fromTl(proven.end);
      if (sameId(cur, target)) return;
      if (proven.complete) throw new ProofCheckError(`the proof chain ends at ${idStr(proven.end)}, not ${idStr(goal)}`);
    }
    throw new ProofCheckError(`no proof of masterchain block ${target.seqno} after ${MAX_ROUNDS} answers`);
  }
}
