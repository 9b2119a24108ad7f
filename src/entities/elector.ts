/**
 * Elections, complaints and the elector's part of validation cycles (API v3 validators/elections,
 * validators/complaints, validators/cycles), as ton-indexer v1.3's worker derives them
 * (ton-index-worker/tondb-scanner/src/StakingEventProcessor.h at 66150f0f: `collect_validator_snapshot_triggers`,
 * `process_validator_snapshots`, `get_past_elections_by_vset_hash`, `parse_validator_cycle`,
 * `parse_validator_election`, `parse_validator_complaints`, `voters_to_json`): the elector's get-methods
 * `participant_list_extended`, `past_elections` and `list_complaints` run on its state at the masterchain block,
 * their stacks read field by field.
 *
 * Pure but for the get-method runner it is given (elector-reader.ts runs them in the emulator on the state a
 * liteserver gives): the triggers, the stack readers and the rows.
 */
import { beginCell, Cell, Dictionary, type Slice, type TupleItem } from '@ton/core';
import { ELECTOR_OP, readValidatorSet } from '../contracts/index.ts';
import type { Row } from '../util/index.ts';
import type { DecodedBlock, TransactionRow } from '../ton/index.ts';
import { validatorCycleRows } from './validators.ts';

/** What one masterchain block asks of the elector (the worker's ValidatorSnapshotTriggers). */
export interface ElectorTriggers {
  hasKeyBlock: boolean;
  activeElectionDirty: boolean;
  complaintElectionIds: Set<number>;
}

export const needsCycles = (t: ElectorTriggers): boolean => t.hasKeyBlock || t.complaintElectionIds.size > 0;
export const hasWork = (t: ElectorTriggers): boolean => t.hasKeyBlock || t.activeElectionDirty || t.complaintElectionIds.size > 0;

function bodySlice(tx: TransactionRow): Slice | null {
  const b = tx.in_msg?.body_boc;
  if (!b) return null;
  try {
    return Cell.fromBase64(b).beginParse();
  } catch {
    return null;
  }
}

/** The inbound body's op, for a body of at least op + query id (the worker's inbound_opcode). */
function inboundOpcode(tx: TransactionRow): number | null {
  const s = bodySlice(tx);
  if (!s || s.remainingBits < 96) return null;
  return s.loadUint(32);
}

/** The election a complaint or a vote names (the worker's complaint_election_id_from_body). */
export function complaintElectionId(tx: TransactionRow, op: number): number | null {
  const s = bodySlice(tx);
  if (!s || s.remainingBits < 96) return null;
  s.skip(96);
  if (op === ELECTOR_OP.newComplaint) return s.remainingBits < 32 ? null : s.loadUint(32);
  if (op === ELECTOR_OP.voteComplaint) {
    // signature:bits512 sign_tag:uint32 idx:uint16 elect_id:uint32
    if (s.remainingBits < 512 + 32 + 16 + 32) return null;
    s.skip(512 + 32 + 16);
    return s.loadUint(32);
  }
  return null;
}

/**
 * Whether a transaction changed the elector's data (the worker's transaction_data_changed): not when its state hash
 * did not change; else by the data hashes of the states before and after, as the block proves them. A hash the block
 * does not prove counts as changed, as the worker takes a failed comparison.
 */
export function electorDataChanged(tx: TransactionRow, block: DecodedBlock): boolean {
  const before = tx.account_state_hash_before.toLowerCase();
  const after = tx.account_state_hash_after.toLowerCase();
  if (before === after) return false;
  const dataHashOf = (hash: string): string | null => {
    for (const s of [...block.states_before, ...block.intermediate_states, ...block.account_states]) {
      if (s.account === tx.account && s.hash.toLowerCase() === hash) return s.data_hash?.toLowerCase() ?? null;
    }
    return null;
  };
  const b = dataHashOf(before);
  const a = dataHashOf(after);
  if (b === null || a === null) return true;
  return a !== b;
}

