/**
 * An Account cell as a template: its fields with their bit positions, so the cell can be hashed again with other
 * values (balance, last_trans_lt, last_paid, due_payment) and the same or other StateInit parts. Used to prove an
 * intermediate account state: a candidate whose hash equals the state hash a transaction names is that state.
 *
 * account_none$0 = Account;
 * account$1 addr:MsgAddressInt storage_stat:StorageInfo storage:AccountStorage = Account;
 * storage_info$_ used:StorageUsed storage_extra:StorageExtraInfo last_paid:uint32 due_payment:(Maybe Grams) = StorageInfo;
 *   (before the 2025 upgrade: storage_info$_ used:StorageUsed last_paid:uint32 due_payment:(Maybe Grams))
 * account_storage$_ last_trans_lt:uint64 balance:CurrencyCollection state:AccountState = AccountStorage;
 * account_uninit$00 = AccountState; account_active$1 _:StateInit = AccountState;
 * account_frozen$01 state_hash:bits256 = AccountState;
 */
import { createHash } from 'node:crypto';
import type { Cells } from '../cell/boc.ts';
import { BitWriter } from '../cell/builder.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { loadExtraCurrencies, type AccountStatus, type ExtraCurrencies } from './common.ts';
import { skipAddrAndStorageUsed } from './account.ts';

/** A referenced cell as hashing sees it: level-0 hash and depth (pruned branches carry the original's). */
export interface RefHash {
  hash: Buffer;
  depth: number;
}

export interface AccountTemplate {
  /** level-0 hash of the cell (hex) */
  hash: string;
  /** the cell's data bits of addr + storage used + storage extra (copied as they are) */
  head: { buf: Uint8Array; from: number; to: number };
  last_paid: number;
  due_payment: bigint | null;
  last_trans_lt: bigint;
  balance: bigint;
  extra: ExtraCurrencies;
  /** the balance's extra-currency dictionary root, when there is one */
  extraRef: RefHash | null;
  /** AccountState bits (the StateInit's inline part, or uninit / frozen) and its refs (code, data, library) */
  state: { buf: Uint8Array; from: number; to: number; refs: RefHash[] };
  status: AccountStatus;
  frozen_hash: string | null;
  code_hash: string | null;
  data_hash: string | null;
}

export function refHash(cells: Cells, c: number): RefHash {
  const o = c * 128;
  return { hash: cells.hashes.subarray(o, o + 32), depth: cells.depths[c * 4] };
}

/** Read an `account$1` cell as a template (null for `account_none$0`). Both StorageInfo layouts, as readAccount. */
export function readAccountTemplate(cells: Cells, cell: number): AccountTemplate | null {
  try {
    return readLayout(cells, cell, true);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return readLayout(cells, cell, false);
  }
}

function readLayout(cells: Cells, cell: number, newLayout: boolean): AccountTemplate | null {
  const s = Slice.of(cells, cell, 'Account');
  if (!s.bit()) return null;
  const headFrom = s.pos;
  skipAddrAndStorageUsed(s, newLayout);
  const headTo = s.pos;
  const last_paid = s.uint(32);
  const due_payment = s.bit() ? s.grams() : null;
  const last_trans_lt = s.uint64();
  const balance = s.grams();
  let extraRef: RefHash | null = null;
  const refBefore = s.ref;
  const extra = loadExtraCurrencies(s);
  if (s.ref > refBefore) extraRef = refHash(cells, cells.refs[cell * 4 + refBefore]);
  const stateFrom = s.pos;
  const stateRefFrom = s.ref;
  let status: AccountStatus = 'uninit';
  let frozen_hash: string | null = null;
  let code_hash: string | null = null;
  let data_hash: string | null = null;
  if (s.bit()) {
    status = 'active';
    if (s.bit()) s.skip(5);
    if (s.bit()) s.skip(2);
    if (s.bit()) code_hash = cells.hash0Hex(s.loadRef());
    if (s.bit()) data_hash = cells.hash0Hex(s.loadRef());
    if (s.bit()) s.loadRef();
  } else {
    const frozen = s.bit(); // account_frozen$01 (account_uninit$00 otherwise)
    if (frozen) {
      status = 'frozen';
      frozen_hash = s.hash();
    }
  }
  if (s.bitsLeft !== 0 || s.refsLeft !== 0) throw new DecodeError(`Account: ${s.bitsLeft} bits / ${s.refsLeft} refs left over`);
  const refs: RefHash[] = [];
  for (let r = stateRefFrom; r < s.refEnd; r++) refs.push(refHash(cells, cells.refs[cell * 4 + r]));
  return {
    hash: cells.hash0Hex(cell),
    head: { buf: cells.buf, from: headFrom, to: headTo },
    last_paid,
    due_payment,
    last_trans_lt,
    balance,
    extra,
    extraRef,
    state: { buf: cells.buf, from: stateFrom, to: s.pos, refs },
    status,
    frozen_hash,
    code_hash,
    data_hash,
  };
}

export interface AccountValues {
  last_paid: number;
  due_payment: bigint | null;
  last_trans_lt: bigint;
  balance: bigint;
  /** the extra-currency dictionary root (null: none) */
  extraRef: RefHash | null;
}

function writeVarUint(w: BitWriter, v: bigint, lenBits: number): void {
  let bytes = 0;
  while (v >> BigInt(8 * bytes) > 0n) bytes++;
  w.writeUint(bytes, lenBits);
  for (let i = bytes - 1; i >= 0; i--) w.writeUint(Number((v >> BigInt(8 * i)) & 255n), 8);
}

/**
 * Hash (hex) of the Account cell `tpl` describes with `values` in place of its own, and `state` (AccountState bits
 * and refs, from this or another template) in place of its state.
 */
export function accountCellHash(tpl: AccountTemplate, values: AccountValues, state: AccountTemplate['state'] = tpl.state): string {
  const w = new BitWriter();
  w.writeBit(1);
  w.writeFrom(tpl.head.buf, tpl.head.from, tpl.head.to);
  w.writeUint(values.last_paid, 32);
  if (values.due_payment === null) w.writeBit(0);
  else {
    w.writeBit(1);
    writeVarUint(w, values.due_payment, 4);
  }
  w.writeUint(Number(values.last_trans_lt >> 32n), 32);
  w.writeUint(Number(values.last_trans_lt & 0xffffffffn), 32);
  writeVarUint(w, values.balance, 4);
  w.writeBit(values.extraRef ? 1 : 0);
  w.writeFrom(state.buf, state.from, state.to);
  const refs = values.extraRef ? [values.extraRef, ...state.refs] : state.refs;
  const data = w.finish();
  const h = createHash('sha256');
  h.update(Buffer.from([refs.length, (w.bits >> 3) + ((w.bits + 7) >> 3)]));
  h.update(data);
  for (const r of refs) h.update(Buffer.from([r.depth >> 8, r.depth & 255]));
  for (const r of refs) h.update(r.hash);
  return h.digest('hex');
}
