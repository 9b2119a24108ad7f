/**
 * Validator events, cycles, elections and complaints (ton-indexer v1.3 crud_validators.go), from validator_events,
 * the per-key-block snapshots of validator_cycles / validator_cycle_members, merged as the reference's upsert merges
 * them (the latest snapshot's config values, the first known election_id, the largest total_stake and stake), and the
 * elector's snapshots (validator_elections, validator_election_participants, validator_complaints: the latest per key,
 * FINAL over their source_mc_seqno version).
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
    .add((x) => `utime_since IN (SELECT utime_since FROM validator_cycle_members WHERE validator_pubkey = ${x})`, f.validator_pubkey, 'String')
    // a participant of the cycle's election who is one of its members
    .add((x) => `utime_since IN (SELECT m.utime_since FROM (SELECT DISTINCT utime_since, validator_pubkey FROM validator_cycle_members) AS m
      INNER JOIN (${CYCLE_ELECTIONS}) AS ce ON ce.utime_since = m.utime_since
      INNER JOIN (SELECT DISTINCT election_id, validator_pubkey FROM validator_election_participants FINAL WHERE stake_holder_address = ${x}) AS p
        ON p.election_id = ce.cycle_election_id AND p.validator_pubkey = m.validator_pubkey)`, f.stake_holder_address, 'String');
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

/** Each cycle's election id, where one is known (the first known, as the cycles' merge). */
const CYCLE_ELECTIONS = `SELECT utime_since, any(election_id) AS cycle_election_id FROM validator_cycles FINAL GROUP BY utime_since HAVING cycle_election_id IS NOT NULL`;

/**
 * The members of these cycles by validator index, narrowed to the request's member filter (the reference's
 * validatorMemberFilter), with the stake holder and max factor of their election's participant row (the latest; with
 * a stake holder filter, the latest of that holder's, and only members that have one).
 */
export async function validatorCycleMembers(db: Db, cycles: number[], f: MemberFilter): Promise<Row[]> {
  if (!cycles.length) return [];
  const pw = new Where('p').add((x) => `stake_holder_address = ${x}`, f.stake_holder_address, 'String');
  const w = new Where()
    .add((x) => `m.utime_since IN ${x}`, cycles, 'Array(UInt32)')
    .add((x) => `m.adnl_addr = ${x}`, f.adnl_address, 'String')
    .add((x) => `m.validator_pubkey = ${x}`, f.validator_pubkey, 'String');
  if (f.stake_holder_address !== undefined) w.raw('p.holder IS NOT NULL');
  return db.q(
    `SELECT m.utime_since AS utime_since, m.validator_index AS validator_index, m.validator_pubkey AS validator_pubkey, m.adnl_addr AS adnl_addr, m.weight AS weight,
       m.stake AS stake, p.holder AS stake_holder_address, p.factor AS max_factor
     FROM (${MEMBERS} GROUP BY utime_since, validator_index) AS m
     LEFT JOIN (${CYCLE_ELECTIONS}) AS c ON c.utime_since = m.utime_since
     LEFT JOIN (
       SELECT election_id, validator_pubkey, toNullable(argMax(stake_holder_address, source_mc_seqno)) AS holder, toNullable(argMax(max_factor, source_mc_seqno)) AS factor
       FROM validator_election_participants FINAL ${pw.sql()} GROUP BY election_id, validator_pubkey
     ) AS p ON p.election_id = c.cycle_election_id AND p.validator_pubkey = m.validator_pubkey
     ${w.sql()} ORDER BY m.utime_since, m.validator_index`,
    { ...w.p, ...pw.p },
  );
}

export interface ElectionFilter extends UtimeRange {
  election_id?: number;
  finished?: boolean;
  stake_holder_address?: string;
  adnl_address?: string;
  validator_pubkey?: string;
}

/** Participant filters of one participant row (the reference's participantFilters), over validator_election_participants FINAL. */
function participantWhere(f: Pick<ElectionFilter, 'stake_holder_address' | 'adnl_address' | 'validator_pubkey'>, prefix = ''): Where {
  return new Where('p')
    .add((x) => `${prefix}stake_holder_address = ${x}`, f.stake_holder_address, 'String')
    .add((x) => `${prefix}adnl_addr = ${x}`, f.adnl_address, 'String')
    .add((x) => `${prefix}validator_pubkey = ${x}`, f.validator_pubkey, 'String');
}

