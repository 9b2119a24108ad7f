/**
 * Legacy v2-style group (reference §2.11). addressInformation / walletInformation answer from the
 * index (the reference's default `use_v2=false` path); runGetMethod, estimateFee and message go
 * through the node layer (`deps.node`, supplied by the API v2 stage) and are 501 when it is absent.
 * runGetMethod converts the stack both ways as the reference's index/proxy.go: {type: num|cell|slice, value}
 * in, v2 legacy entries to the node, {type, value} out (numbers 0x-hex, tuples and lists nested).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { walletTypeOfCodeHash } from '../../../format/index.ts';
import { ApiError, unknownParams } from '../../errors.ts';
import { b64, str } from '../render.ts';
import type { ParamsOf, ParamSpec } from '../params.ts';
import { addRoute, type Ctx, type LegacyNode, type V3Deps } from '../route.ts';
import { latestStates } from '../queries/accounts.ts';
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

async function stateOf(ctx: Ctx<{ address: string }>) {
  const [s] = await latestStates(ctx.db, [ctx.q.address], true);
  return s;
}

function nodeOf(ctx: Ctx<unknown>, k: 'runGetMethod' | 'estimateFee' | 'sendMessage'): LegacyNode {
  const node = ctx.deps.node;
  if (!node?.[k]) throw new ApiError(501, `${k} needs the node layer (liteservers), which is not configured on this deployment`);
  return node;
}

function body<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw new ApiError(422, 'invalid request body: expected a JSON object');
  const r = schema.safeParse(raw ?? {});
  if (!r.success) {
    const unknown = r.error.issues.find((i) => i.code === 'unrecognized_keys');
    if (unknown && 'keys' in unknown) throw unknownParams(unknown.keys as string[]);
    const i = r.error.issues[0];
    throw new ApiError(422, `invalid request body${i.path.length ? ` field ${i.path.join('.')}` : ''}: ${i.message}`);
  }
  return r.data;
}

/** The reference's V2StackEntity: {type: num | cell | slice, value}; num values as JSON numbers or (0x-)strings. */
const StackEntity = z.strictObject({ type: z.string(), value: z.union([z.string(), z.number()]) });
const RunGetMethodBody = z.strictObject({ address: z.string().min(1), method: z.string().min(1), stack: z.array(StackEntity).default([]) });
// The reference's V2EstimateFeeRequest has `ignore_chksig bool`: absent is false (Go's zero value).
const EstimateFeeBody = z.strictObject({ address: z.string().min(1), body: z.string(), init_code: z.string().optional(), init_data: z.string().optional(), ignore_chksig: z.boolean().default(false) });
const MessageBody = z.strictObject({ boc: z.string().min(1) });

/** v3 stack entries -> API v2 legacy entries, as the reference's proxy.go maps them (num, tvm.Cell, tvm.Slice). */
export function toV2Stack(stack: z.output<typeof RunGetMethodBody>['stack']): [string, string | number][] {
  return stack.map((e, i) => {
    const tag = e.type === 'num' ? 'num' : e.type === 'cell' ? 'tvm.Cell' : e.type === 'slice' ? 'tvm.Slice' : null;
    if (!tag) throw new ApiError(422, `invalid request body field stack.${i}.type: unsupported stack parameter type: ${JSON.stringify(e.type.slice(0, 40))} (num, cell or slice)`);
    if (tag !== 'num' && typeof e.value !== 'string') throw new ApiError(422, `invalid request body field stack.${i}.value: a ${e.type} is a base64 BoC string`);
    return [tag, e.value];
  });
}

interface V3StackEntry {
  type: string;
  value: unknown;
}

/** `%#x` of a decimal (Go's big.Int): 0x1f, -0x1f, 0x0. */
function hexOf(decimal: unknown, where: string): string {
  if (typeof decimal !== 'string' || !/^-?\d+$/.test(decimal)) throw new Error(`${where}: failed to parse decimal ${String(decimal)}`);
  const n = BigInt(decimal);
  return n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`;
}

/** One typed tvm.stackEntry* (elements of a tuple or list) -> {type, value} (proxy.go DecodeStackEntry). */
function fromTyped(e: Record<string, unknown>, where: string): V3StackEntry {
  const t = e['@type'];
  switch (t) {
    case 'tvm.stackEntryNumber':
      return { type: 'num', value: hexOf((e.number as { number?: unknown } | undefined)?.number, where) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: (e.cell as { bytes: string }).bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: (e.slice as { bytes: string }).bytes };
    case 'tvm.stackEntryTuple':
    case 'tvm.stackEntryList': {
      const type = t === 'tvm.stackEntryTuple' ? 'tuple' : 'list';
      const elements = ((e[type] as { elements: Record<string, unknown>[] }).elements ?? []).map((x, i) => fromTyped(x, `${where}.${i}`));
      return { type, value: elements };
    }
    default:
      throw new Error(`unsupported stack entry type: ${String(t)}`);
  }
}

/** API v2 legacy result entries -> the reference's {type, value} entries: numbers as given (0x hex), cells and slices as BoCs. */
export function fromV2Stack(stack: unknown[]): V3StackEntry[] {
  return stack.map((raw, i) => {
    const [tag, value] = raw as [string, unknown];
    switch (tag) {
      case 'num':
        return { type: 'num', value };
      case 'cell':
      case 'slice':
        return { type: tag, value: (value as { bytes: string }).bytes };
      case 'tuple':
      case 'list': {
        const elements = ((value as { elements: Record<string, unknown>[] }).elements ?? []).map((x, j) => fromTyped(x, `${i}.${j}`));
        return { type: tag, value: elements };
      }
      default:
        throw new Error(`unsupported stack entry type: ${tag}`);
    }
  });
}

const RunGetMethodResult = z.object({
  gas_used: z.number().int(),
  exit_code: z.number().int(),
  stack: z.array(z.object({ type: z.string(), value: z.unknown() })),
});

export function legacyRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['api/v2'];
  const addrParams = { address: { kind: 'address', required: true }, use_v2: { kind: 'bool', default: false } } satisfies ParamSpec;

  const addressInformation = async (ctx: Ctx<ParamsOf<typeof addrParams>>) => {
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

  const walletInformation = async (ctx: Ctx<ParamsOf<typeof addrParams>>) => {
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
    method: 'POST',
    url: '/runGetMethod',
    tags,
    summary: 'Run a get-method (through the node layer)',
    description:
      'Stack in and out as the reference: [{"type": "num", "value": "0x12a"}, {"type": "cell" | "slice", "value": "<base64 BoC>"}]; ' +
      'results also have {"type": "tuple" | "list", "value": [...]}, numbers as 0x-hex (negative -0x...). Answer {gas_used, exit_code, stack}.',
    body: RunGetMethodBody,
    response: RunGetMethodResult,
    async handler(ctx) {
      const b = body(RunGetMethodBody, ctx.request.body);
      const r = (await nodeOf(ctx, 'runGetMethod').runGetMethod!({ address: b.address, method: b.method, stack: toV2Stack(b.stack) })) as { gas_used: number; exit_code: number; stack: unknown[] };
      let stack: V3StackEntry[];
      try {
        stack = fromV2Stack(r.stack);
      } catch (e) {
        // the reference's answer when the result holds what its decoder does not know (a builder, a NaN in a tuple)
        throw new ApiError(501, `failed to decode api/v2 stack: ${(e as Error).message}`);
      }
      return { gas_used: r.gas_used, exit_code: r.exit_code, stack };
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