/** The triggers of a masterchain batch's blocks (`elector`: raw address, null when not known yet). */
export function electorTriggers(blocks: readonly DecodedBlock[], elector: string | null): ElectorTriggers {
  const t: ElectorTriggers = {
    hasKeyBlock: blocks.some((b) => b.id.workchain === -1 && b.info.key_block),
    activeElectionDirty: false,
    complaintElectionIds: new Set(),
  };
  if (!elector) return t;
  for (const b of blocks) {
    for (const tx of b.transactions) {
      if (tx.account !== elector) continue;
      if (!electorDataChanged(tx, b)) continue;
      if (tx.description.type === 'tick_tock') {
        t.activeElectionDirty = true;
        continue;
      }
      const op = inboundOpcode(tx);
      if (op === null) continue;
      if (op === ELECTOR_OP.newStake || op === ELECTOR_OP.configSetOk || op === ELECTOR_OP.configSetError) {
        t.activeElectionDirty = true;
        continue;
      }
      if (op === ELECTOR_OP.newComplaint || op === ELECTOR_OP.voteComplaint) {
        const id = complaintElectionId(tx, op);
        if (id !== null) t.complaintElectionIds.add(id);
      }
    }
  }
  return t;
}

// ---- stack readers (the worker's stack_int*, stack_list_to_vector, stack_cell_*) ----

export class StackShapeError extends Error {}

function stackInt(e: TupleItem | undefined, field: string): bigint {
  if (e?.type !== 'int') throw new StackShapeError(`Expected integer stack entry for ${field}`);
  return e.value;
}

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

function stackI64(e: TupleItem | undefined, field: string): bigint {
  const v = stackInt(e, field);
  // td's to_long gives no int64 for a wider value: out of range for every use below
  if (v < I64_MIN || v > I64_MAX) throw new StackShapeError(`Integer stack entry out of int64 range for ${field}`);
  return v;
}

function stackU32(e: TupleItem | undefined, field: string): number {
  const v = stackI64(e, field);
  if (v < 0n || v > 0xffffffffn) throw new StackShapeError(`Integer stack entry out of uint32 range for ${field}`);
  return Number(v);
}

const stackBool = (e: TupleItem | undefined, field: string): boolean => stackI64(e, field) !== 0n;

/** td::hex_string(value, upper, 64): 64 upper-case hex digits. */
function stackHex(e: TupleItem | undefined, field: string): string {
  return hex256(stackInt(e, field));
}

const hex256 = (v: bigint): string => BigInt.asUintN(256, v).toString(16).toUpperCase().padStart(64, '0');

/** A TVM cons list ([head, tail] pairs ending in null). */
function stackList(e: TupleItem | undefined, field: string): TupleItem[] {
  const out: TupleItem[] = [];
  let cur = e;
  while (cur && cur.type !== 'null') {
    if (cur.type !== 'tuple' || cur.items.length !== 2) throw new StackShapeError(`Expected TVM cons list for ${field}`);
    out.push(cur.items[0]);
    cur = cur.items[1];
  }
  if (!cur) throw new StackShapeError(`Expected TVM cons list for ${field}`);
  return out;
}

const tupleOf = (e: TupleItem | undefined): TupleItem[] | null => (e?.type === 'tuple' ? e.items : null);

/** A cell or slice entry as a cell; null for a null entry. */
function stackCellOrNull(e: TupleItem | undefined, field: string): Cell | null {
  if (e?.type === 'cell') return e.cell;
  if (e?.type === 'slice') return e.cell;
  if (e?.type === 'null') return null;
  throw new StackShapeError(`Expected cell stack entry for ${field}`);
}

// ---- get-methods ----

/** Runs one get-method of the elector's state; throws when it fails (exit code other than 0 / 1). */
export type ElectorGetMethod = (method: string, stack: TupleItem[]) => Promise<TupleItem[]>;

export interface PastElectionInfo {
  electionId: number;
  totalStake: bigint;
  /** stake by validator public key (upper-case hex) */
  stakesByPubkey: Map<string, bigint>;
}

/** frozen_dict of a past election: pubkey -> addr:bits256 weight:uint64 stake:Grams banned:Bool; unreadable entries skipped. */
function frozenStakesByPubkey(e: TupleItem | undefined): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const cell = stackCellOrNull(e, 'past_election_frozen_dict');
  if (!cell) return out;
  const raw = { serialize: () => { throw new Error('read only'); }, parse: (s: Slice) => s };
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), raw, cell);
  for (const [key, value] of dict) {
    try {
      value.skip(256);
      value.loadUintBig(64);
      out.set(hex256(key), value.loadCoins());
    } catch {
      // the worker logs "Failed to parse frozen validator ..." and goes on
    }
  }
  return out;
}

