/**
 * Proof checks before answering, as tonlib does them. The checks themselves are src/proofs (shared with ingest);
 * here a proof that does not check becomes tonlib's `LITE_SERVER_UNKNOWN: got invalid proof` (status 500, see
 * toV2Error in ./method.ts).
 */
import * as proofs from '../../proofs/index.ts';
import type { TlObject } from '../../tl/index.ts';
import { ApiError } from '../errors.ts';
import type { BlockIdTl } from './chain.ts';

export { sameBlock } from '../../proofs/index.ts';

export class ProofError extends ApiError {
  constructor(message: string) {
    super(500, `LITE_SERVER_UNKNOWN: got invalid proof: ${message}`);
    this.name = 'ProofError';
  }
}

function answering<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof proofs.ProofCheckError) throw new ProofError(e.message);
    throw e;
  }
}

/** One link of a block proof chain (BlockProofLink::validate). */
export const checkBlockLink = (step: TlObject): void => answering(() => proofs.checkBlockLink(step));

/** A partialBlockProof must be complete, go from `from` to `to`, and every link must check (BlockProofChain::validate). */
export const checkProofChain = (proof: TlObject, from: BlockIdTl, to: BlockIdTl, maxLinks = 16): TlObject[] => answering(() => proofs.checkProofChain(proof, from, to, maxLinks));

/** liteServer.shardBlockProof links from the masterchain block down to `target` (tonlib GetShardBlockProof). */
export const checkShardBlockLinks = (mcId: BlockIdTl, links: TlObject[], target: BlockIdTl): void => answering(() => proofs.checkShardBlockLinks(mcId, links, target));

/** The out queue size of a block from a getBlockOutMsgQueueSize proof. */
export const queueSizeFromProof = (proofBoc: Buffer, id: BlockIdTl): bigint => answering(() => proofs.queueSizeFromProof(proofBoc, id));
