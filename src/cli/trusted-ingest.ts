/**
 * What `start` and `index` ingest from: the liteserver pool behind a TrustedSource, whose trust anchor is the
 * network config's init block and whose proved key blocks live in the store. On resume the stored checkpoint block
 * must be the network's: a store holding another chain stops here with one line.
 */
import type { Logger } from 'pino';
import { ChainTrust, loadTrustAnchor, MASTER_SHARD, NetworkConfigError, NoLiteserverError, TrustedSource, TrustError, type LiteserverPool, type NetworkName, type TrustedBlockStore } from '../source/index.ts';
import { getCheckpoint, INGEST_CHECKPOINT, type StoreClient } from '../store/client/index.ts';
import { loadTrustedBlocks, saveTrustedBlocks, storedMcBlock } from '../store/ingest/index.ts';
import { CliError } from './command.ts';

function trustedBlockStore(store: StoreClient, anchor: string): TrustedBlockStore {
  return {
    load: async () => (await loadTrustedBlocks(store, anchor)).map((b) => ({ workchain: -1, shard: MASTER_SHARD, ...b })),
    save: (blocks) => saveTrustedBlocks(store, anchor, blocks),
  };
}

export async function trustedSource(pool: LiteserverPool, store: StoreClient | undefined, config: { network?: NetworkName; configPath?: string }, log?: Logger): Promise<TrustedSource> {
  let anchor;
  try {
    anchor = loadTrustAnchor(config);
  } catch (err) {
    if (err instanceof NetworkConfigError) throw new CliError(err.message);
    throw err;
  }
  const trust = new ChainTrust(anchor, store ? trustedBlockStore(store, anchor.rootHash) : undefined, { logger: log });
  const loaded = await trust.load();
  log?.info({ init_block: anchor.seqno, trusted_key_blocks: loaded, latest: trust.latest().seqno }, 'chain trust: every masterchain block is proved from the init block');
  const source = new TrustedSource(pool, trust, { logger: log });
  const cp = store ? await getCheckpoint(store, INGEST_CHECKPOINT) : null;
  const stored = cp !== null && store ? await storedMcBlock(store, cp) : null;
  if (stored) {
    try {
      await source.checkStored({ workchain: -1, shard: MASTER_SHARD, ...stored });
    } catch (err) {
      if (err instanceof TrustError) throw new CliError(err.message);
      if (err instanceof NoLiteserverError) throw new CliError(`cannot check the stored checkpoint block ${cp} against the network: ${err.message}`);
      throw err;
    }
  }
  return source;
}
