/**
 * Strict query-string parsing for API v3. Each route declares its parameters once (`ParamSpec`); the
 * same declaration validates requests (422 `{code, error}` naming the parameter) and documents them in
 * the OpenAPI document. Unknown parameters are refused (the reference silently ignores them, which made
 * clients read unfiltered lists).
 */
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { parseOpcode, parseShard, toRawUpper, tryParseAddress, tryParseHash } from '../../format/index.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/** The reference reads offset as int32: a larger one is refused, never wrapped. */
export const MAX_OFFSET = 2 ** 31 - 1;
const UINT64_MAX = (1n << 64n) - 1n;

export type ParamKind =
  | 'address' | 'address[]' | 'nullableAddress'
  | 'hash' | 'hash[]'
  | 'int32' | 'uint32' | 'uint64' | 'utime' | 'shard' | 'opcode'
  | 'bool' | 'sort' | 'limit' | 'offset' | 'direction' | 'direction3'
  | 'string' | 'string[]' | 'digits[]';

export interface ParamDef {
  kind: ParamKind;
  description?: string;
  required?: boolean;
  /** Default for bool params. */
  default?: boolean;
}

export type ParamSpec = Record<string, ParamDef>;

/** The value parseQuery gives for each kind (array kinds: one value per repetition of the parameter). */
export interface KindValue {
  address: string;
  'address[]': string[];
  nullableAddress: string | null;
  hash: string;
  'hash[]': string[];
  int32: number;
  uint32: number;
  uint64: bigint;
  utime: number;
  shard: bigint;
  opcode: number;
  bool: boolean;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
  direction: 'in' | 'out';
  direction3: 'in' | 'out' | 'both';
  string: string;
  'string[]': string[];
  'digits[]': bigint[];
}

/** One parameter's parsed type: present when required or a bool with a default, else possibly undefined. */
type ValueOf<D extends ParamDef> = D extends { required: true }
  ? KindValue[D['kind']]
  : D extends { kind: 'bool'; default: boolean }
    ? boolean
    : KindValue[D['kind']] | undefined;

/** The parsed query of a route, typed from its spec (declared with literal kinds: `satisfies ParamSpec`, not `: ParamSpec`). */
export type ParamsOf<S extends ParamSpec> = { readonly [K in keyof S]: ValueOf<S[K]> } & CommonParams;

/** Parameters accepted by every v3 route (request switches of the reference, §1.7). */
const COMMON = {
  api_key: { kind: 'string', description: 'API key (alternative to the X-API-Key header)' },
  x_timeout: { kind: 'uint32', description: 'statement timeout in ms, positive, capped at 3000 (or header X-Timeout)' },
  x_no_address_book: { kind: 'bool', description: 'skip address_book (or header X-No-Address-Book)' },
  x_no_metadata: { kind: 'bool', description: 'skip metadata (or header X-No-Metadata)' },
  x_debug_request: { kind: 'bool', description: 'log the request\'s SQL statements at info level (or header X-Debug-Request)' },
} satisfies ParamSpec;

export type CommonParams = { readonly [K in keyof typeof COMMON]: ValueOf<(typeof COMMON)[K]> };

export function bad(param: string, why: string): ApiError {
  return new ApiError(422, `invalid ${param}: ${why}`);
}

function asList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', 'on']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False', 'off']);

