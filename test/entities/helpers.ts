// Shared helpers of the entity-state suites: fixture codes as the contract_code table, synthetic account states
// over real contract codes, and get-methods run independently of the code under test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, CellType, type TupleItem } from '@ton/core';
import { slimConfig } from '@ton/sandbox/dist/config/slimConfig.js';
import type { EntityLookup, StateTable } from '../../src/entities/index.ts';
import type { Row } from '../../src/util/index.ts';
import type { AccountStateRow } from '../../src/ton/index.ts';
import { runGetMethod } from '../../src/tvm/index.ts';

export const FIX = join(import.meta.dirname, '../fixtures');
export const code = (f: string) => Cell.fromBoc(readFileSync(join(FIX, 'codes', f)))[0];
export const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** Every fixture code, by hash: stands for a contract_code table that has seen these codes deployed. */
export function fixtureCodes(): Map<string, Cell> {
  const m = new Map<string, Cell>();
  for (const f of readdirSync(join(FIX, 'codes'))) {
    const c = Cell.fromBoc(readFileSync(join(FIX, 'codes', f)))[0];
    m.set(c.hash().toString('hex'), c);
  }
  return m;
}

/** A lookup over in-memory codes and previous rows (what storeEntityLookup reads from the store). */
export function memoryLookup(codes: Map<string, Cell>, previous: Partial<Record<StateTable, Row[]>> = {}, key = 'address'): EntityLookup {
  return {
    async codes(hashes) {
      return new Map(hashes.filter((h) => codes.has(h)).map((h) => [h, codes.get(h)!]));
    },
    async previous(table, addresses) {
      const k = table === 'dns_entries' ? 'nft_item_address' : key;
      return new Map((previous[table] ?? []).filter((r) => addresses.includes(r[k] as string)).map((r) => [r[k] as string, r]));
    },
  };
}

/** An account state as the block decoder would give it, with the data (possibly pruned) as the block carries it. */
export function stateOf(account: string, codeCell: Cell, data: Cell, opts: { withCode?: boolean; lt?: bigint } = {}): AccountStateRow {
  const whole = data.level() === 0;
  return {
    account,
    hash: '11'.repeat(32),
    last_trans_hash: '22'.repeat(32),
    last_trans_lt: opts.lt ?? 1000n,
    balance: 10n ** 9n,
    balance_extra_currencies: null,
    account_status: 'active',
    frozen_hash: null,
    code_hash: codeCell.hash().toString('hex'),
    data_hash: data.hash(0).toString('hex'),
    code_boc: opts.withCode ? codeCell.toBoc().toString('base64') : null,
    data_boc: whole ? data.toBoc().toString('base64') : null,
    data_root_boc: data.toBoc().toString('base64'),
    timestamp: 1_700_000_000,
  };
}

/** The pruned branch a block's state_update puts in place of an unchanged cell (level 1, the cell's hash and depth). */
export function prunedBranch(c: Cell): Cell {
  return beginCell().storeUint(CellType.PrunedBranch, 8).storeUint(1, 8).storeBuffer(c.hash()).storeUint(c.depth(), 16).endCell({ exotic: true });
}

/** A get-method of a real code on full data, run directly (the reference's way of reading these contracts). */
export async function getMethod(codeCell: Cell, data: Cell, account: string, method: string, stack: TupleItem[] = []): Promise<TupleItem[]> {
  const r = await runGetMethod({
    code: codeCell, data, address: Address.parseRaw(account), balance: 10n ** 9n, config: Cell.fromBase64(slimConfig), now: 1_700_000_000, method, stack,
  });
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`${method}: exit code ${r.exitCode}`);
  return r.stack;
}

export const int = (it: TupleItem) => (it.type === 'int' ? it.value : (() => { throw new Error(`not an int: ${it.type}`); })());
export const cellOfItem = (it: TupleItem) => (it.type === 'cell' || it.type === 'slice' ? it.cell : (() => { throw new Error(`not a cell: ${it.type}`); })());
export const addrOfItem = (it: TupleItem) => {
  const a = cellOfItem(it).beginParse().loadAddressAny();
  return a instanceof Address ? raw(a) : null;
};
