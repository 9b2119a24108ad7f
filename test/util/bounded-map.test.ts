import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/util/bounded-map.ts';

describe('BoundedMap', () => {
  it('keeps the `max` most recently set keys; setting a key again makes it the newest', () => {
    const m = new BoundedMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) m.set(k, i);
    m.set('a', 10); // a is now the newest: b leaves first
    m.set('d', 3);
    expect([...m]).toEqual([['c', 2], ['a', 10], ['d', 3]]);
    m.set('e', 4);
    expect([...m.keys()]).toEqual(['a', 'd', 'e']);
    expect(m.get('c')).toBeUndefined();
    expect(m.size).toBe(3);
  });

  it('a read does not refresh a key', () => {
    const m = new BoundedMap<number, number>(2);
    m.set(1, 1).set(2, 2);
    expect(m.get(1)).toBe(1);
    m.set(3, 3);
    expect([...m.keys()]).toEqual([2, 3]);
  });

  it('evicts in exactly the order of a plain list model over many sets, re-sets, deletes and a clear', () => {
    // enough turnover that V8 rehashes the table several times under the map's long-lived iterator
    const m = new BoundedMap<number, number>(500);
    let model: number[] = [];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let i = 0; i < 20_000; i++) {
      const k = rand(3_000);
      if (i === 12_345) {
        m.clear();
        model = [];
      } else if (rand(10) === 0) {
        m.delete(k);
        model = model.filter((x) => x !== k);
      } else {
        m.set(k, i);
        model = model.filter((x) => x !== k);
        model.push(k);
        if (model.length > 500) model.shift();
      }
    }
    expect([...m.keys()]).toEqual(model);
    expect(m.size).toBe(model.length);
    expect(model.length).toBeGreaterThan(300); // full, less the deletes since it last filled
  });
  it('with weigh, keeps the total weight at most maxWeight, oldest first, and counts deletes, re-sets and a clear', () => {
    const m = new BoundedMap<string, string>(Infinity, { weigh: (v) => v.length, maxWeight: 10 });
    m.set('a', 'xxxx').set('b', 'xxx').set('c', 'xx');
    expect(m.weight).toBe(9);
    m.set('d', 'xx'); // 11: a leaves
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
    expect(m.weight).toBe(7);
    m.set('b', 'x'); // re-set: the old weight goes, b is now the newest
    expect(m.weight).toBe(5);
    m.delete('c');
    expect(m.weight).toBe(3);
    m.set('e', 'xxxxxxxxxxx'); // heavier than the bound alone: everything leaves, itself too
    expect(m.size).toBe(0);
    expect(m.weight).toBe(0);
    m.set('f', 'xxxx').set('g', 'xxxx');
    m.clear();
    expect(m.weight).toBe(0);
    m.set('h', 'xxxxxxxxxx');
    expect([...m.keys()]).toEqual(['h']);
  });

  it('with weigh, a count bound still holds', () => {
    const m = new BoundedMap<number, number>(2, { weigh: () => 1, maxWeight: 100 });
    m.set(1, 1).set(2, 2).set(3, 3);
    expect([...m.keys()]).toEqual([2, 3]);
    expect(m.weight).toBe(2);
  });
});
