/**
 * API v3's pending routes over emulated traces (src/api/v3/route.ts `EmulatedPending`): the emulated ones the
 * network's service holds (not yet on chain), newest first, come before the indexed traces still in flight; one page
 * over both (offset and limit count both).
 */
import type { EmulationService } from '../../emulate/index.ts';
import type { EmulatedPending } from '../v3/index.ts';
import { renderEmulated } from './render.ts';

export function emulatedPending(service: EmulationService): EmulatedPending {
  return {
    async page(db, q, pg, supported) {
      let all = service.find(q);
      // as the reference's pending routes: none whose message already has a complete trace in the store (the feed,
      // where there is one, took them out already; this covers a process without one, and a feed message missed)
      if (all.length) {
        const done = new Set(
          (await db.q<{ h: string }>("SELECT DISTINCT external_hash AS h FROM traces WHERE external_hash IN {h:Array(FixedString(64))} AND state = 'complete'", { h: all.map((e) => e.rows.externalHash) })).map((r) => r.h),
        );
        all = all.filter((e) => !done.has(e.rows.externalHash));
      }
      const entries = all.slice(pg.offset, pg.offset + pg.limit);
      const rendered = await Promise.all(entries.map((e) => renderEmulated(db, e.rows, supported)));
      return { rendered, rest: { ...pg, offset: Math.max(0, pg.offset - all.length), limit: pg.limit - entries.length } };
    },
  };
}
