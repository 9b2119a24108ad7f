/** WHERE clauses with bound parameters, shared by the list queries of the entity tables. */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';

/** ClickHouse type of an address list parameter. */
export const ADDRESSES = 'Array(String)';

/**
 * Collects WHERE conditions with bound parameters (named w0, w1, ...; another `prefix` for a second clause of the same
 * statement); absent values and empty lists add nothing.
 */
export class Where {
  readonly c: string[] = [];
  readonly p: Record<string, unknown> = {};
  private n = 0;
  constructor(private readonly prefix = 'w') {}
  add(sqlWithQ: (name: string) => string, v: unknown, type: string): this {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) return this;
    const name = `${this.prefix}${this.n++}`;
    this.p[name] = v;
    this.c.push(sqlWithQ(`{${name}:${type}}`));
    return this;
  }
  raw(cond: string): this {
    this.c.push(cond);
    return this;
  }
  sql(): string {
    return this.c.length ? 'WHERE ' + this.c.join(' AND ') : '';
  }
}

/** Adds the utime / lt window on columns `now` / `lt`; returns the column to order by (utime when a utime bound is given). */
export function timeWindow(w: Where, win: LtWindow, lt: string, now: string): string {
  w.add((x) => `${now} >= ${x}`, win.start_utime, 'UInt32');
  w.add((x) => `${now} <= ${x}`, win.end_utime, 'UInt32');
  w.add((x) => `${lt} >= ${x}`, win.start_lt, 'UInt64');
  w.add((x) => `${lt} <= ${x}`, win.end_lt, 'UInt64');
  return win.start_utime !== undefined || win.end_utime !== undefined ? now : lt;
}

/** One page of a table's current rows (FINAL) that match `w`, ordered by `order` (SQL, with the page's direction). */
export function selectPage(db: Db, table: string, w: Where, order: string, pg: Page): Promise<Row[]> {
  return db.q(`SELECT * FROM ${table} FINAL ${w.sql()} ORDER BY ${order} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
}