/** Elections by election_id in `pg.dir`, paged, with their participant counts; start_utime / end_utime bound election_id. */
export async function validatorElections(db: Db, f: ElectionFilter, pg: Page): Promise<Row[]> {
  const pw = participantWhere(f);
  const w = new Where()
    .add((x) => `e.election_id = ${x}`, f.election_id, 'Int64')
    .add((x) => `e.finished = ${x}`, f.finished, 'Bool');
  if (f.stake_holder_address !== undefined || f.adnl_address !== undefined || f.validator_pubkey !== undefined) {
    w.raw(`e.election_id IN (SELECT election_id FROM validator_election_participants FINAL ${pw.sql()})`);
  }
  utimes(w, 'e.election_id', f);
  return db.q(
    `SELECT e.election_id AS election_id, e.elect_close AS elect_close, e.min_stake AS min_stake, e.total_stake AS total_stake, e.failed AS failed, e.finished AS finished,
       ifNull(n.total_participants, 0) AS total_participants
     FROM (SELECT * FROM validator_elections FINAL) AS e
     LEFT JOIN (SELECT election_id, count() AS total_participants FROM validator_election_participants FINAL GROUP BY election_id) AS n ON n.election_id = e.election_id
     ${w.sql()} ORDER BY e.election_id ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...w.p, ...pw.p, limit: pg.limit, offset: pg.offset },
  );
}

/**
 * The participants of these elections (matching the request's participant filter), by stake descending then key,
 * each with its index in the latest cycle its election produced, when it is a member there.
 */
export async function validatorElectionParticipants(db: Db, elections: number[], f: Pick<ElectionFilter, 'stake_holder_address' | 'adnl_address' | 'validator_pubkey'>): Promise<Row[]> {
  if (!elections.length) return [];
  const pw = participantWhere(f).add((x) => `election_id IN ${x}`, elections, 'Array(UInt32)');
  return db.q(
    `SELECT p.election_id AS election_id, p.validator_pubkey AS validator_pubkey, p.stake AS stake, p.max_factor AS max_factor, p.stake_holder_address AS stake_holder_address,
       p.adnl_addr AS adnl_addr, i.validator_index AS validator_index
     FROM (SELECT * FROM validator_election_participants FINAL ${pw.sql()}) AS p
     LEFT JOIN (
       SELECT c.cycle_election_id AS election_id, m.validator_pubkey AS validator_pubkey, toNullable(argMax(m.validator_index, m.utime_since)) AS validator_index
       FROM (${CYCLE_ELECTIONS}) AS c INNER JOIN (${MEMBERS} GROUP BY utime_since, validator_index) AS m ON m.utime_since = c.utime_since
       GROUP BY c.cycle_election_id, m.validator_pubkey
     ) AS i ON i.election_id = p.election_id AND i.validator_pubkey = p.validator_pubkey
     ORDER BY p.election_id, p.stake DESC, p.validator_pubkey`,
    pw.p,
  );
}

export interface ComplaintFilter extends UtimeRange {
  cycle_start?: number;
  election_id?: number;
  stake_holder_address?: string;
  adnl_address?: string;
  validator_pubkey?: string;
}

/** Complaints with the cycle their election produced and their validator's stake holder (the latest participant row). */
const COMPLAINTS = `SELECT vc.utime_since AS cycle_start, c.election_id AS election_id, c.complaint_hash AS complaint_hash, c.validator_pubkey AS validator_pubkey,
    c.adnl_addr AS adnl_addr, p.holder AS stake_holder_address, c.description_boc AS description_boc, c.created_at AS created_at, c.severity AS severity,
    c.reward_address AS reward_address, c.paid AS paid, c.suggested_fine AS suggested_fine, c.suggested_fine_part AS suggested_fine_part,
    c.voted_validators AS voted_validators, c.vset_id AS vset_id, c.weight_remaining AS weight_remaining, c.approved_percent AS approved_percent, c.is_passed AS is_passed
  FROM (SELECT * FROM validator_complaints FINAL) AS c
  INNER JOIN (${CYCLE_ELECTIONS}) AS vc ON vc.cycle_election_id = c.election_id
  LEFT JOIN (
    SELECT election_id, validator_pubkey, toNullable(argMax(stake_holder_address, source_mc_seqno)) AS holder
    FROM validator_election_participants FINAL GROUP BY election_id, validator_pubkey
  ) AS p ON p.election_id = c.election_id AND p.validator_pubkey = c.validator_pubkey`;

/** Complaints by created_at in `pg.dir` then complaint hash, paged; start_utime / end_utime bound created_at. */
export async function validatorComplaints(db: Db, f: ComplaintFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `vc.utime_since = ${x}`, f.cycle_start, 'Int64')
    .add((x) => `c.election_id = ${x}`, f.election_id, 'Int64')
    .add((x) => `c.validator_pubkey = ${x}`, f.validator_pubkey, 'String')
    .add((x) => `(c.election_id, c.validator_pubkey) IN (SELECT election_id, validator_pubkey FROM validator_election_participants FINAL WHERE stake_holder_address = ${x})`, f.stake_holder_address, 'String')
    .add((x) => `c.adnl_addr = ${x}`, f.adnl_address, 'String');
  utimes(w, 'c.created_at', f);
  return db.q(`${COMPLAINTS} ${w.sql()} ORDER BY c.created_at ${pg.dir}, c.complaint_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
}

/** The complaints of these cycles (their elections'), newest first. */
export async function validatorCycleComplaints(db: Db, cycles: number[]): Promise<Row[]> {
  if (!cycles.length) return [];
  const w = new Where().add((x) => `vc.utime_since IN ${x}`, cycles, 'Array(UInt32)');
  return db.q(`${COMPLAINTS} ${w.sql()} ORDER BY c.created_at DESC, c.complaint_hash`, w.p);
}
