/**
 * Validators (ton-indexer v1.3: main.go GetValidatorEvents / GetValidatorCycles, crud_validators.go): stake events
 * and validation cycles, with the reference's parameters, defaults (limit 10), checks and texts. Elections and
 * complaints are not served: their rows come from the elector's get-methods, which read data a block does not carry
 * (src/entities/validators.ts, README "Differences from toncenter").
 */
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { tryParseHash } from '../../../format/index.ts';
import { ApiError } from '../../errors.ts';
import { bookOf } from '../address-book.ts';
import { type Page, type ParamSpec } from '../params.ts';
import { validatorCycleMembers, validatorCycles, validatorEvents, type UtimeRange } from '../queries/validators.ts';
import { b64, num, str } from '../render.ts';
import type { Row } from '../db.ts';
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

function memberJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = { validator_index: num(r.validator_index), validator_pubkey: r.validator_pubkey, adnl_addr: r.adnl_addr, weight: str(r.weight) };
  opt(o, 'stake', str(r.stake));
  o.complaints = [];
  return o;
}

export function validatorRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['validators'];

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

  addRoute(app, deps, {
    url: '/validators/cycles',
    tags,
    summary: 'Validation cycles',
    description:
      'Validator sets of config 34 / 36 / 32 as key blocks carried them, with config 15 / 16 / 17 of the latest key block that carried each. ' +
      'min_stake_limit / max_stake_limit are config 17\'s; election_id, total_stake, min_stake / max_stake and each validator\'s stake, stake holder, ' +
      'max factor and complaints come from the elector\'s state, which this gateway does not read (absent, complaints empty). ' +
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
      let members = new Map<number, Record<string, unknown>[]>();
      if (q.return_validators) {
        const found = await validatorCycleMembers(ctx.db, rows.map((r) => Number(r.utime_since)), { adnl_address: c.adnl_address, validator_pubkey: c.validator_pubkey, stake_holder_address: q.stake_holder_address });
        members = new Map();
        for (const m of found) {
          const k = Number(m.utime_since);
          members.set(k, [...(members.get(k) ?? []), memberJson(m)]);
        }
      }
      const cycles = rows.map((r) => cycleJson(r, q.return_validators ? (members.get(Number(r.utime_since)) ?? []) : null));
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.stake_holder_address], ctx.testnet);
      return { cycles, address_book };
    },
  });
}
