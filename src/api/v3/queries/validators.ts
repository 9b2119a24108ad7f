/**
 * Validator events and cycles (ton-indexer v1.3 crud_validators.go), from validator_events and the per-key-block
 * snapshots of validator_cycles / validator_cycle_members, merged as the reference's upsert merges them (the latest
 * snapshot's config values, the first known election_id, the largest total_stake and stake).
 */
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';
import { Where } from './where.ts';

export interface UtimeRange {
  start_utime?: number;
  end_utime?: number;
}

function utimes(w: Where, col: string, r: UtimeRange): Where {
  return w.add((x) => `${col} >= ${x}`, r.start_utime, 'UInt64').add((x) => `${col} <= ${x}`, r.end_utime, 'UInt64');
}

export interface ValidatorEventFilter extends UtimeRange {
  stake_holder_address?: string;
  validator_pubkey?: string;
  adnl_address?: string;
  type?: string;
}

/** Events by tx_now then tx_lt in `pg.dir`, paged. */
export async function validatorEvents(db: Db, f: ValidatorEventFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `stake_holder_address = ${x}`, f.stake_holder_address, 'String')
    .add((x) => `validator_pubkey = ${x}`, f.validator_pubkey, 'String')
    .add((x) => `adnl_addr = ${x}`, f.adnl_address, 'String')
    // any text, as the reference's text column takes any: an unknown type matches nothing (an Enum comparison would fail)
    .add((x) => `toString(event_type) = ${x}`, f.type, 'String');
  utimes(w, 'tx_now', f);
  return db.q(
    `SELECT * FROM validator_events FINAL ${w.sql()} ORDER BY tx_now ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...w.p, limit: pg.limit, offset: pg.offset },
  );
}

/** A cycle's members merged over its snapshots. */
const MEMBERS = `SELECT utime_since, validator_index, argMax(validator_pubkey, source_mc_seqno) AS validator_pubkey, argMax(adnl_addr, source_mc_seqno) AS adnl_addr,
  argMax(weight, source_mc_seqno) AS weight, max(stake) AS stake FROM validator_cycle_members FINAL`;

export interface ValidatorCycleFilter extends UtimeRange {
  cycle_start?: number;
  election_id?: number;
  stake_holder_address?: string;
  adnl_address?: string;
  validator_pubkey?: string;
}

/** Cycles by utime_since in `pg.dir`, paged, with their members' stake bounds (when every member's stake is known). */
export async function validatorCycles(db: Db, f: ValidatorCycleFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `utime_since = ${x}`, f.cycle_start, 'Int64')
    .add((x) => `election_id = ${x}`, f.election_id, 'Int64')
    .add((x) => `utime_since IN (SELECT utime_since FROM validator_cycle_members WHERE adnl_addr = ${x})`, f.adnl_address, 'String')
    .add((x) => `utime_since IN (SELECT utime_since FROM validator_cycle_members WHERE validator_pubkey = ${x})`, f.validator_pubkey, 'String');
  // a stake holder is an election participant's: none is derived (src/entities/validators.ts), so no cycle matches
  if (f.stake_holder_address !== undefined) w.raw('0');
  utimes(w, 'utime_since', f);
  return db.q(
    `SELECT c.*, s.min_member_stake, s.max_member_stake FROM (
       SELECT utime_since, any(election_id) AS election_id, max(total_stake) AS total_stake, max(source_mc_seqno) AS last_mc_seqno,
         argMax(utime_until, source_mc_seqno) AS utime_until, argMax(total, source_mc_seqno) AS total, argMax(main, source_mc_seqno) AS main,
         argMax(total_weight, source_mc_seqno) AS total_weight, argMax(validators_elected_for, source_mc_seqno) AS validators_elected_for,
         argMax(elections_start_before, source_mc_seqno) AS elections_start_before, argMax(elections_end_before, source_mc_seqno) AS elections_end_before,
         argMax(stake_held_for, source_mc_seqno) AS stake_held_for, argMax(max_validators, source_mc_seqno) AS max_validators,
         argMax(max_main_validators, source_mc_seqno) AS max_main_validators, argMax(min_validators, source_mc_seqno) AS min_validators,
         argMax(min_stake, source_mc_seqno) AS min_stake, argMax(max_stake, source_mc_seqno) AS max_stake,
         argMax(min_total_stake, source_mc_seqno) AS min_total_stake, argMax(max_stake_factor, source_mc_seqno) AS max_stake_factor
       FROM validator_cycles FINAL GROUP BY utime_since
     ) AS c
     LEFT JOIN (
       SELECT utime_since, if(count() = count(stake), min(stake), NULL) AS min_member_stake, if(count() = count(stake), max(stake), NULL) AS max_member_stake
       FROM (${MEMBERS} GROUP BY utime_since, validator_index) GROUP BY utime_since
     ) AS s USING (utime_since)
     ${w.sql()} ORDER BY utime_since ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...w.p, limit: pg.limit, offset: pg.offset },
  );
}

export interface MemberFilter {
  adnl_address?: string;
  validator_pubkey?: string;
  stake_holder_address?: string;
}

/** The members of these cycles by validator index, narrowed to the request's member filter (the reference's validatorMemberFilter). */
export async function validatorCycleMembers(db: Db, cycles: number[], f: MemberFilter): Promise<Row[]> {
  if (!cycles.length) return [];
  if (f.stake_holder_address !== undefined) return []; // no participant rows: no member has a known stake holder
  const w = new Where()
    .add((x) => `utime_since IN ${x}`, cycles, 'Array(UInt32)')
    .add((x) => `adnl_addr = ${x}`, f.adnl_address, 'String')
    .add((x) => `validator_pubkey = ${x}`, f.validator_pubkey, 'String');
  return db.q(`SELECT * FROM (${MEMBERS} GROUP BY utime_since, validator_index) ${w.sql()} ORDER BY utime_since, validator_index`, w.p);
}
