/**
 * Prometheus metrics of the ingest pipeline: one `PipelineMetrics` per process, made at start by the command that
 * runs the pipeline and passed to it (`runIndexer({ metrics })`, each stage's `metrics` option). The API server
 * mounts its `registry` at /metrics (`await registry.metrics()`, content type `registry.contentType`).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StateStats } from '../src/entities/index.ts';
import { LiteserverPool } from '../src/source/index.ts';

export type PipelineMetrics = ReturnType<typeof createPipelineMetrics>;

/** The pipeline's counters in a registry of their own (with the process's default metrics). */
export function createPipelineMetrics(metricsRegistry = new Registry()) {
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'ton_gateway_' });
  return {
    registry: metricsRegistry,
    blocksFetched: new Counter({ name: 'ton_ingest_blocks_fetched_total', help: 'Verified blocks fetched from liteservers', labelNames: ['workchain'], registers: [metricsRegistry] }),
    blocksStored: new Counter({ name: 'ton_ingest_blocks_stored_total', help: 'Blocks whose rows are durably in the store', registers: [metricsRegistry] }),
    transactionsStored: new Counter({ name: 'ton_ingest_transactions_stored_total', help: 'Transactions durably in the store', registers: [metricsRegistry] }),
    followerSeqno: new Gauge({ name: 'ton_ingest_follower_mc_seqno', help: 'Last masterchain seqno fetched by the follower', registers: [metricsRegistry] }),
    checkpoint: new Gauge({ name: 'ton_ingest_checkpoint_mc_seqno', help: 'Last masterchain seqno whose blocks and rows are all durable', registers: [metricsRegistry] }),
    networkTip: new Gauge({ name: 'ton_network_mc_tip_seqno', help: 'Masterchain tip seen on the liteservers', registers: [metricsRegistry] }),
    liteserversUp: new Gauge({
      name: 'ton_liteservers_up',
      help: 'Liteservers currently used by the pool',
      registers: [metricsRegistry],
      // read at scrape time from the pools of this process
      collect() {
        this.set(LiteserverPool.serversUp());
      },
    }),
    // the traces stage's entity-state rows (src/entities/state-rows.ts StateStats), per masterchain batch
    entityAccounts: new Counter({ name: 'ton_entities_accounts_total', help: 'Accounts with changed data whose entity interfaces were looked at', registers: [metricsRegistry] }),
    entityRows: new Counter({ name: 'ton_entities_rows_total', help: 'Entity-state rows derived (jetton masters, NFT collections, DNS, multisig, vesting, NFT sales)', registers: [metricsRegistry] }),
    entitySkipped: new Counter({
      name: 'ton_entities_skipped_total',
      help: 'Entity reads that yielded no row: no_code (code in neither the block, the store nor a liteserver), failed (get-method), incomplete (pruned value, no earlier row)',
      labelNames: ['reason'],
      registers: [metricsRegistry],
    }),
    entityCodeFetches: new Counter({
      name: 'ton_entities_code_fetches_total',
      help: 'Codes missing from the blocks and the store, asked of a liteserver, per code hash: fetched, mismatch (refused), failed (error or timeout), skipped (bounds)',
      labelNames: ['result'],
      registers: [metricsRegistry],
    }),
    stageSeconds: new Histogram({
      name: 'ton_pipeline_stage_seconds',
      help: 'Time per handled batch, per stage',
      labelNames: ['stage'],
      buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10],
      registers: [metricsRegistry],
    }),
  };
}

/** Adds one traces-stage write's entity-state counts to the counters. */
export function recordEntityStats(metrics: PipelineMetrics, s: StateStats): void {
  metrics.entityAccounts.inc(s.accounts);
  metrics.entityRows.inc(s.rows);
  metrics.entitySkipped.inc({ reason: 'no_code' }, s.no_code);
  metrics.entitySkipped.inc({ reason: 'failed' }, s.failed);
  metrics.entitySkipped.inc({ reason: 'incomplete' }, s.incomplete);
  metrics.entityCodeFetches.inc({ result: 'fetched' }, s.code_fetched);
  metrics.entityCodeFetches.inc({ result: 'mismatch' }, s.code_mismatch);
  metrics.entityCodeFetches.inc({ result: 'failed' }, s.code_fetch_failed);
  metrics.entityCodeFetches.inc({ result: 'skipped' }, s.code_fetch_skipped);
}
