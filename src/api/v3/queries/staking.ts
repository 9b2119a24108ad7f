/**
 * Nominator pools (ton-indexer v1.3 crud_staking.go): the pool's latest state (nominator_pools), the nominators'
 * positions, the nominator and validator events, rewards. Newest first by utime, lt (and event index), limit only.
 */
import type { Db, Row } from '../db.ts';
import { Where } from './where.ts';

export interface Utimes {
  start_utime?: number;
  end_utime?: number;
}

function utimes(w: Where, r: Utimes): Where {
  return w.add((x) => `tx_now >= ${x}`, r.start_utime, 'UInt64').add((x) => `tx_now <= ${x}`, r.end_utime, 'UInt64');
}

/** GetPool: the pool's row, or null (404). */
export async function nominatorPool(db: Db, pool: string): Promise<Row | null> {
  const rows = await db.q('SELECT * FROM nominator_pools FINAL WHERE address = {a:String} LIMIT 1', { a: pool });
  return rows[0] ?? null;
}

/** GetNominatorPools: the pools that list the nominator, by pool address, with its balances there. */
export async function nominatorPositions(db: Db, nominator: string): Promise<Row[]> {
  return db.q('SELECT address, active_nominators FROM nominator_pools FINAL WHERE has(nominator_addresses, {a:String}) ORDER BY address', { a: nominator });
}

/** GetNominatorPoolEvents. */
export async function nominatorPoolEvents(db: Db, f: Utimes & { pool: string; nominator?: string }, limit: number): Promise<Row[]> {
  const w = new Where().add((x) => `pool_address = ${x}`, f.pool, 'String').add((x) => `nominator_address = ${x}`, f.nominator, 'String');
  utimes(w, f);
  return db.q(`SELECT * FROM nominator_pool_events FINAL ${w.sql()} ORDER BY tx_now DESC, tx_lt DESC, event_index DESC LIMIT {limit:UInt32}`, { ...w.p, limit });
}

/** GetNominatorRewards: a nominator's reward events in a pool. */
export async function nominatorRewards(db: Db, f: Utimes & { pool: string; nominator: string }, limit: number): Promise<Row[]> {
  const w = new Where().add((x) => `nominator_address = ${x}`, f.nominator, 'String').add((x) => `pool_address = ${x}`, f.pool, 'String').raw("event_type = 'reward'");
  utimes(w, f);
  return db.q(`SELECT * FROM nominator_pool_events FINAL ${w.sql()} ORDER BY tx_now DESC, tx_lt DESC, event_index DESC LIMIT {limit:UInt32}`, { ...w.p, limit });
}

/** GetNominatorPoolValidatorEvents / GetNominatorPoolValidatorRewards (`type` 'reward'). */
export async function poolValidatorEvents(db: Db, f: Utimes & { pool?: string; validator?: string; type?: string }, limit: number): Promise<Row[]> {
  const w = new Where()
    .add((x) => `validator_address = ${x}`, f.validator, 'String')
    .add((x) => `pool_address = ${x}`, f.pool, 'String')
    .add((x) => `event_type = ${x}`, f.type, 'String');
  utimes(w, f);
  return db.q(`SELECT * FROM nominator_pool_validator_events FINAL ${w.sql()} ORDER BY tx_now DESC, tx_lt DESC LIMIT {limit:UInt32}`, { ...w.p, limit });
}