function one(name: string, def: ParamDef, raw: string): unknown {
  const s = raw.trim();
  switch (def.kind) {
    case 'address':
    case 'address[]': {
      if (!tryParseAddress(s)) throw bad(name, `${JSON.stringify(s.slice(0, 80))} is not an address (raw wc:hex or user-friendly base64)`);
      return toRawUpper(s);
    }
    case 'nullableAddress': {
      if (s === 'null') return null;
      if (!tryParseAddress(s)) throw bad(name, `${JSON.stringify(s.slice(0, 80))} is not an address (or the literal null)`);
      return toRawUpper(s);
    }
    case 'hash':
    case 'hash[]': {
      const h = tryParseHash(s);
      if (!h) throw bad(name, `${JSON.stringify(s.slice(0, 80))} is not a hash (64 hex chars or 44-char base64/base64url)`);
      return h.hex;
    }
    case 'int32': {
      if (!/^-?\d{1,10}$/.test(s) || Number(s) < -0x80000000 || Number(s) > 0x7fffffff) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not a 32-bit integer`);
      return Number(s);
    }
    case 'uint32': {
      if (!/^\d{1,10}$/.test(s) || Number(s) > 0xffffffff) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not an unsigned 32-bit integer`);
      return Number(s);
    }
    case 'utime': {
      if (!/^\d{1,10}(\.\d*)?$/.test(s) || Math.trunc(Number(s)) > 0xffffffff) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not a unix time`);
      return Math.trunc(Number(s));
    }
    case 'uint64': {
      if (!/^\d{1,20}$/.test(s) || BigInt(s) > UINT64_MAX) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not an unsigned 64-bit integer`);
      return BigInt(s);
    }
    case 'shard': {
      try {
        return BigInt.asUintN(64, parseShard(s));
      } catch {
        throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not a shard (16 hex digits or signed 64-bit decimal)`);
      }
    }
    case 'opcode': {
      try {
        return parseOpcode(s);
      } catch {
        throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not an opcode (0x-hex or 32-bit integer)`);
      }
    }
    case 'bool': {
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not a boolean (true/false/1/0)`);
    }
    case 'sort': {
      const l = s.toLowerCase();
      if (l === 'asc' || l === 'a') return 'asc';
      if (l === 'desc' || l === 'd') return 'desc';
      throw bad(name, `${JSON.stringify(s.slice(0, 40))}: want asc or desc`);
    }
    case 'limit': {
      if (!/^-?\d{1,10}$/.test(s)) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not an integer`);
      const n = Number(s);
      if (n > MAX_LIMIT) throw bad(name, `${n} is above the maximum ${MAX_LIMIT}`);
      return Math.max(1, n);
    }
    case 'offset': {
      if (!/^-?\d+$/.test(s)) throw bad(name, `${JSON.stringify(s.slice(0, 40))} is not an integer`);
      const n = s.length > 12 ? Infinity : Number(s);
      if (n > MAX_OFFSET) throw bad(name, `${s.slice(0, 40)} is above the maximum ${MAX_OFFSET}`);
      return Math.max(0, n);
    }
    case 'direction': {
      if (s !== 'in' && s !== 'out') throw bad(name, `${JSON.stringify(s.slice(0, 40))}: want in or out`);
      return s;
    }
    case 'direction3': {
      if (s !== 'in' && s !== 'out' && s !== 'both') throw bad(name, `${JSON.stringify(s.slice(0, 40))}: want in, out or both`);
      return s;
    }
    case 'digits[]': {
      if (!/^\d{1,78}$/.test(s)) throw bad(name, `${JSON.stringify(s.slice(0, 40))} should contain digits only`);
      return BigInt(s);
    }
    case 'string':
    case 'string[]':
      return s;
  }
}

function isArrayKind(k: ParamKind): boolean {
  return k.endsWith('[]');
}

/**
 * Comma-separated values of address and hash lists (`account=A,B` as `account=A&account=B`), as the reference reads
 * them since #421: its query decoder splits a list value on commas when the whole value does not convert, which for
 * addresses and hashes (no comma in either) is whenever it holds one. Other lists (`action_type`, `index`, ...) are
 * not split there, nor here. Empty items are skipped; a value of commas only would be the reference's empty values,
 * which match nothing, so it is refused rather than read as no filter at all.
 */
function splitCommas(name: string, kind: ParamKind, values: string[]): string[] {
  if (kind !== 'address[]' && kind !== 'hash[]') return values;
  if (!values.some((v) => v.includes(','))) return values;
  const out = values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
  if (out.length === 0) throw bad(name, 'no value between the commas');
  return out;
}

/**
 * Validates `query` against `spec`: unknown names, repeated scalars, empty required lists and bad
 * values are 422 errors naming the parameter. Empty values count as absent (as the reference does).
 * The result has the type `ParamsOf<S>`: each value is what `one` returns for its kind (KindValue).
 */
