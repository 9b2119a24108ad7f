/**
 * The pure parts of the entity-state rows (state-rows.ts): which accounts of a batch to read (`planEntityStates`)
 * and each one's rows from its code and data (`deriveEntityStates`: interfaces, then get-methods in the TVM
 * emulator, the CPU-heavy part). No store, no liteserver, no lookup: the traces stage runs the derivation on its
 * worker pool (src/traces/classify-pool.ts), so its input and output are plain data that a structured clone keeps
 * (codes and data cross as base64 BoC and are parsed where they are read; rows hold strings, numbers, bigints,
 * arrays). This module is an entry point of its own (eslint.config.js ENTRIES): a worker thread loads it without
 * the store (its ClickHouse client) that index.ts brings.
 */
import { Cell } from '@ton/core';
import type { AccountStateRow } from '../ton/index.ts';
import { detectInterfaces, isWalletCodeHash, KNOWN_CODE_HASHES, STATE_INTERFACES, type Interface } from '../contracts/index.ts';
import { BoundedMap } from '../util/index.ts';
import { ContractReader } from './contract-reader.ts';
import { readDnsEntry } from './dns.ts';
import type { EntityRow, FamilyInput } from './family.ts';
import { readJettonMaster } from './jetton-master.ts';
import { readMultisig, readMultisigOrder } from './multisig.ts';
import { readNftCollection } from './nft-collection.ts';
import { readNftSale } from './nft-sales.ts';
import { readVesting } from './vesting.ts';

/** Code BoCs (base64) by code hash (hex): what the derivation may use of the codes the batch's accounts run. */
export type CodeBocs = Map<string, string>;

export interface EntityStatePlan {
  /** the latest state of each account the batch changed that is active, carries its data root and is not a wallet */
  candidates: AccountStateRow[];
  /** the codes the blocks carry (those that parse) */
  codes: CodeBocs;
  /** code hashes of candidates the blocks do not carry and no known layout makes unnecessary: to read (store, liteserver) */
  missing: string[];
}

/** What `deriveEntityStates` found: the rows to complete (state-rows.ts `completeEntityStates`), in candidate order, and its counts. */
export interface DerivedEntityStates {
  found: EntityRow[];
  /** accounts (or an interface of one) whose code is unknown */
  no_code: number;
  /** get-methods that failed or answered outside the standard shape; layout families whose data does not read */
  failed: number;
}

/** Parsed codes of this thread, by hash: a code crosses as BoC with every batch but is parsed once (the hash names the cell). */
const MAX_PARSED = 5_000;
const parsed = new BoundedMap<string, Cell>(MAX_PARSED);

/** The code cell of a BoC (null: it does not parse, never cached: another source may give the same hash whole). */
function codeCell(hash: string, boc: string): Cell | null {
  const hit = parsed.get(hash);
  if (hit) return hit;
  const c = cellOf(boc);
  if (c) parsed.set(hash, c);
  return c;
}

function cellOf(boc: string | null): Cell | null {
  if (!boc) return null;
  try {
    return Cell.fromBase64(boc);
  } catch {
    return null;
  }
}

/** The latest state of each account in the batch (a shard may commit several blocks per masterchain block). */
function latestStates(states: readonly AccountStateRow[]): AccountStateRow[] {
  const by = new Map<string, AccountStateRow>();
  for (const st of states) {
    const prev = by.get(st.account);
    if (!prev || st.last_trans_lt > prev.last_trans_lt) by.set(st.account, st);
  }
  return [...by.values()];
}

/** The accounts of a batch (`states`: every block's `account_states`) to derive rows for, and the codes to read for them. */
export function planEntityStates(states: readonly AccountStateRow[]): EntityStatePlan {
  const candidates = latestStates(states).filter(
    (st) => st.account_status === 'active' && st.code_hash && st.data_root_boc && !isWalletCodeHash(st.code_hash),
  );
  // code: carried by the block, else read (codes of the known layouts are not needed)
  const codes: CodeBocs = new Map();
  for (const st of candidates) if (st.code_boc && codeCell(st.code_hash!, st.code_boc)) codes.set(st.code_hash!, st.code_boc);
  const missing = [...new Set(candidates.map((st) => st.code_hash!).filter((h) => !codes.has(h) && !KNOWN_CODE_HASHES[h]))];
  return { candidates, codes, missing };
}

/** Interfaces whose rows this stage derives (the method table behind them is parsed once per code: contracts' methodsOfCode). */
function interfacesOf(codeHash: string, code: Cell | null): Interface[] {
  return detectInterfaces(codeHash, code).filter((i) => STATE_INTERFACES.has(i));
}

/** Layout families read the data without the code. */
const LAYOUT: ReadonlySet<Interface> = new Set(['multisig_v2', 'multisig_order_v2', 'vesting']);

async function readFamily(iface: Interface, input: FamilyInput): Promise<EntityRow | null> {
  switch (iface) {
    case 'jetton_master':
      return readJettonMaster(input);
    case 'nft_collection':
      return readNftCollection(input);
    case 'dns_item':
      return readDnsEntry(input);
    case 'multisig_v2':
      return readMultisig(input);
    case 'multisig_order_v2':
      return readMultisigOrder(input);
    case 'vesting':
      return readVesting(input);
    case 'nft_sale':
    case 'getgems_sale_v4':
    case 'getgems_auction_v4':
    case 'telemint':
      return readNftSale(input, iface);
    default:
      return null;
  }
}

/**
 * The rows of `candidates` (from `planEntityStates`, in any split) given the codes known for them (`codes`: the
 * blocks' and those read). Never throws for one contract's sake: failures are counted.
 */
export async function deriveEntityStates(candidates: readonly AccountStateRow[], codes: ReadonlyMap<string, string>): Promise<DerivedEntityStates> {
  const out: DerivedEntityStates = { found: [], no_code: 0, failed: 0 };
  for (const st of candidates) {
    const boc = codes.get(st.code_hash!);
    const code = boc ? codeCell(st.code_hash!, boc) : null;
    const ifaces = interfacesOf(st.code_hash!, code);
    if (!ifaces.length) {
      if (!code) out.no_code++;
      continue;
    }
    const data = cellOf(st.data_root_boc);
    if (!data) continue;
    let reader: ContractReader | null = null;
    for (const iface of ifaces) {
      if (!LAYOUT.has(iface) && !code) {
        out.no_code++;
        continue;
      }
      try {
        if (!LAYOUT.has(iface) && code) reader ??= new ContractReader(code, data, st);
        const row = await readFamily(iface, { state: st, data, reader });
        if (row) out.found.push(row);
        else if (LAYOUT.has(iface)) out.failed++; // the official code with a data layout that does not read
      } catch {
        out.failed++;
      }
    }
  }
  return out;
}
