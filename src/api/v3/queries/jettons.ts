/** Jetton reads (reference §2.5): masters, wallets, transfers and burns, from the entity tables. */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';
import { ADDRESSES as A, selectPage, timeWindow, Where } from './where.ts';

export interface JettonMasterFilter {
  address?: string[];
  admin_address?: string[];
}

/** Jetton masters by address or admin, ordered by address in `pg.dir`, paged. */
export async function jettonMasters(db: Db, f: JettonMasterFilter, pg: Page): Promise<Row[]> {
  const w = new Where().add((x) => `address IN ${x}`, f.address, A).add((x) => `admin_address IN ${x}`, f.admin_address, A);
  return selectPage(db, 'jetton_masters', w, `address ${pg.dir}`, pg);
}

export interface JettonWalletFilter {
  address?: string[];
  owner_address?: string[];
  jetton_address?: string[];
  /** Leave out wallets with no balance (mintless amounts count). */
  exclude_zero_balance?: boolean;
  /** Order by balance (then address) in the page's direction; otherwise by address ascending. */
  sort?: 'asc' | 'desc';
}

/** Jetton wallets by address, owner or master, paged. */
export async function jettonWallets(db: Db, f: JettonWalletFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `address IN ${x}`, f.address, A)
    .add((x) => `owner IN ${x}`, f.owner_address, A)
    .add((x) => `jetton IN ${x}`, f.jetton_address, A);
  if (f.exclude_zero_balance) w.raw('balance + ifNull(mintless_amount, 0) > 0');
  const order = f.sort ? `balance ${pg.dir}, address ${pg.dir}` : 'address ASC';
  return selectPage(db, 'jetton_wallets', w, order, pg);
}

export interface JettonTransferFilter extends LtWindow {
  /** Owners (senders or receivers, by `direction`). */
  owners: string[];
  direction?: 'in' | 'out' | 'both';
  jetton_wallet?: string[];
  jetton_master?: string;
}

/**
 * Completed jetton transfers, ordered by transaction lt (now with a utime bound), then hash, in `pg.dir`, paged. By
 * owner alone in lt order: the key-value store's list (db.points), else one statement on `jetton_transfers`.
 */
export async function jettonTransfers(db: Db, f: JettonTransferFilter, pg: Page): Promise<Row[]> {
  const w = new Where().raw('tx_aborted = false');
  const dir = f.direction ?? 'both';
  if (f.owners.length) {
    w.add((x) => (dir === 'in' ? `destination IN ${x}` : dir === 'out' ? `source IN ${x}` : `(source IN ${x} OR destination IN ${x})`), f.owners, A);
  }
  w.add((x) => `jetton_wallet_address IN ${x}`, f.jetton_wallet, A).add((x) => `jetton_master_address = ${x}`, f.jetton_master, 'String');
  const col = timeWindow(w, f, 'tx_lt', 'tx_now');
  // by owner in lt order: the key-value store's list (null: a store that leaves lists to ClickHouse)
  const byOwner =
    f.owners.length && f.jetton_wallet === undefined && f.jetton_master === undefined && f.start_utime === undefined && f.end_utime === undefined
      ? await db.points.jettonTransfers(f.owners, dir, { startLt: f.start_lt, endLt: f.end_lt, dir: pg.dir, limit: pg.limit, offset: pg.offset })
      : null;
  return (
    byOwner ??
    db.q(
      `SELECT * FROM jetton_transfers ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      { ...w.p, limit: pg.limit, offset: pg.offset },
    )
  );
}

export interface JettonBurnFilter extends LtWindow {
  owners?: string[];
  jetton_wallet?: string[];
  jetton_master?: string;
}

/** Jetton burns, ordered by transaction lt (now with a utime bound), then hash, in `pg.dir`, paged. */
export async function jettonBurns(db: Db, f: JettonBurnFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `owner IN ${x}`, f.owners, A)
    .add((x) => `jetton_wallet_address IN ${x}`, f.jetton_wallet, A)
    .add((x) => `jetton_master_address = ${x}`, f.jetton_master, 'String');
  const col = timeWindow(w, f, 'tx_lt', 'tx_now');
  return db.q(
    `SELECT * FROM jetton_burns ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...w.p, limit: pg.limit, offset: pg.offset },
  );
}
