/**
 * Legacy v2-style group (reference §2.11). addressInformation / walletInformation answer from the
 * index (the reference's default `use_v2=false` path); runGetMethod, estimateFee and message go
 * through the node layer (`deps.node`, supplied by the API v2 stage) and are 501 when it is absent.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { walletTypeOfCodeHash } from '../../../format/index.ts';
import { ApiError } from '../../errors.ts';
import { b64, str } from '../render.ts';
import { addRoute, type Ctx, type LegacyNode, type V3Deps } from '../route.ts';
import { latestStates } from './accounts.ts';
import { Cell } from '@ton/core';

const ZERO_HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const AddressInformation = z.object({
  balance: z.string(), code: z.string().nullable(), data: z.string().nullable(), last_transaction_lt: z.string().nullable(),
  last_transaction_hash: z.string().nullable(), frozen_hash: z.string().nullable(), status: z.string(),
});
const WalletInformation = z.object({
  balance: z.string(), wallet_type: z.string().optional(), seqno: z.number().optional(), wallet_id: z.number().optional(),
  last_transaction_lt: z.string().nullable(), last_transaction_hash: z.string().nullable(), status: z.string(),
});

async function stateOf(ctx: Ctx) {
  const [s] = await latestStates(ctx.db, [ctx.q.address as string], true);
  return s;
}

function nodeOf(ctx: Ctx, k: 'runGetMethod' | 'estimateFee' | 'sendMessage'): LegacyNode {
  const node = ctx.deps.node;
  if (!node?.[k]) throw new ApiError(501, `${k} needs the node layer (liteservers), which is not configured on this deployment`);
  return node;
}

function body<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const r = schema.safeParse(raw ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new ApiError(422, `invalid request body${i.path.length ? ` field ${i.path.join('.')}` : ''}: ${i.message}`);
  }
  return r.data;
}

const RunGetMethodBody = z.object({ address: z.string().min(1), method: z.string().min(1), stack: z.array(z.object({ type: z.string(), value: z.unknown() })).default([]) });
const EstimateFeeBody = z.object({ address: z.string().min(1), body: z.string(), init_code: z.string().optional(), init_data: z.string().optional(), ignore_chksig: z.boolean().default(true) });
const MessageBody = z.object({ boc: z.string().min(1) });

export function legacyRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['api/v2'];
  const addrParams = { address: { kind: 'address' as const, required: true }, use_v2: { kind: 'bool' as const, default: false } };

  const addressInformation = async (ctx: Ctx) => {
    const s = await stateOf(ctx);
    if (!s) return { balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, frozen_hash: null, status: 'uninit' };
    return {
      balance: str(s.balance), code: str(s.code_boc), data: str(s.data_boc), last_transaction_lt: str(s.last_trans_lt),
      last_transaction_hash: b64(s.last_trans_hash), frozen_hash: b64(s.frozen_hash), status: String(s.account_status),
    };
  };
  for (const url of ['/addressInformation', '/account']) {
    addRoute(app, deps, { url, tags, summary: 'Account balance, code, data and last transaction (from the index)', params: addrParams, response: AddressInformation, handler: addressInformation });
  }

  const walletInformation = async (ctx: Ctx) => {
    const s = await stateOf(ctx);
    if (!s) return { balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, status: 'uninit' };
    const type = walletTypeOfCodeHash(s.code_hash as string | null);
    if (!type && s.account_status === 'active') throw new ApiError(409, 'not a wallet');
    const o: Record<string, unknown> = { balance: str(s.balance) };
    if (type) {
      o.wallet_type = type;
      try {
        const d = Cell.fromBase64(String(s.data_boc)).beginParse();
        if (type.startsWith('wallet v5')) {
          d.loadBit();
          o.seqno = d.loadUint(32);
          o.wallet_id = d.loadInt(32);
        } else {
          o.seqno = d.loadUint(32);
          if (/v[34]/.test(type)) o.wallet_id = d.loadUint(32);
        }
      } catch {
        // data not in the expected layout: type only
      }
    }
    return { ...o, last_transaction_lt: str(s.last_trans_lt), last_transaction_hash: b64(s.last_trans_hash), status: String(s.account_status) };
  };
  for (const url of ['/walletInformation', '/wallet']) {
    addRoute(app, deps, { url, tags, summary: 'Wallet type, seqno and wallet id (from the index)', params: addrParams, response: WalletInformation, handler: walletInformation });
  }

  addRoute(app, deps, {
    method: 'POST', url: '/runGetMethod', tags, summary: 'Run a get-method (through the node layer)', body: RunGetMethodBody, response: z.record(z.string(), z.unknown()),
    async handler(ctx) {
      const b = body(RunGetMethodBody, ctx.request.body);
      return nodeOf(ctx, 'runGetMethod').runGetMethod!(b);
    },
  });
  addRoute(app, deps, {
    method: 'POST', url: '/estimateFee', tags, summary: 'Estimate fees of an external message (through the node layer)', body: EstimateFeeBody, response: z.record(z.string(), z.unknown()),
    async handler(ctx) {
      const b = body(EstimateFeeBody, ctx.request.body);
      return nodeOf(ctx, 'estimateFee').estimateFee!(b);
    },
  });
  addRoute(app, deps, {
    method: 'POST', url: '/message', tags, summary: 'Send an external message (through the node layer)', body: MessageBody,
    response: z.object({ message_hash: z.string(), message_hash_norm: z.string() }),
    async handler(ctx) {
      const b = body(MessageBody, ctx.request.body);
      return nodeOf(ctx, 'sendMessage').sendMessage!(b.boc);
    },
  });
}
