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
});
