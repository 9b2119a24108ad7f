/**
 * Parameter schemas of API v2 (query string for GET, JSON body for POST, `params` of jsonRPC).
 * Integers may be sent as numbers or strings (needed for 64-bit values); addresses and hashes in any
 * form src/format accepts. Objects are strict: unknown parameters are rejected by name.
 */
import { z } from 'zod';
import { tryParseAddress, tryParseHash, type ParsedAddress } from '../../../src/format/index.ts';
import { parseShard } from '../../../src/format/index.ts';

function fail(ctx: z.RefinementCtx, input: unknown, message: string): never {
  ctx.addIssue({ code: 'custom', message, input });
  return z.NEVER as never;
}

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'expected a single value' });

function intIn(min: bigint, max: bigint, what: string) {
  return scalar.transform((v, ctx): bigint => {
    if (typeof v === 'boolean') return fail(ctx, v, `expected ${what}`);
    if (typeof v === 'number' && !Number.isSafeInteger(v)) return fail(ctx, v, `expected ${what}; pass big numbers as strings`);
    const s = String(v).trim();
    if (!/^-?\d+$/.test(s)) return fail(ctx, v, `expected ${what}, got ${JSON.stringify(s.slice(0, 40))}`);
    const n = BigInt(s);
    if (n < min || n > max) return fail(ctx, v, `${s} is out of range (${min}..${max})`);
    return n;
  });
}

export const int32 = intIn(-(2n ** 31n), 2n ** 31n - 1n, 'a 32-bit integer').transform(Number);
export const uint32 = intIn(0n, 2n ** 32n - 1n, 'an unsigned 32-bit integer').transform(Number);
export const seqno = intIn(1n, 2n ** 32n - 1n, 'a positive block seqno').transform(Number);
export const mcSeqnoAny = intIn(0n, 2n ** 32n - 1n, 'a block seqno').transform(Number);
export const workchain = intIn(-128n, 127n, 'a workchain id (-1 or 0)').transform(Number);
/** Logical time: unsigned 64-bit. */
export const lt = intIn(0n, 2n ** 64n - 1n, 'a logical time (unsigned 64-bit integer)');
export const count = (max: number) => intIn(1n, BigInt(max), `an integer 1..${max}`).transform(Number);

/** TON's deepest shard prefix (ton-types.h max_shard_pfx_len): a shard id is its prefix bits and a 1 bit. */
const MAX_SHARD_PFX_LEN = 60;
const MASTER_SHARD = -(1n << 63n);

export const shard = scalar.transform((v, ctx): bigint => {
  let id: bigint;
  try {
    if (typeof v === 'boolean') throw new Error();
    id = parseShard(v);
  } catch {
    return fail(ctx, v, 'expected a signed 64-bit shard id (e.g. -9223372036854775808) or 16 hex digits (8000000000000000)');
  }
  // 0 has no terminating bit (what `-0` and ton-http-api-cpp's reading of `0x10` give); a deeper prefix than TON allows
  // names no shard: both would only come back as a liteserver error.
  if (id === 0n || (BigInt.asUintN(64, id) & ((1n << BigInt(63 - MAX_SHARD_PFX_LEN)) - 1n)) !== 0n) {
    return fail(ctx, v, `${String(v).slice(0, 40)} is not a shard id (a prefix of at most ${MAX_SHARD_PFX_LEN} bits followed by a 1 bit, e.g. -9223372036854775808)`);
  }
  return id;
});

/** The masterchain has one shard: checked where a workchain comes with the shard. */
function masterShard(p: { workchain: number; shard: bigint }, ctx: z.RefinementCtx): void {
  if (p.workchain === -1 && p.shard !== MASTER_SHARD) ctx.addIssue({ code: 'custom', path: ['shard'], message: 'the masterchain has one shard: -9223372036854775808 (8000000000000000)' });
}

/** Workchains with accounts: the masterchain and the basechain (others exist in no network's config). */
const ACCOUNT_WORKCHAINS = new Set([-1, 0]);

export const address = scalar.transform((v, ctx): ParsedAddress => {
  const p = typeof v === 'string' ? tryParseAddress(v) : null;
  if (!p) return fail(ctx, v, `invalid address ${JSON.stringify(String(v).slice(0, 80))}`);
  if (!ACCOUNT_WORKCHAINS.has(p.workchain)) return fail(ctx, v, `workchain ${p.workchain} does not exist (accounts live in -1 and 0)`);
  return p;
});

/** 256-bit hash: 64 hex, 44-char base64 / base64url, 43-char unpadded. Parsed to lower-case hex. */
export const hash = scalar.transform((v, ctx): string => {
  const h = typeof v === 'string' ? tryParseHash(v) : null;
  if (!h) return fail(ctx, v, 'expected 64 hex chars or 44-char base64/base64url');
  return h.hex;
});

export const bool = scalar.transform((v, ctx): boolean => {
  if (typeof v === 'boolean') return v;
  const s = String(v).toLowerCase();
  if (['1', 'true', 't', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'f', 'no', 'off'].includes(s)) return false;
  return fail(ctx, v, 'expected true or false');
});

/** A base64 BoC (standard or url-safe alphabet). */
export const boc = z.string({ error: 'expected a base64 BoC string' }).transform((v, ctx): Buffer => {
  const s = v.trim();
  if (s.length === 0) return fail(ctx, v, 'empty boc');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return fail(ctx, v, 'not base64');
  return Buffer.from(s, /[-_]/.test(s) ? 'base64url' : 'base64');
});