/** past_elections() by the hash (upper-case hex) of the validator set each produced. */
export async function pastElectionsByVsetHash(run: ElectorGetMethod): Promise<Map<string, PastElectionInfo>> {
  const out = new Map<string, PastElectionInfo>();
  const stack = await run('past_elections', []);
  if (!stack.length) return out;
  for (const entry of stackList(stack[0], 'past_elections')) {
    const t = tupleOf(entry);
    if (!t || t.length < 2) continue;
    let electionId: number;
    try {
      electionId = stackU32(t[0], 'past_election_id');
    } catch {
      continue;
    }
    // [id, unfreeze_at, stake_held, vset_hash, frozen_dict, total_stake, bonuses, complaints] (FunC flattens the
    // unpacked record into the tuple) or [id, [unfreeze_at, ...]]: the worker reads both
    let fields: TupleItem[] | null = null;
    if (t.length >= 6) fields = t.slice(1);
    else {
      const d = tupleOf(t[1]);
      if (d && d.length >= 5) fields = d;
    }
    if (!fields) continue;
    let vsetHash: string;
    let totalStake: bigint;
    let stakes = new Map<string, bigint>();
    try {
      vsetHash = stackHex(fields[2], 'past_election_vset_hash');
    } catch {
      continue;
    }
    try {
      stakes = frozenStakesByPubkey(fields[3]);
    } catch {
      // logged by the worker; the election is kept without stakes
    }
    try {
      totalStake = stackInt(fields[4], 'past_election_total_stake');
    } catch {
      continue;
    }
    out.set(vsetHash, { electionId, totalStake, stakesByPubkey: stakes });
  }
  return out;
}

/** participant_list_extended(): the active election's row and its participants; null when none is active (elect_at 0). */
export async function activeElection(run: ElectorGetMethod, mcSeqno: number): Promise<{ election: Row; participants: Row[] } | null> {
  const stack = await run('participant_list_extended', []);
  if (stack.length < 7) throw new StackShapeError('participant_list_extended returned too few stack entries');
  const electionId = stackU32(stack[0], 'elect_at');
  if (electionId === 0) return null;
  const election: Row = {
    election_id: electionId,
    elect_close: stackU32(stack[1], 'elect_close'),
    min_stake: stackInt(stack[2], 'min_stake'),
    total_stake: stackInt(stack[3], 'total_stake'),
    failed: stackBool(stack[5], 'failed'),
    finished: stackBool(stack[6], 'finished'),
    source_mc_seqno: mcSeqno,
  };
  const participants: Row[] = [];
  for (const entry of stackList(stack[4], 'participants')) {
    const p = tupleOf(entry);
    if (!p || p.length < 2) throw new StackShapeError('Invalid participant entry');
    const d = tupleOf(p[1]);
    if (!d || d.length < 4) throw new StackShapeError('Invalid participant data');
    participants.push({
      election_id: electionId,
      validator_pubkey: stackHex(p[0], 'participant_pubkey'),
      stake: stackInt(d[0], 'participant_stake'),
      max_factor: stackU32(d[1], 'participant_max_factor'),
      stake_holder_address: `-1:${hex256(stackInt(d[2], 'participant_stake_holder'))}`,
      adnl_addr: stackHex(d[3], 'participant_adnl'),
      source_mc_seqno: mcSeqno,
    });
  }
  return { election, participants };
}

/** A validation cycle as complaints need it: its rows, the hash of its set's cell, the config param it came from. */
export interface ElectorCycle {
  cycle: Row;
  members: Row[];
  vsetHash: string;
  configId: number;
}

/**
 * The cycles of config 34, 36, 32 (the first of each utime_since), with election_id / total_stake and each
 * member's stake where past_elections holds the set's hash (`parse_validator_cycle`).
 */