export function parseQuery<S extends ParamSpec>(spec: S, query: unknown): ParamsOf<S> {
  const q = (query ?? {}) as Record<string, unknown>;
  const all = { ...COMMON, ...spec };
  // own names only: `constructor`, `toString`, `__proto__` are no parameters of any route
  const unknown = Object.keys(q).filter((k) => !Object.hasOwn(all, k));
  if (unknown.length) {
    const known = Object.keys(spec).join(', ') || '(none)';
    throw new ApiError(422, `unknown parameter${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => JSON.stringify(u.slice(0, 40))).join(', ')} (accepted: ${known})`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(all) as [string, ParamDef][]) {
    let values = asList(Object.hasOwn(q, name) ? q[name] : undefined).filter((v) => v.trim() !== '');
    if (values.length === 0) {
      if (def.required) throw bad(name, 'required');
      if (def.kind === 'bool' && def.default !== undefined) out[name] = def.default;
      continue;
    }
    if (isArrayKind(def.kind)) {
      values = splitCommas(name, def.kind, values);
      if (values.length > MAX_LIMIT) throw bad(name, `at most ${MAX_LIMIT} values`);
      out[name] = values.map((v, i) => {
        try {
          return one(name, def, v);
        } catch (e) {
          throw e instanceof ApiError && values.length > 1 ? new ApiError(422, `${e.message} (value ${i + 1})`) : e;
        }
      });
    } else {
      if (values.length > 1) throw bad(name, 'given more than once');
      out[name] = one(name, def, values[0]);
    }
  }
  // the one place the parsed values meet their declared types: `one` returns KindValue[kind] for each kind
  return out as ParamsOf<S>;
}

/** zod object documenting the query string of a route (OpenAPI only; parseQuery validates). */
export function querySchema(spec: ParamSpec): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, def] of Object.entries(spec)) {
    let t: z.ZodType;
    const d = def.description ?? DOC[def.kind];
    switch (def.kind) {
      case 'int32': case 'uint32': case 'utime': t = z.number().int(); break;
      case 'limit': t = z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT); break;
      case 'offset': t = z.number().int().min(0).default(0); break;
      case 'bool': t = def.default === undefined ? z.boolean() : z.boolean().default(def.default); break;
      case 'sort': t = z.enum(['asc', 'desc']); break;
      case 'direction': t = z.enum(['in', 'out']); break;
      case 'direction3': t = z.enum(['in', 'out', 'both']); break;
      default: t = isArrayKind(def.kind) ? z.array(z.string()) : z.string();
    }
    t = t.describe(d);
    shape[name] = def.required ? t : t.optional();
  }
  return z.object(shape);
}

const DOC: Record<ParamKind, string> = {
  address: 'address: raw wc:hex or user-friendly (any flags)',
  'address[]': 'addresses (repeat the parameter, or comma-separated): raw wc:hex or user-friendly',
  nullableAddress: 'address, or the literal null',
  hash: 'hash: 64 hex chars or 44-char base64/base64url',
  'hash[]': 'hashes (repeat the parameter, or comma-separated): hex, base64 or base64url',
  int32: '32-bit integer',
  uint32: 'unsigned 32-bit integer',
  uint64: 'unsigned 64-bit integer (decimal string)',
  utime: 'unix time (seconds)',
  shard: 'shard: 16 hex digits (8000000000000000) or signed 64-bit decimal',
  opcode: 'opcode: 0x-hex, or hex/decimal 32-bit integer',
  bool: 'boolean',
  sort: 'asc or desc',
  limit: `page size, 1..${MAX_LIMIT}`,
  offset: 'rows to skip (stable total order: see the description)',
  direction: 'in or out',
  direction3: 'in, out or both',
  string: 'string',
  'string[]': 'strings (repeat the parameter)',
  'digits[]': 'decimal integers (repeat the parameter)',
};

/** Shared limit/offset/sort parameters. */
export const PAGE = { limit: { kind: 'limit' }, offset: { kind: 'offset' } } satisfies ParamSpec;
export const PAGING_DOC =
  'Paging: offset over a total, stable order (lt, then account, then hash; utime filters sort by now first). ' +
  'Pages never skip or repeat rows while the window is unchanged; for deep history prefer start_lt/end_lt (or utime) windows over large offsets.';
export const PAGE_SORT = { ...PAGE, sort: { kind: 'sort', description: 'asc or desc (default desc)' } } satisfies ParamSpec;
export const LT_WINDOW = {
  start_utime: { kind: 'utime' },
  end_utime: { kind: 'utime' },
  start_lt: { kind: 'uint64' },
  end_lt: { kind: 'uint64' },
} satisfies ParamSpec;

/** The parsed LT_WINDOW parameters. */
export interface LtWindow {
  start_utime?: number;
  end_utime?: number;
  start_lt?: bigint;
  end_lt?: bigint;
}

export interface Page {
  limit: number;
  offset: number;
  dir: 'ASC' | 'DESC';
}

export function pageOf(p: { limit?: number; offset?: number; sort?: 'asc' | 'desc' }, defaultSort: 'asc' | 'desc' = 'desc'): Page {
  return {
    limit: p.limit ?? DEFAULT_LIMIT,
    offset: p.offset ?? 0,
    dir: (p.sort ?? defaultSort) === 'asc' ? 'ASC' : 'DESC',
  };
}
