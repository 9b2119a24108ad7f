/** Block reads for /masterchainInfo, /blocks, /masterchainBlockShardState and /masterchainBlockShards. */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';

const BLOCK_COLS = '*';

/** The first and last indexed masterchain blocks; null until one is indexed. */
export async function firstLastMcBlocks(db: Db): Promise<{ first: Row; last: Row } | null> {
  const rows = await db.q(
    `SELECT * FROM (SELECT ${BLOCK_COLS}, 'first' AS which FROM blocks WHERE workchain = -1 ORDER BY seqno ASC LIMIT 1)
     UNION ALL SELECT * FROM (SELECT ${BLOCK_COLS}, 'last' AS which FROM blocks WHERE workchain = -1 ORDER BY seqno DESC LIMIT 1)`,
  );
  const first = rows.find((r) => r.which === 'first');
  const last = rows.find((r) => r.which === 'last');
  return first && last ? { first, last } : null;
}

export interface BlockFilter extends LtWindow {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  root_hash?: string;
  file_hash?: string;
  mc_seqno?: number;
}

/** Blocks matching `f` (start_lt / end_lt on the block's start_lt), ordered gen_utime, workchain, shard, seqno in `pg.dir`, paged. */
export async function blocksPage(db: Db, f: BlockFilter, pg: Page): Promise<Row[]> {
  const p: Record<string, unknown> = {};
  const c: string[] = [];
  const add = (cond: string, name: string, v: unknown) => {
    if (v !== undefined) {
      c.push(cond);
      p[name] = v;
    }
  };
  add('workchain = {wc:Int32}', 'wc', f.workchain);
  add('shard = {shard:UInt64}', 'shard', f.shard);
  add('seqno = {seqno:UInt32}', 'seqno', f.seqno);
  add('root_hash = {rh:FixedString(64)}', 'rh', f.root_hash);
  add('file_hash = {fh:FixedString(64)}', 'fh', f.file_hash);
  add('mc_block_seqno = {mc:UInt32}', 'mc', f.mc_seqno);
  add('gen_utime >= {sut:UInt32}', 'sut', f.start_utime);
  add('gen_utime <= {eut:UInt32}', 'eut', f.end_utime);
  add('start_lt >= {slt:UInt64}', 'slt', f.start_lt);
  add('start_lt <= {elt:UInt64}', 'elt', f.end_lt);
  return db.q(
    `SELECT ${BLOCK_COLS} FROM blocks ${c.length ? 'WHERE ' + c.join(' AND ') : ''}
     ORDER BY gen_utime ${pg.dir}, workchain ${pg.dir}, shard ${pg.dir}, seqno ${pg.dir} LIMIT 1 BY workchain, shard, seqno LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...p, limit: pg.limit, offset: pg.offset },
  );
}

/** The masterchain block `seqno` and the top block of every shard registered in it (shard_state), by id. */
export async function shardStateBlocks(db: Db, seqno: number): Promise<Row[]> {
  return db.q(
    `SELECT b.* FROM blocks AS b
     WHERE (b.workchain, b.shard, b.seqno) IN (SELECT workchain, shard, seqno FROM shard_state FINAL WHERE mc_seqno = {s:UInt32})
        OR (b.workchain = -1 AND b.shard = 9223372036854775808 AND b.seqno = {s:UInt32})
     ORDER BY b.workchain, b.shard, b.seqno LIMIT 1 BY b.workchain, b.shard, b.seqno`,
    { s: seqno },
  );
}

/**
 * Every block committed by masterchain block `seqno`: by id, or (`byTime`) by gen_utime then id in `pg.dir`, as the
 * reference orders /blocks; paged.
 */
export async function blocksOfMcBlock(db: Db, seqno: number, byTime: boolean, pg: Page): Promise<Row[]> {
  const d = pg.dir;
  const order = byTime ? `gen_utime ${d}, workchain ${d}, shard ${d}, seqno ${d}` : 'workchain, shard, seqno';
  return db.q(
    `SELECT ${BLOCK_COLS} FROM blocks WHERE mc_block_seqno = {s:UInt32} ORDER BY ${order} LIMIT 1 BY workchain, shard, seqno LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { s: seqno, limit: pg.limit, offset: pg.offset },
  );
}
