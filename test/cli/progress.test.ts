/**
 * The indexer's status line: it says when the index is at the network's tip (the demo's chain used to end there
 * and the line repeated "0 blocks/s" with nothing saying it was caught up), and logs one line when it gets there.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressLine, startProgress } from '../../src/cli/commands/index-chain.ts';
import { newStats } from '../../pipelines/stages.ts';

describe('progressLine', () => {
  it('behind the tip: position, tip and rates', () => {
    const l = progressLine({ checkpoint: 40, tip: 48, blocksStored: 120, txStored: 900 }, { from: 1 }, { bps: 3.2, tps: 25 });
    expect(l.atTip).toBe(false);
    expect(l.text).toBe('mc 40/48 (tip 48)  3 blocks/s  25 tx/s  stored 120 blocks 900 tx');
  });

  it('at the tip: says so instead of 0 blocks/s', () => {
    const l = progressLine({ checkpoint: 48, tip: 48, blocksStored: 150, txStored: 1000 }, { from: 1 }, { bps: 0, tps: 0 });
    expect(l.atTip).toBe(true);
    expect(l.text).toBe('mc 48, at the tip: waiting for the next block  stored 150 blocks 1000 tx');
  });

  it('no tip known yet, or a bounded range: never "at the tip"', () => {
    expect(progressLine({ checkpoint: null, tip: 0, blocksStored: 0, txStored: 0 }, { from: 1 }, { bps: 0, tps: 0 }).atTip).toBe(false);
    const r = progressLine({ checkpoint: 10, tip: 10, blocksStored: 30, txStored: 90 }, { from: 1, until: 20 }, { bps: 1, tps: 2, eta: '10s' });
    expect(r.atTip).toBe(false);
    expect(r.text).toBe('mc 10/20 (tip 10)  1 blocks/s  2 tx/s  stored 30 blocks 90 tx  ETA 10s');
  });
});

describe('startProgress', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function logger() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    });
    return { log: pino({ level: 'info' }, stream), lines };
  }

  it('logs once that it caught up with the tip; the progress record says atTip', async () => {
    const { log, lines } = logger();
    const stats = newStats();
    stats.checkpoint = 48;
    stats.tip = 48;
    const stop = startProgress(stats, { from: 1, log });
    stop();
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.msg === 'caught up with the network tip')).toEqual([expect.objectContaining({ checkpoint: 48, tip: 48, level: 30 })]);
    expect(lines.find((l) => l.msg === 'progress')).toMatchObject({ checkpoint: 48, tip: 48, atTip: true });
  });

  it('following a live tip (one block behind between ticks): caught up is logged once, again only after falling far behind', async () => {
    vi.useFakeTimers();
    const { log, lines } = logger();
    const stats = newStats();
    stats.checkpoint = 20;
    stats.tip = 20;
    const stop = startProgress(stats, { from: 1, log });
    // not a terminal here: a tick every 10 s
    for (const [cp, tip] of [[20, 21], [21, 21], [21, 22], [22, 22], [22, 40], [30, 40], [40, 40]]) {
      stats.checkpoint = cp;
      stats.tip = tip;
      vi.advanceTimersByTime(10_000);
    }
    stop();
    vi.useRealTimers();
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.msg === 'caught up with the network tip').map((l) => l.checkpoint)).toEqual([21, 40]);
  });

  it('behind: no caught-up line', async () => {
    const { log, lines } = logger();
    const stats = newStats();
    stats.checkpoint = 10;
    stats.tip = 48;
    startProgress(stats, { from: 1, log })();
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['progress']);
    expect(lines[0]).toMatchObject({ atTip: false });
  });
});
