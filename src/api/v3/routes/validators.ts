/**
 * Validators (ton-indexer v1.3: main.go GetValidatorEvents / GetValidatorElections / GetValidatorCycles /
 * GetValidatorComplaints, crud_validators.go): stake events, elections, validation cycles and complaints, with the
 * reference's parameters, defaults (limit 10), checks and texts. Elections, complaints and the elector's part of
 * cycles come from the elector's get-methods on its state from a liteserver (src/entities/elector.ts).
 */
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { tryParseHash } from '../../../format/index.ts';
import { ApiError } from '../../errors.ts';
import { bookOf } from '../address-book.ts';
import { type Page, type ParamSpec } from '../params.ts';
import {
  validatorComplaints, validatorCycleComplaints, validatorCycleMembers, validatorCycles, validatorElectionParticipants, validatorElections, validatorEvents, type MemberFilter, type UtimeRange,
} from '../queries/validators.ts';
import { b64, num, str } from '../render.ts';
import type { Db, Row } from '../db.ts';
import { addRoute, type V3Deps } from '../route.ts';

/** The validators endpoints' own default page (crud_validators.go validatorsDefaultLimit): their rows are heavy. */
const VALIDATORS_DEFAULT_LIMIT = 10;
/** At most this many rows when each embeds a validator set (main.go maxEmbeddedSetLimit). */
const MAX_EMBEDDED_SET_LIMIT = 100;

const COMMON = {
  stake_holder_address: { kind: 'address', description: 'stake holder address in any form' },
  adnl_address: { kind: 'string', description: 'ADNL address in hex, base64 or base64url form' },
  validator_pubkey: { kind: 'string', description: 'validator public key in hex, base64 or base64url form' },
  start_utime: { kind: 'utime' },
  end_utime: { kind: 'utime' },
  limit: { kind: 'limit', description: 'page size, 1..1000, default 10' },
  offset: { kind: 'offset' },
  sort: { kind: 'sort', description: 'asc or desc (default desc)' },
} satisfies ParamSpec;

interface Common {
  stake_holder_address?: string;
  adnl_address?: string;
  validator_pubkey?: string;
  start_utime?: number;
  end_utime?: number;
  limit?: number;
  offset?: number;
  sort?: 'asc' | 'desc';
}

/** A 32-byte key or address in any hash form, upper-case hex as the worker stores them (main.go normalizeValidatorHashFilter). */
function hashFilter(field: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const h = tryParseHash(v.replace(/^0[xX](?=[0-9a-fA-F]{64}$)/, ''));
  if (!h) throw new ApiError(422, `${field} must be a 32-byte value in hex, base64 or base64url format`);
  return h.hex.toUpperCase();
}

/** The checks every validators endpoint makes, in the reference's order; the normalized member filters and utime range. */
function common(q: Common, embedded: { on: boolean; param: string } | null) {
  if (q.stake_holder_address !== undefined && q.adnl_address !== undefined) throw new ApiError(422, 'provide either stake_holder_address or adnl_address, not both');
  const validator_pubkey = hashFilter('validator_pubkey', q.validator_pubkey);
  const adnl_address = hashFilter('adnl_address', q.adnl_address);
  if (embedded?.on && q.limit !== undefined && q.limit > MAX_EMBEDDED_SET_LIMIT) throw new ApiError(422, `limit must not exceed ${MAX_EMBEDDED_SET_LIMIT} when ${embedded.param} is true`);
  if (q.start_utime !== undefined && q.end_utime !== undefined && q.start_utime > q.end_utime) throw new ApiError(422, 'start_utime must be less than or equal to end_utime');
  const range: UtimeRange = { start_utime: q.start_utime, end_utime: q.end_utime };
  const page: Page = { limit: q.limit ?? VALIDATORS_DEFAULT_LIMIT, offset: q.offset ?? 0, dir: q.sort === 'asc' ? 'ASC' : 'DESC' };
  return { validator_pubkey, adnl_address, range, page };
}

