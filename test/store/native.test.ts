// The Native encoder against the engine itself: the same rows inserted as Native and as JSONEachRow
// (ClickHouse's own parser) must read back identically, for every table of every fixture block and
// for the edge values of each column type the schema uses.
import { describe, expect, it } from 'vitest';
import { BLOCK_TABLES, blockToRows } from '../../src/decode/index.ts';
import { encodeJsonLines } from '../../src/store/client/index.ts';
import { type Row } from '../../src/util/index.ts';
import { encodeNative, parseType, RowEncodeError } from '../../src/store/client/native.ts';
import { tempStore } from '../helpers/store.ts';
import { decodedFixtures } from './suite.ts';

describe('Native insert', () => {
  const ref = tempStore('tg-store-native-', { pointReads: 'both' });

  /** Inserts `rows` into two copies of `like`, Native and JSONEachRow; returns both tables' rows, sorted. */
  async function both(like: string, rows: Row[], tag: string): Promise<[unknown[], unknown[]]> {
    const a = `${tag}_native`;
    const b = `${tag}_json`;
    for (const t of [a, b]) await ref.store.command(`CREATE TABLE ${t} AS ${like} ENGINE = MergeTree ORDER BY tuple()`);
    await ref.store.insertRows(a, rows);
    await ref.store.insertFormatted(b, encodeJsonLines(rows), 'JSONEachRow');
    // ingested_at defaults to the insert time: the one column that differs by construction
    const read = async (t: string) =>
      (await ref.store.query<Row>(`SELECT * FROM ${t} ORDER BY toString(tuple(*))`)).map(({ ingested_at: _, ...r }) => r);
    return [await read(a), await read(b)];
  }

  it('every table of every fixture block reads back as the JSON path gives it', async () => {
    const all = Object.fromEntries(BLOCK_TABLES.map((t) => [t, [] as Row[]])) as Record<string, Row[]>;
    for (const { block } of decodedFixtures().ok) {
      const rows = blockToRows(block, { mcSeqno: 7 });
      for (const t of BLOCK_TABLES) all[t].push(...rows[t]);
    }
    let compared = 0;
    for (const t of BLOCK_TABLES) {
      if (all[t].length === 0) continue;
      const [native, json] = await both(t, all[t], `fx_${t}`);
      expect(native.length, t).toBe(all[t].length);
      expect(native, t).toEqual(json);
      compared += native.length;
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('edge values of each type: extremes, nulls, enums, maps, tuples, non-ASCII and long strings', async () => {
    await ref.store.command(`CREATE TABLE edge (
      u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, u128 UInt128, u256 UInt256,
      i8 Int8, i32 Int32, i64 Int64, b Bool, f Float64,
      s String, ns Nullable(String), fs FixedString(4), nfs Nullable(FixedString(4)), lc LowCardinality(String),
      e Enum8('a' = 0, 'b''q' = 1, 'c' = -3), ne Nullable(Enum8('x' = 2, 'y' = 5)),
      nu128 Nullable(UInt128), m Map(UInt32, UInt256), arr Array(String), alc Array(LowCardinality(String)), au Array(UInt32),
      tup Array(Tuple(workchain Int32, shard UInt64, name String)), dt DateTime64(3), ndt Nullable(DateTime64(3))
    ) ENGINE = Memory`);
    const long = 'x'.repeat(300) + 'é';
    const rows: Row[] = [
      {
        u8: 255, u16: 65535, u32: 4294967295, u64: 18446744073709551615n, u128: (1n << 128n) - 1n, u256: (1n << 256n) - 1n,
        i8: -128, i32: -2147483648, i64: -9223372036854775808n, b: true, f: -1.5,
        s: 'plain', ns: 'ÿ€😀', fs: 'ABCD', nfs: 'é', lc: 'jetton_swap',
        e: "b'q", ne: 'y', nu128: '340282366920938463463374607431768211455', m: { 7: 2n ** 200n, 0: 0n }, arr: ['', 'two', long], alc: ['p', 'q'], au: [1, 4294967295],
        tup: [{ workchain: -1, shard: 9223372036854775808n, name: 'm' }, { workchain: 0, shard: 1n, name: '' }], dt: '2026-11-22 17:40:01.123', ndt: 1_700_000_000_123,
      },
      {
        u8: 0, u16: 0, u32: 0, u64: '12345678901234567890', u128: 0, u256: '0',
        i8: 127, i32: 2147483647, i64: 9223372036854775807n, b: false, f: 0,
        s: long, ns: null, fs: 'ab', nfs: null, lc: '',
        e: 'c', ne: null, nu128: null, m: {}, arr: [], alc: [], au: [],
        tup: [], dt: new Date(Date.UTC(2020, 0, 1)), ndt: null,
      },
      // a value missing from the row and null in a non-Nullable column both take the column default
      { u8: null, u16: 1, u32: 2, u64: 3, u128: 4, u256: 5, i8: 0, i32: 0, i64: 0, b: null, f: null, s: null, fs: null, lc: 'z', e: 'a', m: null, arr: null, alc: null, au: null, tup: null, dt: 0 },
    ];
    const [native, json] = await both('edge', rows, 'edge');
    expect(native).toHaveLength(3);
    expect(native).toEqual(json);
    expect(native.find((r) => (r as Row).u8 === 255)).toMatchObject({ u256: ((1n << 256n) - 1n).toString(), i64: '-9223372036854775808', e: "b'q", ns: 'ÿ€😀', m: { 0: '0', 7: (2n ** 200n).toString() } });
  });

  it('a value the column cannot hold is a RowEncodeError naming the column', () => {
    const schema = new Map([['status', "Enum8('active' = 2)"], ['lt', 'UInt64'], ['h', 'FixedString(4)']]);
    expect(() => encodeNative([{ status: 'gone' }], schema, 't')).toThrow(RowEncodeError);
    expect(() => encodeNative([{ status: 'gone' }], schema, 't')).toThrow(/column status: "gone" is not a member/);
    expect(() => encodeNative([{ lt: '12a' }], schema, 't')).toThrow(/column lt: "12a" is not an integer/);
    expect(() => encodeNative([{ h: 'ABCDE' }], schema, 't')).toThrow(/column h: value longer than FixedString\(4\)/);
    expect(() => encodeNative([{ nope: 1 }], schema, 't')).toThrow(/table t has no column nope/);
  });

  it('parses the types system.columns prints', () => {
    const t = parseType('Array(Tuple(workchain Int32, shard UInt64, root_hash FixedString(64)))');
    expect(t.name).toBe('Array');
    expect(t.args[0].args.map((a) => [a.field, a.name, a.raw])).toEqual([['workchain', 'Int32', ''], ['shard', 'UInt64', ''], ['root_hash', 'FixedString', '64']]);
    expect(parseType("Nullable(Enum8('a,b' = 0, 'c' = 1))").args[0].raw).toBe("'a,b' = 0, 'c' = 1");
    expect(parseType('Map(UInt32, UInt256)').args.map((a) => a.name)).toEqual(['UInt32', 'UInt256']);
  });
});
