import { CliError, type Command } from '../command.ts';
import { CHECKPOINT_NAME } from '../../../pipelines/index.ts';
import { loadLiteservers, LiteserverPool, NetworkConfigError, parseNetwork, type NetworkName } from '../../source/index.ts';
import { getCheckpoint, readIngestState, type StoreClient } from '../../store/index.ts';
import { openIndexerStore } from './index-chain.ts';

export interface IndexStatus {
  first: number | null;
  last: number | null;
  checkpoint: number | null;
  /**
   * Masterchain seqnos missing between the first requested one (or the first indexed) and the last indexed
   * (ranges, inclusive): a range that was asked for and not indexed is a gap too.
   */
  mcGaps: [number, number][];
  /** The lowest masterchain seqno ever requested (the start of the first range ingest was given). */
  requestedFrom: number | null;
  /** The range ingest works on (until null: the tip), null when the last one was done. */
  range: { from: number; until: number | null } | null;
  /** A masterchain seqno no liteserver gives valid: where ingest stands still, and why. */
  stall: { seqno: number; reason: string; since: number } | null;
  /** Shard blocks whose prev block is not stored (a hole between consecutive masterchain blocks). */
  shardGaps: { block: string; missingPrev: string; mcSeqno: number }[];
  blocks: number;
  transactions: number;
  /** Blocks and transactions per second over the last minute of ingestion. */
  recent: { blocksPerSec: number; txPerSec: number } | null;
}

/** Reads what is indexed, and where the holes are, from the store alone. */
export async function indexStatus(store: StoreClient): Promise<IndexStatus> {
  const [mc] = await store.query<{ first: string; last: string; n: string }>(
    'SELECT min(seqno) AS first, max(seqno) AS last, uniqExact(seqno) AS n FROM ingested_blocks WHERE workchain = -1',
  );
  const n = Number(mc?.n ?? 0);
  const first = n ? Number(mc.first) : null;
  const last = n ? Number(mc.last) : null;
  const mcGaps: [number, number][] = [];
  if (first !== null && last !== null && last - first + 1 > n) {
    const rows = await store.query<{ s: string; next: string }>(
      `SELECT seqno AS s, next FROM (
         SELECT seqno, leadInFrame(seqno) OVER (ORDER BY seqno ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next
         FROM (SELECT DISTINCT seqno FROM ingested_blocks WHERE workchain = -1)
       ) WHERE next > seqno + 1 ORDER BY seqno LIMIT 1000`,
    );
    for (const r of rows) mcGaps.push([Number(r.s) + 1, Number(r.next) - 1]);
  }
  const state = await readIngestState(store);
  const requestedFrom = state?.firstRequested ?? null;
  // a hole below the first indexed block that was asked for (history that a restart must not skip silently)
  if (requestedFrom !== null && first !== null && requestedFrom < first) mcGaps.unshift([requestedFrom, first - 1]);
  // A shard block committed after the first indexed masterchain block must find each prev block stored
  // (seqno 0 is the zero state). Blocks committed by the first one may legitimately start mid-chain.
  const shardGaps =
    first === null
      ? []
      : (
          await store.query<{ wc: number; shard: string; seqno: number; mc: number; pwc: number; pshard: string; pseqno: number }>(
            `SELECT b.workchain AS wc, b.shard AS shard, b.seqno AS seqno, b.mc_block_seqno AS mc, p.1 AS pwc, p.2 AS pshard, p.3 AS pseqno
             FROM (SELECT DISTINCT workchain, shard, seqno, mc_block_seqno, prev_blocks FROM blocks WHERE workchain != -1 AND mc_block_seqno > {first:UInt32}) AS b
             ARRAY JOIN b.prev_blocks AS p
             WHERE p.3 > 0 AND (p.1, p.2, p.3) NOT IN (SELECT workchain, shard, seqno FROM ingested_blocks)
             ORDER BY mc LIMIT 1000`,
            { first },
          )
        ).map((r) => ({
          block: `${r.wc}:${BigInt(r.shard).toString(16).toUpperCase().padStart(16, '0')}:${r.seqno}`,
          missingPrev: `${r.pwc}:${BigInt(r.pshard).toString(16).toUpperCase().padStart(16, '0')}:${r.pseqno}`,
          mcSeqno: Number(r.mc),
        }));
  const [counts] = await store.query<{ b: string; t: string }>('SELECT (SELECT uniqExact(workchain, shard, seqno) FROM ingested_blocks) AS b, (SELECT sum(tx_count) FROM (SELECT workchain, shard, seqno, any(tx_count) AS tx_count FROM ingested_blocks GROUP BY workchain, shard, seqno)) AS t');
  const [recent] = await store.query<{ b: string; t: string; span: string }>(
    `SELECT count() AS b, sum(tx_count) AS t, greatest(1, dateDiff('millisecond', min(ingested_at), max(ingested_at))) AS span
     FROM ingested_blocks WHERE ingested_at > (SELECT max(ingested_at) FROM ingested_blocks) - INTERVAL 60 SECOND`,
  );
  const span = Number(recent?.span ?? 0) / 1000;
  return {
    first,
    last,
    checkpoint: await getCheckpoint(store, CHECKPOINT_NAME),
    mcGaps,
    shardGaps,
    requestedFrom,
    range: state?.range ?? null,
    stall: state?.stall ?? null,
    blocks: Number(counts?.b ?? 0),
    transactions: Number(counts?.t ?? 0),
    recent: Number(recent?.b ?? 0) > 1 && span > 0 ? { blocksPerSec: Number(recent.b) / span, txPerSec: Number(recent.t) / span } : null,
  };
}