export function electorCycles(param: (id: number) => Cell | null, mcSeqno: number, past: ReadonlyMap<string, PastElectionInfo>): ElectorCycle[] {
  const out: ElectorCycle[] = [];
  const seen = new Set<number>();
  for (const id of [34, 36, 32]) {
    const c = param(id);
    if (!c) continue;
    let since: number;
    try {
      since = readValidatorSet(c).utime_since;
    } catch {
      continue;
    }
    if (seen.has(since)) continue;
    seen.add(since);
    const rows = validatorCycleRows((x) => (x === id ? c : x === 15 || x === 16 || x === 17 ? param(x) : null), mcSeqno);
    const cycle = rows.cycles[0];
    const vsetHash = c.hash().toString('hex').toUpperCase();
    const info = past.get(vsetHash);
    if (info) {
      cycle.election_id = info.electionId;
      cycle.total_stake = info.totalStake;
    }
    for (const m of rows.members) m.stake = info?.stakesByPubkey.get(String(m.validator_pubkey)) ?? null;
    out.push({ cycle, members: rows.members, vsetHash, configId: id });
  }
  return out;
}

/** 2/3 of a set's total weight (the elector's muldiv(total_weight, 2, 3)); beyond int64 is an error, as the worker's. */
function requiredWeight(totalWeight: bigint): bigint {
  const w = (totalWeight * 2n) / 3n;
  if (w > I64_MAX) throw new StackShapeError('Complaint required weight is out of int64 range');
  return w;
}

/** std::round: halves away from zero. */
const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

function votersJson(voters: TupleItem[], voting: ElectorCycle | null): string {
  const arr: Record<string, unknown>[] = [];
  for (const v of voters) {
    let idx: bigint;
    try {
      idx = stackI64(v, 'voted_validator');
    } catch {
      continue;
    }
    const o: Record<string, unknown> = { validator_index: Number(idx) };
    const m = voting && idx >= 0n && idx <= 0xffffffffn ? voting.members.find((x) => Number(x.validator_index) === Number(idx)) : undefined;
    if (m) {
      o.validator_pubkey = m.validator_pubkey;
      o.adnl_addr = m.adnl_addr;
      o.weight = String(m.weight);
    }
    arr.push(o);
  }
  return JSON.stringify(arr);
}

/** list_complaints(election_id) of one cycle's election (`parse_validator_complaints`); [] when the cycle has no election id. */
export async function cycleComplaints(
  run: ElectorGetMethod,
  cycle: ElectorCycle,
  byVsetHash: ReadonlyMap<string, ElectorCycle>,
  currentVoting: ElectorCycle | null,
  mcSeqno: number,
): Promise<Row[]> {
  const out: Row[] = [];
  const electionId = cycle.cycle.election_id;
  if (electionId === null || electionId === undefined) return out;
  const stack = await run('list_complaints', [{ type: 'int', value: BigInt(electionId as number) }]);
  if (!stack.length) return out;
  for (const entry of stackList(stack[0], 'complaints')) {
    const pair = tupleOf(entry);
    if (!pair || pair.length < 2) continue;
    const sub = tupleOf(pair[1]);
    if (!sub || sub.length < 4) continue;
    const data = tupleOf(sub[0]);
    if (!data || data.length < 8) continue;
    const pubkey = stackHex(data[0], 'complaint_validator_pubkey');
    const adnl = cycle.members.find((m) => m.validator_pubkey === pubkey)?.adnl_addr ?? null;
    const description = stackCellOrNull(data[1], 'complaint_description');
    const row: Row = {
      election_id: electionId,
      complaint_hash: stackHex(pair[0], 'complaint_hash'),
      validator_pubkey: pubkey,
      adnl_addr: adnl,
      // std_boc_serialize with CRC32C, no index: @ton/core's default
      description_boc: description ? description.toBoc().toString('base64') : '',
      created_at: stackU32(data[2], 'complaint_created_at'),
      severity: stackU32(data[3], 'complaint_severity'),
      reward_address: `-1:${hex256(stackInt(data[4], 'complaint_reward_addr'))}`,
      paid: stackInt(data[5], 'complaint_paid'),
      suggested_fine: stackInt(data[6], 'complaint_suggested_fine'),
      suggested_fine_part: stackU32(data[7], 'complaint_suggested_fine_part'),
    };
    const voters = stackList(sub[1], 'complaint_voters');
    const vsetId = stackHex(sub[2], 'complaint_vset_id');
    const rawRemaining = stackI64(sub[3], 'complaint_weight_remaining');
    let voting: ElectorCycle | null = null;
    if (!/^0+$/.test(vsetId)) voting = byVsetHash.get(vsetId) ?? null;
    // no votes yet: the set that will vote is the current one (the worker's fallback); votes for a set not in
    // config 32/34/36 keep their indexes only
    if (!voting && !voters.length) voting = currentVoting ?? cycle;
    const weightCycle = voting ?? cycle;
    const totalWeight = BigInt(weightCycle.cycle.total_weight as bigint);
    const required = requiredWeight(totalWeight);
    const remaining = voters.length ? rawRemaining : required;
    out.push({
      ...row,
      voted_validators: votersJson(voters, voting),
      vset_id: vsetId,
      weight_remaining: remaining,
      is_passed: rawRemaining < 0n,
      approved_percent: totalWeight === 0n ? 0 : roundHalfAway(((Number(required) - Number(remaining)) / Number(totalWeight)) * 100 * 1000) / 1000,
      source_mc_seqno: mcSeqno,
    });
  }
  return out;
}