/** The utime bounds the request gave, echoed as the reference does (omitted when absent). */
function echo(r: UtimeRange): Record<string, number> {
  const o: Record<string, number> = {};
  if (r.start_utime !== undefined) o.start_utime = r.start_utime;
  if (r.end_utime !== undefined) o.end_utime = r.end_utime;
  return o;
}

/** Sets `k` only when `v` is not null (the reference's omitempty pointers). */
function opt(o: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== null && v !== undefined) o[k] = v;
}

function eventJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = { tx_hash: b64(r.tx_hash), tx_lt: str(r.tx_lt), utime: num(r.tx_now), type: r.event_type, stake_holder_address: r.stake_holder_address };
  opt(o, 'validator_pubkey', r.validator_pubkey);
  opt(o, 'adnl_addr', r.adnl_addr);
  opt(o, 'election_id', num(r.election_id));
  opt(o, 'query_id', str(r.query_id));
  o.amount = str(r.amount);
  opt(o, 'reason', num(r.reason));
  return o;
}

function cycleJson(r: Row, validators: Record<string, unknown>[] | null): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  opt(o, 'election_id', num(r.election_id));
  Object.assign(o, { cycle_start: num(r.utime_since), cycle_end: num(r.utime_until), total: num(r.total), main: num(r.main), total_weight: str(r.total_weight) });
  opt(o, 'total_stake', str(r.total_stake));
  Object.assign(o, {
    validators_elected_for: num(r.validators_elected_for), elections_start_before: num(r.elections_start_before), elections_end_before: num(r.elections_end_before),
    stake_held_for: num(r.stake_held_for), max_validators: num(r.max_validators), max_main_validators: num(r.max_main_validators), min_validators: num(r.min_validators),
  });
  opt(o, 'min_stake', str(r.min_member_stake));
  opt(o, 'max_stake', str(r.max_member_stake));
  Object.assign(o, { min_stake_limit: str(r.min_stake), max_stake_limit: str(r.max_stake), min_total_stake: str(r.min_total_stake), max_stake_factor: num(r.max_stake_factor) });
  // the reference's `validators,omitempty`: absent unless asked for and non-empty
  if (validators?.length) o.validators = validators;
  return o;
}

function memberJson(r: Row, complaints: Record<string, unknown>[]): Record<string, unknown> {
  const o: Record<string, unknown> = { validator_index: num(r.validator_index), validator_pubkey: r.validator_pubkey, adnl_addr: r.adnl_addr, weight: str(r.weight) };
  opt(o, 'stake_holder_address', r.stake_holder_address);
  opt(o, 'stake', str(r.stake));
  opt(o, 'max_factor', num(r.max_factor));
  o.complaints = complaints;
  return o;
}

/** Hex hashes as the API's base64 (scanValidatorComplaint); a value that is not hex stays as stored. */
const b64OrSelf = (h: unknown): string => b64(h) ?? String(h);

function complaintJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = {
    cycle_start: num(r.cycle_start), election_id: num(r.election_id), complaint_hash: b64OrSelf(r.complaint_hash), validator_pubkey: r.validator_pubkey,
    adnl_addr: r.adnl_addr ?? null,
  };
  opt(o, 'stake_holder_address', r.stake_holder_address);
  Object.assign(o, {
    description_boc: r.description_boc, created_at: num(r.created_at), severity: num(r.severity), reward_address: r.reward_address, paid: str(r.paid),
    suggested_fine: str(r.suggested_fine), suggested_fine_part: num(r.suggested_fine_part), voted_validators: JSON.parse(String(r.voted_validators || '[]')) as unknown,
    vset_id: b64OrSelf(r.vset_id), weight_remaining: str(r.weight_remaining), approved_percent: Number(r.approved_percent), is_passed: Boolean(r.is_passed),
  });
  return o;
}

function electionJson(r: Row, participants: Record<string, unknown>[] | null): Record<string, unknown> {
  const o: Record<string, unknown> = {
    election_id: num(r.election_id), elect_close: num(r.elect_close), min_stake: str(r.min_stake), total_stake: str(r.total_stake),
    total_participants: num(r.total_participants), failed: Boolean(r.failed), finished: Boolean(r.finished),
  };
  // `participants,omitempty`
  if (participants?.length) o.participants = participants;
  return o;
}

function participantJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = { validator_pubkey: r.validator_pubkey };
  opt(o, 'validator_index', num(r.validator_index));
  Object.assign(o, { stake: str(r.stake), max_factor: num(r.max_factor), stake_holder_address: r.stake_holder_address, adnl_addr: r.adnl_addr });
  return o;
}

/**
 * return_validators: the members of each cycle (by cycle_start) with their complaints; the addresses they name are
 * pushed to `addrs` for the address book.
 */
async function cycleMembers(db: Db, rows: Row[], filter: MemberFilter, addrs: (string | undefined)[]): Promise<Map<number, Record<string, unknown>[]>> {
  const starts = rows.map((r) => Number(r.utime_since));
  const found = await validatorCycleMembers(db, starts, filter);
  // every complaint of the cycle's election, by its validator (not narrowed by the member filter, as the reference)
  const complaints = new Map<string, Record<string, unknown>[]>();
  for (const r of await validatorCycleComplaints(db, starts)) {
    const k = `${String(r.cycle_start)}/${String(r.validator_pubkey)}`;
    complaints.set(k, [...(complaints.get(k) ?? []), complaintJson(r)]);
  }
  const members = new Map<number, Record<string, unknown>[]>();
  for (const m of found) {
    const k = Number(m.utime_since);
    const mine = complaints.get(`${k}/${String(m.validator_pubkey)}`) ?? [];
    members.set(k, [...(members.get(k) ?? []), memberJson(m, mine)]);
    addrs.push((m.stake_holder_address as string | null) ?? undefined);
    for (const x of mine) addrs.push((x.stake_holder_address as string | undefined) ?? undefined, x.reward_address as string);
  }
  return members;
}

const tags = ['validators'];

/** The validators endpoints, in the order the docs list them. */
export function validatorRoutes(app: FastifyInstance, deps: V3Deps): void {
  eventsRoute(app, deps);
  cyclesRoute(app, deps);
  electionsRoute(app, deps);
  complaintsRoute(app, deps);
}

function eventsRoute(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/validators/events',
    tags,
    summary: 'Validator stake / recover events',
    description:
      'Elector stake events as the reference\'s worker derives them: a new_stake accepted or rejected by the elector (amount: the stake, or what the ' +
      'rejection returned), recover requests and the elector\'s recover answers. Order: utime, then lt (sort, default desc). limit default 10.',
    params: { ...COMMON, type: { kind: 'string', description: 'event type: stake_accepted, stake_rejected, stake_recovered (recover_requested, recover_failed)' } },
    response: S.ValidatorEventsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const c = common(q, null);
      const rows = await validatorEvents(ctx.db, { ...c.range, stake_holder_address: q.stake_holder_address, validator_pubkey: c.validator_pubkey, adnl_address: c.adnl_address, type: q.type }, c.page);
      const events = rows.map(eventJson);
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.stake_holder_address, ...events.map((e) => e.stake_holder_address as string)], ctx.testnet);
      return { ...echo(c.range), events, address_book };
    },
  });
}

function cyclesRoute(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/validators/cycles',
    tags,
    summary: 'Validation cycles',
    description:
      'Validator sets of config 34 / 36 / 32 as key blocks carried them, with config 15 / 16 / 17 of the latest key block that carried each. ' +
      'min_stake_limit / max_stake_limit are config 17\'s; min_stake / max_stake the selected validators\' true stake bounds. election_id, total_stake and ' +
      'each validator\'s stake come from the elector\'s past_elections at a key block, its stake holder and max_factor (the raw declared factor, ' +
      '65536 = 1.0; the effective one is min(max_factor, max_stake_factor)) from its election\'s participants, its complaints from list_complaints. ' +
      'start_utime / end_utime bound cycle_start. Order: cycle_start (sort, default desc). limit default 10, at most 100 with return_validators.',
    params: {
      cycle_start: { kind: 'int32' },
      election_id: { kind: 'int32' },
      ...COMMON,
      return_validators: { kind: 'bool', default: false },
    },
    response: S.ValidatorCyclesResponse,
    async handler(ctx) {
      const { q } = ctx;
      const c = common(q, { on: q.return_validators, param: 'return_validators' });
      const rows = await validatorCycles(ctx.db, {
        ...c.range, cycle_start: q.cycle_start, election_id: q.election_id, stake_holder_address: q.stake_holder_address, adnl_address: c.adnl_address, validator_pubkey: c.validator_pubkey,
      }, c.page);
      const addrs: (string | undefined)[] = [q.stake_holder_address];
      const members = q.return_validators
        ? await cycleMembers(ctx.db, rows, { adnl_address: c.adnl_address, validator_pubkey: c.validator_pubkey, stake_holder_address: q.stake_holder_address }, addrs)
        : new Map<number, Record<string, unknown>[]>();
      const cycles = rows.map((r) => cycleJson(r, q.return_validators ? (members.get(Number(r.utime_since)) ?? []) : null));
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, addrs, ctx.testnet);
      return { cycles, address_book };
    },
  });
}

