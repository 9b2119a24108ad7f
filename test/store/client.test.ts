// The embedded read path (a client of the data directory's engine process): per-query settings, engine error codes
// and 64-bit values.
import { describe, expect, it } from 'vitest';
import { TupleParam } from '@clickhouse/client';
import { Db } from '../../src/api/v3/db.ts';
import { ApiError } from '../../src/api/errors.ts';
import { tempStore } from '../helpers/store.ts';

describe('embedded store client reads', () => {
  const ref = tempStore('tg-store-client-');

  it('per-query settings hold for that query only: a timeout is ClickHouse error 159, and Db maps it to 504', async () => {
    const slow = 'SELECT count() FROM numbers(100000000000) WHERE cityHash64(number) = 7';
    const err = await ref.store.query(slow, undefined, { max_execution_time: 0.05, timeout_overflow_mode: 'throw' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '159', type: 'TIMEOUT_EXCEEDED' });
    const api = await new Db(ref.store, 50).q(slow).catch((e: unknown) => e);
    expect(api).toBeInstanceOf(ApiError);
    expect(api).toMatchObject({ status: 504 });
    // the next query has no limit left over from the last one
    const [{ n }] = await ref.store.query<{ n: string }>('SELECT count() AS n FROM numbers(20000000) WHERE cityHash64(number) % 3 = 0');
    expect(Number(n)).toBeGreaterThan(6_000_000);
  });

  it('64-bit and 128-bit values come back as strings; params bind arrays, tuples and big integers', async () => {
    const rows = await ref.store.query<Record<string, unknown>>(
      'SELECT toUInt64({a:UInt64}) AS u64, toUInt128({b:UInt128}) AS u128, {c:Array(String)} AS arr, {d:Array(Tuple(Int32, UInt64))} AS tup',
      { a: '18446744073709551615', b: '340282366920938463463374607431768211455', c: ["it's", 'b'], d: [new TupleParam([-1, 9223372036854775808n])] },
    );
    expect(rows).toEqual([{ u64: '18446744073709551615', u128: '340282366920938463463374607431768211455', arr: ["it's", 'b'], tup: [[-1, '9223372036854775808']] }]);
  });
});

describe('embedded store client inserts', () => {
  const ref = tempStore('tg-store-client-ins-');

  it('finds tables created and columns added after its first read of the schema; an unknown table is an error', async () => {
    const { store } = ref;
    await store.command('CREATE TABLE probe_first (k UInt32) ENGINE = MergeTree ORDER BY k');
    await store.insertRows('probe_first', [{ k: 1 }]); // the schema is read here
    await store.command('CREATE TABLE probe_late (k UInt32) ENGINE = MergeTree ORDER BY k');
    await store.insertRows('probe_late', [{ k: 1 }]);
    await store.command('ALTER TABLE probe_late ADD COLUMN v String');
    await store.insertRows('probe_late', [{ k: 2, v: 'two' }]);
    expect(await store.query('SELECT k, v FROM probe_late ORDER BY k')).toEqual([{ k: 1, v: '' }, { k: 2, v: 'two' }]);
    await expect(store.insertRows('probe_missing', [{ k: 1 }])).rejects.toThrow('table probe_missing does not exist');
  });
});