export const statusCommand: Command = {
  async run(argv) {
    let dataDir: string | undefined;
    let network: NetworkName | undefined;
    let configPath: string | undefined;
    let json = false;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--data') {
        dataDir = argv[++i];
        if (!dataDir) throw new CliError('--data needs a directory');
      } else if (a === '--network') {
        try {
          network = parseNetwork(argv[++i] ?? '');
        } catch (err) {
          throw new CliError((err as Error).message);
        }
      } else if (a === '--config') {
        configPath = argv[++i];
        if (!configPath) throw new CliError('--config needs a path');
      } else if (a === '--json') json = true;
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    const store = await openIndexerStore(dataDir);
    let st: IndexStatus;
    try {
      st = await indexStatus(store);
    } finally {
      await store.close();
    }
    let tip: number | null = null;
    let tipError: string | null = null;
    if (network || configPath) {
      let pool: LiteserverPool | undefined;
      try {
        pool = new LiteserverPool(loadLiteservers({ network, configPath }), { timeoutMs: 5000 });
        await pool.start(10_000);
        tip = (await pool.getMasterchainTip()).seqno;
      } catch (err) {
        if (err instanceof NetworkConfigError) throw new CliError(err.message);
        tipError = (err as Error).message;
      } finally {
        await pool?.close();
      }
    }
    const lag = tip !== null && st.last !== null ? tip - st.last : null;
    if (json) {
      console.log(JSON.stringify({ ...st, tip, lag, tip_error: tipError }, null, 2));
      return 0;
    }
    if (st.first === null) {
      console.log(st.requestedFrom !== null ? `nothing indexed yet (requested from masterchain seqno ${st.requestedFrom})` : 'nothing indexed yet (run `ton-gateway index`)');
    } else {
      console.log(`indexed masterchain seqnos: ${st.first} .. ${st.last}  (checkpoint ${st.checkpoint ?? 'none'})`);
      console.log(`blocks: ${st.blocks}  transactions: ${st.transactions}`);
      console.log(st.mcGaps.length ? `masterchain gaps: ${st.mcGaps.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')}` : 'masterchain gaps: none');
      console.log(
        st.shardGaps.length
          ? `shard gaps: ${st.shardGaps.length}${st.shardGaps.length >= 1000 ? '+' : ''} (first: ${st.shardGaps[0].block} misses ${st.shardGaps[0].missingPrev}, mc ${st.shardGaps[0].mcSeqno})`
          : 'shard gaps: none',
      );
      if (st.recent) console.log(`throughput (last minute of ingestion): ${st.recent.blocksPerSec.toFixed(1)} blocks/s, ${st.recent.txPerSec.toFixed(1)} tx/s`);
    }
    if (st.range) console.log(`requested range: ${st.range.from} .. ${st.range.until ?? 'tip'}`);
    if (st.stall) console.log(`stalled at mc seqno ${st.stall.seqno}: ${st.stall.reason} (since ${new Date(st.stall.since).toISOString()})`);
    if (tip !== null) console.log(`network tip: ${tip}${lag !== null ? `  lag: ${lag} masterchain blocks` : ''}`);
    else if (tipError) console.log(`network tip: unknown (${tipError.split(';')[0]})`);
    return 0;
  },
};
