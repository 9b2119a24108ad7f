/**
 * Typed query parameters: a route's spec gives its handler `ctx.q` typed per parameter (ParamsOf), and what
 * parseQuery returns at run time is of that type for every kind. The type checks are checked by `tsc --noEmit`
 * (expectTypeOf, @ts-expect-error); the values and the 422s by running the parser and a route.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/api/errors.ts';
import { PAGE_SORT, parseQuery, type KindValue, type ParamKind, type ParamsOf, type ParamSpec } from '../../src/api/v3/params.ts';
import { addRoute } from '../../src/api/v3/route.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SPEC = {
  account: { kind: 'address[]', required: true },
  lt: { kind: 'uint64' },
  seqno: { kind: 'uint32', required: true },
  source: { kind: 'nullableAddress' },
  direction: { kind: 'direction3' },
  include_boc: { kind: 'bool', default: true },
  only: { kind: 'bool' },
  index: { kind: 'digits[]' },
  ...PAGE_SORT,
} satisfies ParamSpec;

describe('ParamsOf: the parsed type of each parameter, from the spec', () => {
  it('required, optional, defaulted and array kinds; the common switches; no other names', () => {
    type P = ParamsOf<typeof SPEC>;
    expectTypeOf<P['account']>().toEqualTypeOf<string[]>();
    expectTypeOf<P['lt']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<P['seqno']>().toEqualTypeOf<number>();
    expectTypeOf<P['source']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<P['direction']>().toEqualTypeOf<'in' | 'out' | 'both' | undefined>();
    expectTypeOf<P['include_boc']>().toEqualTypeOf<boolean>();
    expectTypeOf<P['only']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<P['index']>().toEqualTypeOf<bigint[] | undefined>();
    expectTypeOf<P['sort']>().toEqualTypeOf<'asc' | 'desc' | undefined>();
    expectTypeOf<P['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<P['x_timeout']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<P['x_no_address_book']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error a name the spec does not declare is no property of the parsed query
    expectTypeOf<P['acount']>().toBeUnknown();
  });

  it('a handler gets ctx.q typed from the params written inline', () => {
    const app = Fastify();
    addRoute(app, { store: {} as StoreClient }, {
      url: '/typed',
      tags: [],
      summary: 'type check only',
      params: { hash: { kind: 'hash', required: true }, shard: { kind: 'shard' } },
      response: z.object({}),
      async handler({ q }) {
        expectTypeOf(q.hash).toEqualTypeOf<string>();
        expectTypeOf(q.shard).toEqualTypeOf<bigint | undefined>();
        // @ts-expect-error not a parameter of this route
        void q.seqno;
        return {};
      },
    });
    void app.close();
  });
});

/** One valid raw value per kind, and the run-time test that the parsed value is of KindValue[kind]. */
const SAMPLES: { [K in ParamKind]: [raw: string, is: (v: unknown) => v is KindValue[K]] } = {
  address: ['0:' + 'ab'.repeat(32), (v): v is string => typeof v === 'string'],
  'address[]': ['0:' + 'ab'.repeat(32), (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')],
  nullableAddress: ['null', (v): v is string | null => v === null || typeof v === 'string'],
  hash: ['ab'.repeat(32), (v): v is string => typeof v === 'string'],
  'hash[]': ['ab'.repeat(32), (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')],
  int32: ['-5', (v): v is number => Number.isInteger(v)],
  uint32: ['5', (v): v is number => Number.isInteger(v)],
  uint64: ['18446744073709551615', (v): v is bigint => typeof v === 'bigint'],
  utime: ['1700000000.5', (v): v is number => Number.isInteger(v)],
  shard: ['8000000000000000', (v): v is bigint => typeof v === 'bigint'],
  opcode: ['0x0f8a7ea5', (v): v is number => Number.isInteger(v)],
  bool: ['true', (v): v is boolean => typeof v === 'boolean'],
  sort: ['a', (v): v is 'asc' | 'desc' => v === 'asc' || v === 'desc'],
  limit: ['10', (v): v is number => Number.isInteger(v)],
  offset: ['0', (v): v is number => Number.isInteger(v)],
  direction: ['in', (v): v is 'in' | 'out' => v === 'in' || v === 'out'],
  direction3: ['both', (v): v is 'in' | 'out' | 'both' => v === 'in' || v === 'out' || v === 'both'],
  string: ['x', (v): v is string => typeof v === 'string'],
  'string[]': ['x', (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')],
  'digits[]': ['123456789012345678901234567890', (v): v is bigint[] => Array.isArray(v) && v.every((x) => typeof x === 'bigint')],
};

describe('parseQuery gives each kind the type ParamsOf declares', () => {
  for (const [kind, [raw, is]] of Object.entries(SAMPLES) as [ParamKind, [string, (v: unknown) => boolean]][]) {
    it(kind, () => {
      const q = parseQuery({ p: { kind } }, { p: raw }) as Record<string, unknown>;
      expect(is(q.p), `${kind}: ${String(q.p)}`).toBe(true);
    });
  }

  it('absent: undefined, a bool with a default: the default; required and unknown names: 422 naming them', () => {
    const q = parseQuery(SPEC, { account: '0:' + '00'.repeat(32), seqno: '1' });
    expect(q.lt).toBeUndefined();
    expect(q.include_boc).toBe(true);
    expect(q.only).toBeUndefined();
    expect(() => parseQuery(SPEC, { seqno: '1' })).toThrow(/invalid account: required/);
    const err = (() => {
      try {
        parseQuery(SPEC, { account: '0:' + '00'.repeat(32), seqno: '1', acount: 'x' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toMatch(/^unknown parameter: "acount" \(accepted: account, lt, seqno,/);
  });
});

describe('a typed route over HTTP', () => {
  let app: FastifyInstance;
  let dir: string;
  let store: StoreClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v3-params-types-'));
    store = await openStore({ dataDir: dir });
    app = Fastify();
    app.setValidatorCompiler(() => (data) => ({ value: data }));
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.setErrorHandler((err, _req, reply) => {
      const e = err instanceof ApiError ? err : new ApiError(500, 'internal error');
      reply.code(e.status).send({ code: e.status, error: e.message });
    });
    addRoute(app, { store }, {
      url: '/echo',
      tags: [],
      summary: 'echoes its typed parameters',
      params: SPEC,
      response: z.record(z.string(), z.unknown()),
      async handler({ q }) {
        // typed values used as their types, no casts: a bigint's arithmetic, an array's length
        return { lt_plus_one: q.lt === undefined ? null : String(q.lt + 1n), accounts: q.account.length, seqno: q.seqno + 1, include_boc: q.include_boc };
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the handler gets parsed values; an unknown or bad parameter is the same 422 naming it', async () => {
    const a = '0:' + '00'.repeat(32);
    const ok = await app.inject({ url: `/echo?account=${a}&account=${a}&seqno=41&lt=18446744073709551614&include_boc=0` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ lt_plus_one: '18446744073709551615', accounts: 2, seqno: 42, include_boc: false });
    const unknown = await app.inject({ url: `/echo?account=${a}&seqno=1&acount=x` });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error).toMatch(/^unknown parameter: "acount"/);
    const bad = await app.inject({ url: `/echo?account=${a}&seqno=x` });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toBe('invalid seqno: "x" is not an unsigned 32-bit integer');
  });
});
