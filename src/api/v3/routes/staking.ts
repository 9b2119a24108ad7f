/**
 * Nominator pools (ton-indexer v1.3: main.go GetNominatorPool, GetNominatorPoolNominator, GetNominatorPoolNominatorEvents,
 * GetNominatorPoolNominatorRewards, GetNominatorPoolValidatorEvents, GetNominatorPoolValidatorRewards;
 * crud_staking.go): the rows src/entities/nominator-pool-replay.ts derives. The reference's required parameters,
 * utime checks, order (newest first) and limit (no offset), and its `total_on_page` sums.
 */
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/staking.ts';
import { ApiError } from '../../errors.ts';
import { bookOf } from '../address-book.ts';
import type { Row } from '../db.ts';
import { nominatorPool, nominatorPoolEvents, nominatorPositions, nominatorRewards, poolValidatorEvents, type Utimes } from '../queries/staking.ts';
import { b64, num, str } from '../render.ts';
import { addRoute, type V3Deps } from '../route.ts';

const UTIMES = { start_utime: { kind: 'utime' }, end_utime: { kind: 'utime' } } as const;
const LIMIT = { limit: { kind: 'limit', description: 'page size, 1..1000, default 100' } } as const;
const DEFAULT_LIMIT = 100;

/** parseStakingUtimeFilter's check; the bounds echoed when given. */
function range(q: Utimes): { range: Utimes; echo: Record<string, number> } {
  if (q.start_utime !== undefined && q.end_utime !== undefined && q.start_utime > q.end_utime) throw new ApiError(422, 'start_utime must be less than or equal to end_utime');
  const echo: Record<string, number> = {};
  if (q.start_utime !== undefined) echo.start_utime = q.start_utime;
  if (q.end_utime !== undefined) echo.end_utime = q.end_utime;
  return { range: { start_utime: q.start_utime, end_utime: q.end_utime }, echo };
}

const sum = (xs: unknown[]) => xs.reduce<bigint>((a, x) => a + BigInt(String(x)), 0n).toString();

function nominatorEventJson(r: Row): Record<string, unknown> {
  return {
    tx_hash: b64(r.tx_hash), tx_lt: str(r.tx_lt), utime: num(r.tx_now), pool_address: r.pool_address, nominator_address: r.nominator_address, type: r.event_type,
    amount: str(r.amount), balance_delta: str(r.balance_delta), pending_balance_delta: str(r.pending_balance_delta), balance_before: str(r.balance_before),
    balance_after: str(r.balance_after), pending_balance_before: str(r.pending_balance_before), pending_balance_after: str(r.pending_balance_after),
    withdraw_request_before: Boolean(r.withdraw_request_before), withdraw_request_after: Boolean(r.withdraw_request_after),
  };
}

function validatorEventJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = {
    tx_hash: b64(r.tx_hash), tx_lt: str(r.tx_lt), utime: num(r.tx_now), pool_address: r.pool_address, validator_address: r.validator_address, type: r.event_type,
    amount: str(r.amount), balance_delta: str(r.balance_delta), balance_before: str(r.balance_before), balance_after: str(r.balance_after),
  };
  if (r.query_id !== null && r.query_id !== undefined) o.query_id = str(r.query_id);
  if (r.cycle_start !== null && r.cycle_start !== undefined) o.cycle_start = num(r.cycle_start);
  o.validator_reward_share = num(r.validator_reward_share);
  return o;
}

