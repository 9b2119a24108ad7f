/**
 * Liteserver proof checks, shared by ingest (src/source: a masterchain block is trusted only through a checked
 * proof chain from the network's init block) and API v2 (src/api/v2/proofs.ts maps ProofCheckError to its 542).
 *
 * - `checkBlockLink` / `checkProofLinks` / `checkProofChain` / `checkPartialProof`: BlockProofLink and
 *   BlockProofChain validation (forward links: validator signatures over more than 2/3 of the weight).
 * - `checkShardBlockLinks`, `queueSizeFromProof`: shard block proofs and out queue size proofs.
 * - `tlb.ts`: the readers they use (block headers through src/ton's BlockInfo reader, shard hashes, config params,
 *   validator sets), and beside them the writers of validator sets, block signatures and block proofs (the devnet's).
 */
export { checkBlockLink, checkPartialProof, checkProofChain, checkProofLinks, headerOf, idStr, ProofCheckError, proofRoot, sameBlock, stateHashOf, type ProvenLinks } from './links.ts';
export { checkShardBlockLinks, queueSizeFromProof } from './shard.ts';
export * from './tlb.ts';
