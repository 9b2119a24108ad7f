/**
 * The BlockSource ingest uses: a LiteserverPool whose masterchain block ids are proved (trust.ts) before the
 * follower fetches the blocks (whose bytes the pool checks against those ids: file hash, then root hash). The id
 * and its proof come from the same liteserver in one call, so a server that names a block it cannot prove is the
 * one dropped, and the call is retried on another.
 */
import type { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { Logger } from 'pino';
import { ProofCheckError } from '../proofs/index.ts';
import { MASTER_SHARD, refKey, sameId, type BlockIdExt } from './block-id.ts';
import type { VerifiedBlock } from './block-header.ts';
import type { BlockSource } from './follower.ts';
import { LiteAnswerError, liteQuery } from './lite-query.ts';
import { BadAnswerError, fromTlBlockId, isServerAnswer, type LiteserverPool, type ServerHandle } from './pool.ts';
import { TrustError, type ChainTrust } from './trust.ts';

/** A lookup and its proof walk are one call: long only on the first walk from the init block. */
const PROVE_CALL_MS = 120_000;
/** Proved ids kept for the follower's next lookups (it prefetches 16 by default). */
const PROVEN_KEPT = 256;

export class TrustedSource implements BlockSource {
  private readonly log?: Logger;

  constructor(
    readonly pool: LiteserverPool,
    readonly trust: ChainTrust,
    opts: { logger?: Logger } = {},
  ) {
    this.log = opts.logger;
  }

  /**
   * The masterchain tip, proved like any block (a server claiming a tip it cannot prove would have ingest start at,
   * or wait for, a block that does not exist): one proof per new tip, the next lookup of it is free.
   */
  getMasterchainTip(): Promise<BlockIdExt> {
    return this.pool.call(
      async (client, server) => {
        const info = await client.getMasterchainInfo({ timeout: this.pool.requestTimeoutMs });
        const id = fromTlBlockId(info.last);
        if (id.workchain !== -1 || id.shard !== MASTER_SHARD) throw new BadAnswerError(`the masterchain tip from ${server.host} is ${refKey(id)}`);
        await this.proveOn(client, server, id);
        return id;
      },
      { what: 'the masterchain tip and its proof', timeoutMs: PROVE_CALL_MS },
    );
  }

  /** The id of masterchain block `seqno`, proved from the trusted key blocks. */
  lookupMasterchainBlock(seqno: number): Promise<BlockIdExt> {
    const known = this.proven.get(seqno);
    if (known) return Promise.resolve(known);
    return this.pool.call(
      async (client, server) => {
        const id = await this.pool.lookupBlockOn(client, { workchain: -1, shard: MASTER_SHARD, seqno });
        await this.proveOn(client, server, id);
        return id;
      },
      { what: `masterchain block ${seqno} id and proof`, timeoutMs: PROVE_CALL_MS },
    );
  }

  /** Recently proved masterchain ids, by seqno (the tip polls prove what the follower looks up next). */
  private readonly proven = new Map<number, BlockIdExt>();

  /** Proves `id` with the proof of the server that named it; a server that cannot is dropped (BadAnswerError). */
  private async proveOn(client: LiteClient, server: ServerHandle, id: BlockIdExt): Promise<void> {
    const known = this.proven.get(id.seqno);
    if (known && sameId(known, id)) return;
    try {
      await this.trust.prove(id, async (q) => {
        try {
          return await liteQuery(client.engine, q, this.pool.requestTimeoutMs);
        } catch (err) {
          // ton-lite-client turns liteServer.error into a plain Error: an answer, unlike a timeout
          if (!(err instanceof LiteAnswerError) && isServerAnswer(err)) throw new LiteAnswerError((err as Error).message, 0);
          throw err;
        }
      });
    } catch (err) {
      // The server named a block it cannot prove (a forged signature, a fabricated id, a re-encoded block's
      // other file hash): it is dropped from the pool and another one asked.
      if (err instanceof ProofCheckError || err instanceof LiteAnswerError) {
        throw new BadAnswerError(`masterchain block ${id.seqno} (root_hash ${id.rootHash}, file_hash ${id.fileHash}) from ${server.host} is not proved: ${err.message}`);
      }
      throw err;
    }
    this.proven.set(id.seqno, id);
    if (this.proven.size > PROVEN_KEPT) this.proven.delete(this.proven.keys().next().value!);
  }

  getBlock(id: BlockIdExt): Promise<VerifiedBlock> {
    return this.pool.getBlock(id);
  }

  /** Account states for the traces stage's code reads (what LiteserverPool answers). */
  getAccountStateBoc(address: Address, block: BlockIdExt | null, opts: { attempts?: number; timeoutMs?: number } = {}) {
    return this.pool.getAccountStateBoc(address, block, opts);
  }

  /**
   * Resuming over a stored chain: the stored masterchain block `stored` must be the network's (proved) block of
   * its height. Another one means the data directory holds another network's chain, or one taken from a lying
   * liteserver before: nothing more is added to it.
   */
  async checkStored(stored: BlockIdExt): Promise<void> {
    const network = await this.lookupMasterchainBlock(stored.seqno);
    if (!sameId(network, stored)) {
      const what = network.rootHash !== stored.rootHash ? `root_hash ${stored.rootHash}, the network's ${network.rootHash}` : `file_hash ${stored.fileHash}, the network's ${network.fileHash}`;
      throw new TrustError(
        `the store's masterchain block ${refKey(stored)} is not the network's: ${what}. The data directory holds another chain (another network, or blocks from a lying liteserver); use another --data directory`,
      );
    }
    this.log?.debug({ seqno: stored.seqno }, 'the stored checkpoint block is the network block');
  }
}