const optionalBoc = z
  .string({ error: 'expected a base64 BoC string' })
  .transform((v, ctx): Buffer | null => {
    const s = v.trim();
    if (s.length === 0) return null;
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return fail(ctx, v, 'not base64');
    return Buffer.from(s, /[-_]/.test(s) ? 'base64url' : 'base64');
  });

/** Repeated query key or JSON array; a single value is a one-element list. */
function listOf<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess((v) => (v === undefined ? v : Array.isArray(v) ? v : [v]), z.array(item));
}

const apiKey = { api_key: z.string().optional() };
const atSeqno = { seqno: seqno.optional() };

export const addressParams = z.strictObject({ address, ...atSeqno, ...apiKey });
export const tokenDataParams = z.strictObject({ address, ...atSeqno, ...apiKey });
export const noParams = z.strictObject({ ...apiKey });
export const mcSeqnoParams = z.strictObject({ seqno: mcSeqnoAny, ...apiKey });
export const signaturesParams = z.strictObject({ seqno, ...apiKey });

export const shardBlockProofParams = z.strictObject({ workchain, shard, seqno: mcSeqnoAny, from_seqno: mcSeqnoAny.optional(), ...apiKey }).superRefine(masterShard);

export const lookupBlockParams = z
  .strictObject({ workchain, shard, seqno: mcSeqnoAny.optional(), lt: lt.optional(), unixtime: uint32.optional(), ...apiKey })
  .superRefine((p, ctx) => {
    masterShard(p, ctx);
    const n = [p.seqno, p.lt, p.unixtime].filter((x) => x !== undefined).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', path: ['seqno'], message: 'exactly one of seqno, lt, unixtime is required' });
  });

export const blockIdParams = z
  .strictObject({ workchain, shard, seqno: mcSeqnoAny, root_hash: hash.optional(), file_hash: hash.optional(), ...apiKey })
  .superRefine(masterShard);

export const blockTransactionsParams = z
  .strictObject({
    workchain,
    shard,
    seqno: mcSeqnoAny,
    root_hash: hash.optional(),
    file_hash: hash.optional(),
    after_lt: lt.optional(),
    after_hash: z.union([hash, address.transform((a) => a.hash)]).optional(),
    // ton-http-api-cpp's limit (its Python predecessor had none)
    count: count(10000).default(40),
    ...apiKey,
  })
  .superRefine((p, ctx) => {
    masterShard(p, ctx);
    if ((p.after_lt === undefined) !== (p.after_hash === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['after_lt'], message: 'after_lt and after_hash should be used together' });
    }
  });

export const transactionsParams = z
  .strictObject({
    address,
    limit: count(1000).default(10),
    lt: lt.optional(),
    hash: hash.optional(),
    to_lt: lt.default(0n),
    archival: bool.default(false),
    ...apiKey,
  })
  .superRefine((p, ctx) => {
    const hasLt = p.lt !== undefined && p.lt !== 0n;
    if (hasLt !== (p.hash !== undefined)) ctx.addIssue({ code: 'custom', path: ['lt'], message: 'lt and hash should be used together' });
  });

export const locateParams = z.strictObject({ source: address, destination: address, created_lt: lt, ...apiKey });

export const sendBocParams = z.strictObject({ boc, ...apiKey });

export const sendQueryParams = z.strictObject({ address, body: boc, init_code: optionalBoc.optional(), init_data: optionalBoc.optional(), ...apiKey });

/** ton-http-api-cpp's dnsResolve; the parameters it replaced are refused by name, as it refuses them. */
export const dnsResolveParams = z
  .strictObject({
    domain: z.string({ error: 'expected a domain name, e.g. foundation.ton' }),
    resolver_address: address.optional(),
    ...atSeqno,
    ...apiKey,
    address: z.unknown().optional(),
    name: z.unknown().optional(),
    category: z.unknown().optional(),
    ttl: z.unknown().optional(),
  })
  .superRefine((p, ctx) => {
    for (const k of ['address', 'name', 'category', 'ttl'] as const) {
      if (p[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'unsupported parameter (dnsResolve takes domain, resolver_address and seqno)' });
    }
  });

export const estimateFeeParams = z.strictObject({
  address,
  body: boc,
  init_code: optionalBoc.optional(),
  init_data: optionalBoc.optional(),
  ignore_chksig: bool.default(true),
  ...apiKey,
});

export const runGetMethodParams = z.strictObject({
  address,
  method: z.union([z.string().min(1), z.number().int()], { error: 'expected a method name or a numeric method id' }),
  stack: z.array(z.unknown(), { error: 'expected an array of stack entries' }).default([]),
  ...atSeqno,
  ...apiKey,
});

export const configParamParams = z
  .strictObject({ config_id: uint32.optional(), param: uint32.optional(), ...atSeqno, ...apiKey })
  .superRefine((p, ctx) => {
    if ((p.config_id === undefined) === (p.param === undefined)) ctx.addIssue({ code: 'custom', path: ['config_id'], message: 'exactly one of config_id, param is required' });
  });

export const configAllParams = z.strictObject({ ...atSeqno, ...apiKey });

export const librariesParams = z.strictObject({ libraries: listOf(hash).refine((l) => l.length >= 1 && l.length <= 16, 'give 1..16 library hashes'), ...apiKey });

export const detectAddressParams = z.strictObject({ address: z.string({ error: 'expected an address string' }), ...apiKey });
export const detectHashParams = z.strictObject({ hash: z.string({ error: 'expected a hash string' }), ...apiKey });
export const packAddressParams = z.strictObject({ address: z.string({ error: 'expected an address string' }), ...apiKey });