function electionsRoute(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/validators/elections',
    tags,
    summary: 'Validator elections',
    description:
      'Elections as the elector\'s participant_list_extended answered at the masterchain blocks that changed them (the latest answer). A participant ' +
      'the elector stops listing keeps its last row, as the reference\'s upsert. start_utime / end_utime bound election_id, not elect_close. ' +
      'Order: election_id (sort, default desc). limit default 10, at most 100 with return_participants; with a participant filter, return_participants ' +
      'gives only the matching participants.',
    params: {
      election_id: { kind: 'int32' },
      ...COMMON,
      return_participants: { kind: 'bool', default: false },
      finished: { kind: 'bool', description: 'filter by finished flag' },
    },
    response: S.ValidatorElectionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const c = common(q, { on: q.return_participants, param: 'return_participants' });
      const member = { stake_holder_address: q.stake_holder_address, adnl_address: c.adnl_address, validator_pubkey: c.validator_pubkey };
      const rows = await validatorElections(ctx.db, { ...c.range, ...member, election_id: q.election_id, finished: q.finished }, c.page);
      const byElection = new Map<number, Record<string, unknown>[]>();
      const addrs: (string | undefined)[] = [q.stake_holder_address];
      if (q.return_participants) {
        for (const p of await validatorElectionParticipants(ctx.db, rows.map((r) => Number(r.election_id)), member)) {
          const k = Number(p.election_id);
          byElection.set(k, [...(byElection.get(k) ?? []), participantJson(p)]);
          addrs.push(p.stake_holder_address as string);
        }
      }
      const elections = rows.map((r) => electionJson(r, q.return_participants ? (byElection.get(Number(r.election_id)) ?? []) : null));
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, addrs, ctx.testnet);
      return { elections, address_book };
    },
  });
}

function complaintsRoute(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/validators/complaints',
    tags,
    summary: 'Validator complaints',
    description:
      'Complaints as the elector\'s list_complaints answered for the elections of config 34 and 32, at key blocks and blocks that carried a complaint ' +
      'or a vote (the latest answer), each with the cycle its election produced. complaint_hash and vset_id are base64; voted_validators carry the ' +
      'voting set\'s keys where it is config 34 / 36 / 32. start_utime / end_utime bound created_at. Order: created_at (sort, default desc), then ' +
      'complaint hash. limit default 10.',
    params: {
      cycle_start: { kind: 'int32' },
      election_id: { kind: 'int32' },
      ...COMMON,
    },
    response: S.ValidatorComplaintsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const c = common(q, null);
      const rows = await validatorComplaints(ctx.db, {
        ...c.range, cycle_start: q.cycle_start, election_id: q.election_id, stake_holder_address: q.stake_holder_address, adnl_address: c.adnl_address, validator_pubkey: c.validator_pubkey,
      }, c.page);
      const complaints = rows.map(complaintJson);
      const addrs: (string | undefined)[] = [q.stake_holder_address];
      for (const x of complaints) addrs.push((x.stake_holder_address as string | undefined) ?? undefined, x.reward_address as string);
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, addrs, ctx.testnet);
      return { complaints, address_book };
    },
  });
}