export function stakingRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['staking'];

  addRoute(app, deps, {
    url: '/staking/nominatorPools/pool', tags, summary: 'Get nominator pool',
    description: 'The official nominator pool\'s latest state as indexed (its storage after its last transaction); 404 when the pool is not indexed.',
    params: { pool: { kind: 'address', required: true, description: 'pool address in any form' } },
    response: S.NominatorPoolInfo,
    async handler(ctx) {
      const row = await nominatorPool(ctx.db, ctx.q.pool);
      if (!row) throw new ApiError(404, 'Pool not found');
      const active = JSON.parse(String(row.active_nominators)) as { address: string; balance: string; pending_balance: string }[];
      const info = {
        state: num(row.state), stake_amount_sent: str(row.stake_amount_sent), validator_amount: str(row.validator_amount), validator_address: row.validator_address,
        validator_reward_share: num(row.validator_reward_share), max_nominators_count: num(row.max_nominators_count), min_validator_stake: str(row.min_validator_stake),
        min_nominator_stake: str(row.min_nominator_stake), nominators_count: num(row.nominators_count), active_nominators: active,
      };
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [ctx.q.pool, String(row.validator_address), ...active.map((a) => a.address)], ctx.testnet);
      return { ...info, address_book };
    },
  });

  addRoute(app, deps, {
    url: '/staking/nominatorPools/nominator', tags, summary: 'Get nominator positions in nominator pools',
    description: 'The pools whose latest state lists the nominator, with its balance and pending balance there, by pool address.',
    params: { nominator: { kind: 'address', required: true, description: 'nominator address in any form' } },
    response: S.NominatorPoolsResponse,
    async handler(ctx) {
      const rows = await nominatorPositions(ctx.db, ctx.q.nominator);
      const nominator_pools = rows.flatMap((r) => (JSON.parse(String(r.active_nominators)) as { address: string; balance: string; pending_balance: string }[])
        .filter((n) => n.address === ctx.q.nominator).map((n) => ({ pool_address: String(r.address), balance: n.balance, pending_balance: n.pending_balance })));
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [ctx.q.nominator, ...nominator_pools.map((p) => p.pool_address)], ctx.testnet);
      return { nominator_pools, address_book };
    },
  });

  addRoute(app, deps, {
    url: '/staking/nominatorPools/nominatorEvents', tags, summary: 'Get nominator events from nominator pools',
    description: 'Deposits, withdrawals, withdrawal requests, rewards and pending deposit activations of a pool\'s nominators, newest first.',
    params: { pool: { kind: 'address', required: true, description: 'pool address in any form' }, nominator: { kind: 'address', description: 'nominator address in any form' }, ...UTIMES, ...LIMIT },
    response: S.NominatorPoolEventsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const r = range(q);
      const events = (await nominatorPoolEvents(ctx.db, { ...r.range, pool: q.pool, nominator: q.nominator }, q.limit ?? DEFAULT_LIMIT)).map(nominatorEventJson);
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.pool, q.nominator, ...events.flatMap((e) => [String(e.pool_address), String(e.nominator_address)])], ctx.testnet);
      return { ...r.echo, events, address_book };
    },
  });

  addRoute(app, deps, {
    url: '/staking/nominatorPools/nominatorRewards', tags, summary: 'Get nominator rewards from a nominator pool',
    description: 'A nominator\'s rewards in a pool, newest first; total_on_page sums the page.',
    params: { nominator: { kind: 'address', required: true }, pool: { kind: 'address', required: true }, ...UTIMES, ...LIMIT },
    response: S.NominatorRewardsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const r = range(q);
      const rows = await nominatorRewards(ctx.db, { ...r.range, pool: q.pool, nominator: q.nominator }, q.limit ?? DEFAULT_LIMIT);
      const rewards = rows.map((x) => ({ utime: num(x.tx_now), reward: str(x.amount), stake_before: str(x.balance_before), tx_hash: b64(x.tx_hash), tx_lt: str(x.tx_lt) }));
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.nominator, q.pool], ctx.testnet);
      return { ...r.echo, total_on_page: sum(rows.map((x) => x.amount)), rewards, address_book };
    },
  });

  addRoute(app, deps, {
    url: '/staking/nominatorPools/validatorEvents', tags, summary: 'Get validator accounting events from nominator pools',
    description: 'The validator\'s deposits, withdrawals, rewards and penalties in its pools, newest first; validator or pool is required.',
    params: { validator: { kind: 'address' }, pool: { kind: 'address' }, type: { kind: 'string', description: 'reward, penalty, deposit or withdrawal' }, ...UTIMES, ...LIMIT },
    response: S.NominatorPoolValidatorEventsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.validator === undefined && q.pool === undefined) throw new ApiError(422, 'validator or pool parameter is required');
      const r = range(q);
      const events = (await poolValidatorEvents(ctx.db, { ...r.range, validator: q.validator, pool: q.pool, type: q.type }, q.limit ?? DEFAULT_LIMIT)).map(validatorEventJson);
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.validator, q.pool, ...events.flatMap((e) => [String(e.pool_address), String(e.validator_address)])], ctx.testnet);
      return { ...r.echo, events, address_book };
    },
  });

  addRoute(app, deps, {
    url: '/staking/nominatorPools/validatorRewards', tags, summary: 'Get validator rewards from a nominator pool',
    description: 'The validator\'s rewards in a pool, newest first; total_on_page sums the page.',
    params: { validator: { kind: 'address', required: true }, pool: { kind: 'address', required: true }, ...UTIMES, ...LIMIT },
    response: S.NominatorPoolValidatorRewardsResponse,
    async handler(ctx) {
      const { q } = ctx;
      const r = range(q);
      const rows = await poolValidatorEvents(ctx.db, { ...r.range, validator: q.validator, pool: q.pool, type: 'reward' }, q.limit ?? DEFAULT_LIMIT);
      const rewards = rows.map((x) => {
        const o: Record<string, unknown> = { utime: num(x.tx_now), reward: str(x.amount), balance_before: str(x.balance_before), tx_hash: b64(x.tx_hash), tx_lt: str(x.tx_lt) };
        if (x.cycle_start !== null && x.cycle_start !== undefined) o.cycle_start = num(x.cycle_start);
        if (x.query_id !== null && x.query_id !== undefined) o.query_id = str(x.query_id);
        return o;
      });
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, [q.validator, q.pool], ctx.testnet);
      return { ...r.echo, total_on_page: sum(rows.map((x) => x.amount)), rewards, address_book };
    },
  });
}