export interface ElectorTables {
  validator_elections: Row[];
  validator_election_participants: Row[];
  validator_complaints: Row[];
}

export const ELECTOR_TABLES = ['validator_elections', 'validator_election_participants', 'validator_complaints'] as const;

export interface ElectorSnapshot extends ElectorTables {
  /** the cycles of a key block (config 34 / 36 / 32) with what past_elections adds; null when not a key block */
  cycles: { validator_cycles: Row[]; validator_cycle_members: Row[] } | null;
  /** get-methods that failed or answered another shape (logged by the worker, which goes on) */
  failures: string[];
}

/**
 * One masterchain batch's snapshots (`process_validator_snapshots`): `run` is null when the block has no elector
 * state (then only the cycles, from config alone); `param` reads the block's config.
 */
export async function electorSnapshot(
  triggers: ElectorTriggers,
  run: ElectorGetMethod | null,
  param: (id: number) => Cell | null,
  mcSeqno: number,
): Promise<ElectorSnapshot> {
  const out: ElectorSnapshot = { validator_elections: [], validator_election_participants: [], validator_complaints: [], cycles: null, failures: [] };
  if (!hasWork(triggers)) return out;
  const fail = (what: string, e: unknown) => out.failures.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  let past = new Map<string, PastElectionInfo>();
  if (needsCycles(triggers) && run) {
    try {
      past = await pastElectionsByVsetHash(run);
    } catch (e) {
      fail('Failed to read past elections', e);
    }
  }
  const cycles = needsCycles(triggers) ? electorCycles(param, mcSeqno, past) : [];
  if (triggers.hasKeyBlock) {
    out.cycles = { validator_cycles: cycles.map((c) => c.cycle), validator_cycle_members: cycles.flatMap((c) => c.members) };
  }
  if (!run) return out;
  const byVsetHash = new Map(cycles.map((c) => [c.vsetHash, c]));
  const currentVoting = cycles.find((c) => c.configId === 34) ?? null;
  if (triggers.activeElectionDirty) {
    try {
      const e = await activeElection(run, mcSeqno);
      if (e) {
        out.validator_elections.push(e.election);
        out.validator_election_participants.push(...e.participants);
      }
    } catch (e) {
      fail('Failed to parse validator election', e);
    }
  }
  if (!triggers.hasKeyBlock && !triggers.complaintElectionIds.size) return out;
  for (const c of cycles) {
    // complaints are read for the current and previous sets only
    if (c.configId !== 32 && c.configId !== 34) continue;
    const id = c.cycle.election_id;
    if (id === null || id === undefined) continue;
    if (!triggers.hasKeyBlock && !triggers.complaintElectionIds.has(id as number)) continue;
    try {
      out.validator_complaints.push(...(await cycleComplaints(run, c, byVsetHash, currentVoting, mcSeqno)));
    } catch (e) {
      fail(`Failed to parse validator complaints for election ${String(id)}`, e);
    }
  }
  return out;
}

/** A Cell's config param reader over a ConfigParams dictionary (`Hashmap 32 ^Cell`). */
export function configParamReader(config: Cell): (id: number) => Cell | null {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  return (id) => dict.get(id) ?? null;
}

/** For tests and tools: a ConfigParams dictionary cell from param cells. */
export function configDictCell(params: ReadonlyMap<number, Cell>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const [k, v] of params) dict.set(k, v);
  return beginCell().storeDictDirect(dict).endCell();
}
