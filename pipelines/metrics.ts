/**
 * Prometheus metrics of the ingest pipeline. The API server mounts `metricsRegistry` at /metrics
 * (`await metricsRegistry.metrics()`, content type `metricsRegistry.contentType`).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'ton_gateway_' });

export const metrics = {
  blocksFetched: new Counter({ name: 'ton_ingest_blocks_fetched_total', help: 'Verified blocks fetched from liteservers', labelNames: ['workchain'], registers: [metricsRegistry] }),
  blocksStored: new Counter({ name: 'ton_ingest_blocks_stored_total', help: 'Blocks whose rows are durably in the store', registers: [metricsRegistry] }),
  transactionsStored: new Counter({ name: 'ton_ingest_transactions_stored_total', help: 'Transactions durably in the store', registers: [metricsRegistry] }),
  followerSeqno: new Gauge({ name: 'ton_ingest_follower_mc_seqno', help: 'Last masterchain seqno fetched by the follower', registers: [metricsRegistry] }),
  checkpoint: new Gauge({ name: 'ton_ingest_checkpoint_mc_seqno', help: 'Last masterchain seqno whose blocks and rows are all durable', registers: [metricsRegistry] }),
  networkTip: new Gauge({ name: 'ton_network_mc_tip_seqno', help: 'Masterchain tip seen on the liteservers', registers: [metricsRegistry] }),
  liteserversUp: new Gauge({ name: 'ton_liteservers_up', help: 'Liteservers currently used by the pool', registers: [metricsRegistry] }),
  stageSeconds: new Histogram({
    name: 'ton_pipeline_stage_seconds',
    help: 'Time per handled batch, per stage',
    labelNames: ['stage'],
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10],
    registers: [metricsRegistry],
  }),
};
