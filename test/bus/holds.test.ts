import { describe, expect, it } from 'vitest';
import { Holds } from '../../src/bus/holds.ts';

describe('Holds: the commit point of a partition is its lowest held offset', () => {
  it('matches a plain model over random holds and releases', () => {
    const holds = new Holds();
    // model: per partition, a multiset of held offsets; the next offset to deliver
    const model = new Map<number, bigint[]>();
    const next = [0n, 0n, 0n];
    const live: { p: number; o: bigint; release: () => void }[] = [];
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let step = 0; step < 20_000; step++) {
      const p = rnd(3);
      const r = rnd(10);
      if (r < 5) {
        // deliver one more message; maybe hold it
        const o = next[p]++;
        if (rnd(2)) {
          live.push({ p, o, release: holds.hold(p, o) });
          model.set(p, [...(model.get(p) ?? []), o]);
        }
      } else if (r < 6 && next[p] > 0n) {
        // a redelivered message held again (a batch retried after its handler threw)
        const o = BigInt(rnd(Number(next[p])));
        live.push({ p, o, release: holds.hold(p, o) });
        model.set(p, [...(model.get(p) ?? []), o]);
      } else if (live.length) {
        const [h] = live.splice(rnd(live.length), 1);
        h.release();
        h.release(); // twice: no effect
        const m = model.get(h.p)!;
        m.splice(m.indexOf(h.o), 1);
      }
      for (let q = 0; q < 3; q++) {
        const m = model.get(q) ?? [];
        const low = m.length ? m.reduce((a, b) => (b < a ? b : a)) : next[q];
        expect(holds.commitPoint(q, next[q])).toBe(low < next[q] ? low : next[q]);
      }
      expect(holds.size).toBe([...model.values()].reduce((n, m) => n + new Set(m).size, 0));
    }
  });
});
