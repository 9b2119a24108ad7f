/**
 * The traces stage's context: what the stage keeps between two batches besides the assembler's saved state, made
 * once where a stage starts (pipelines/traces.ts, a test, an emulation: each its own) and passed to every step of
 * it (`createTracesContext({ store })`). Nothing of it is kept in modules, so two stages in one process (two
 * networks, a test beside another, the emulation beside the indexer) never share a cache without knowing it.
 *
 * - per store: the states of recent batches and the addresses known to have no entity rows (read-context.ts), the
 *   DeDust pools' assets and Telegram items' content read (context-dedust.ts, context-telemint.ts), the entity
 *   lookup's codes and remembered rows (src/entities/store-lookup.ts);
 * - per fold (an assembler folding on this context; the stage has one, a test may fold with several): its write
 *   progress, the chain of its entity-state completions, its unwritten sale rows and the documents' states before;
 * - the classifier (classify-pool.ts) the batches' traces and derivations go to.
 */
import type { DedustPoolList } from '../actions/index.ts';
import { storeEntityLookup, type EntityLookup, type EntityStateRows } from '../entities/index.ts';
import { PriorStates } from '../decode/index.ts';
import type { StoreClient } from '../store/client/index.ts';
import type { TracesWriteProgress } from '../store/traces/index.ts';
import type { BoundedMap } from '../util/index.ts';
import type { TraceAssembler } from './assembler.ts';
import { inlineClassifier, type Classifier } from './classify-pool.ts';
import { createPoolCache, type PoolCache } from './context-dedust.ts';
import { createContentCache, type ContentCache } from './context-telemint.ts';
import { PendingSales } from './pending-sales.ts';
import { createAbsent, createRecentStates, type Absent } from './context-caches.ts';
import type { AccountSnapshot } from './records.ts';

/** What one fold (an assembler) keeps on its context between batches (stage.ts, step.ts). */
export interface FoldState {
  /** the write progress of an assembler `loadAssembler` loaded (the replay check, src/store/traces/write.ts); null: none */
  progress: TracesWriteProgress | null;
  /**
   * the last entity-state completion started: a seqno's completion reads the previous rows, some of which the seqno
   * before derived (`remember`: not written yet), so completions run in masterchain order (stage.ts)
   */
  completion: Promise<EntityStateRows> | null;
  /** sale rows derived and not written yet (pending-sales.ts) */
  readonly pendingSales: PendingSales;
  /** end states of the blocks the fold has seen, for the documents' states before (src/decode/docs.ts) */
  readonly priorStates: PriorStates;
}

export interface TracesContext {
  readonly store: StoreClient;
  /** classifies the completed traces and derives the entity-state rows (classify-pool.ts) */
  readonly classifier: Classifier;
  /** codes and previous entity rows, with the rows derived and not written yet (src/entities/store-lookup.ts) */
  readonly entityLookup: EntityLookup;
  /** states of the batches folded lately (read-context.ts) */
  readonly recentStates: BoundedMap<string, AccountSnapshot>;
  /** addresses known to have no jetton wallet / NFT item / NFT sale row (read-context.ts) */
  readonly absent: Absent;
  /** DeDust pools' assets read from the chain (context-dedust.ts) */
  readonly dedustPools: PoolCache;
  /** Telegram items' content read from the chain (context-telemint.ts) */
  readonly itemContents: ContentCache;
  /** The state of the fold `asm` on this context (made on first use). */
  fold(asm: TraceAssembler): FoldState;
}

export interface TracesContextOptions {
  store: StoreClient;
  /** default: one on the calling thread (`inlineClassifier`) with `dedustPools` */
  classifier?: Classifier;
  /** the DeDust pool list the default classifier falls back on (`--dedust-pools-api`); default: none */
  dedustPools?: DedustPoolList;
}

export function createTracesContext(opts: TracesContextOptions): TracesContext {
  // per assembler, so that a test folding with several on one store keeps their states apart, as the stage's one
  const folds = new WeakMap<TraceAssembler, FoldState>();
  return {
    store: opts.store,
    classifier: opts.classifier ?? inlineClassifier({ dedustPools: opts.dedustPools }),
    entityLookup: storeEntityLookup(opts.store),
    recentStates: createRecentStates(),
    absent: createAbsent(),
    dedustPools: createPoolCache(),
    itemContents: createContentCache(),
    fold(asm) {
      let f = folds.get(asm);
      if (!f) folds.set(asm, (f = { progress: null, completion: null, pendingSales: new PendingSales(), priorStates: new PriorStates() }));
      return f;
    },
  };
}
