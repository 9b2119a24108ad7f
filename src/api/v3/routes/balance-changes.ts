/** balanceChanges (reference §2.9, undocumented there): TON and jetton balance deltas of a trace or an action. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { actionScope, actionTraceAndTxs, computeBalanceChanges, loadTraceForBalances } from '../queries/balance-changes.ts';
import { balanceChangesJson } from '../render.ts';
import { addRoute, RawJson, type V3Deps } from '../route.ts';

const Addr = z.string().describe('raw address wc:HEX');
const BalanceChangesResponse = z.object({
  changes: z.record(Addr, z.number().int()).describe('nanotons: TON received minus TON sent minus fees paid, per address (exact JSON integers)'),
  fees: z.record(Addr, z.number().int()).describe('nanotons paid in fees per address: own total_fees plus forwarding fees of the messages it sent'),
  jettons: z.record(Addr, z.record(Addr, z.string())).describe('owner -> jetton master -> signed amount (decimal string)'),
});

const DESCRIPTION = [
  'Give exactly one of trace_id, action_id. For every transaction of the trace (or of the action) the account pays its',
  'total_fees; an internal message moves its value from sender to receiver and its forwarding fee is charged to the sender;',
  '`changes` = value received - value sent - fees. For an action, its earliest transaction is left out when an internal',
  'message started it (as the reference does). Messages still in flight are debited from their sender. Jettons: completed',
  'transfers move the amount from the sending owner to the receiving owner, burns debit the owner; aborted requests move',
  'nothing. Integers are exact (no float rounding beyond 2^53).',
].join(' ');

export function balanceChangesRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/balanceChanges',
    tags: ['actions and traces'],
    summary: 'TON and jetton balance changes of a trace or an action',
    description: DESCRIPTION,
    params: {
      trace_id: { kind: 'hash', description: 'trace id (hash of the root transaction)' },
      action_id: { kind: 'hash', description: 'action id' },
    },
    response: BalanceChangesResponse,
    async handler({ q, db }) {
      const traceParam = q.trace_id;
      const actionParam = q.action_id;
      if (traceParam !== undefined && actionParam !== undefined) throw new ApiError(422, 'only one of trace_id, action_id should be specified');
      if (traceParam === undefined && actionParam === undefined) throw new ApiError(422, 'trace_id or action_id is required');
      let traceId = traceParam;
      let actionTxs: string[] | null = null;
      if (actionParam !== undefined) {
        const a = await actionTraceAndTxs(db, actionParam);
        if (!a) throw new ApiError(404, 'action_id not found');
        traceId = a.trace_id;
        actionTxs = a.tx_hashes;
      }
      const trace = await loadTraceForBalances(db, traceId!);
      if (!trace) throw new ApiError(404, actionParam !== undefined ? 'transactions of the action\'s trace not found' : 'trace_id not found');
      const scope = actionTxs ? actionScope(trace.txs, actionTxs) : undefined;
      return new RawJson(balanceChangesJson(computeBalanceChanges(trace.txs, trace.moves, scope)));
    },
  });
}
