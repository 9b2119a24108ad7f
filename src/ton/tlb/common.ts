/** Small TL-B types shared by every reader (crypto/block/block.tlb). */
import { Dictionary, type Builder } from '@ton/core';
import type { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { keyToNumber, walkHashmapE, type AugKind } from './hashmap.ts';

/** `{ "<currency id (uint32, decimal)>": amount }` of an ExtraCurrencyCollection; null when empty. */
export type ExtraCurrencies = Record<string, bigint> | null;

/** Account status as API v3 names it (`acc_state_uninit$00` … `acc_state_nonexist$11`). */
export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';

/** `storage_used_short$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsedShort;` */
export interface MsgSize {
  cells: bigint;
  bits: bigint;
}

export type AccStatusChange = 'unchanged' | 'frozen' | 'deleted';

/** Render a 256-bit account id as API v3 does: `<wc>:<64 upper-case hex>`. */
export function rawAddress(workchain: number, hex: string): string {
  return `${workchain}:${hex.toUpperCase()}`;
}

export interface MsgAddress {
  kind: 'none' | 'extern' | 'std' | 'var';
  /** std/var: raw `wc:HEX` */
  raw: string | null;
  /** extern: `"<len>:<hex>"` */
  external: string | null;
}

/**
 * addr_none$00 = MsgAddressExt;
 * addr_extern$01 len:(## 9) external_address:(bits len) = MsgAddressExt;
 * anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth) = Anycast;
 * addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256  = MsgAddressInt;
 * addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9) workchain_id:int32 address:(bits addr_len) = MsgAddressInt;
 *
 * Anycast rewrite prefixes are kept as stored (the indexer renders the stored address too).
 */
export function loadMsgAddress(s: Slice): MsgAddress {
  const tag = s.uint(2);
  switch (tag) {
    case 0:
      return { kind: 'none', raw: null, external: null };
    case 1: {
      const len = s.uint(9);
      const hex = s.hex(len, true);
      return { kind: 'extern', raw: null, external: `${len}:${hex}` };
    }
    case 2: {
      if (s.bit()) s.skip(s.uint(5));
      const wc = s.int(8);
      return { kind: 'std', raw: `${wc}:${s.hex(256, true)}`, external: null };
    }
    default: {
      if (s.bit()) s.skip(s.uint(5));
      const len = s.uint(9);
      const wc = s.int(32);
      return { kind: 'var', raw: `${wc}:${s.hex(len, true)}`, external: null };
    }
  }
}

/** extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32)) = ExtraCurrencyCollection; */
export function loadExtraCurrencies(s: Slice): ExtraCurrencies {
  if (!s.bit()) return null;
  s.pos--;
  const out: Record<string, bigint> = {};
  walkHashmapE(s, 32, (key, v) => {
    out[String(keyToNumber(key))] = v.varUint(32);
  }, false, 'ExtraCurrencyCollection');
  return out;
}

export interface CurrencyCollection {
  grams: bigint;
  extra: ExtraCurrencies;
}

/** currencies$_ grams:Grams other:ExtraCurrencyCollection = CurrencyCollection; */
export function loadCurrencyCollection(s: Slice): CurrencyCollection {
  const grams = s.grams();
  const extra = loadExtraCurrencies(s);
  return { grams, extra };
}

/** The writer of loadCurrencyCollection (currencies$_ grams:Grams other:ExtraCurrencyCollection). */
export function storeCurrencyCollection(b: Builder, grams: bigint, extra: ExtraCurrencies = null): void {
  b.storeCoins(grams);
  if (extra === null || Object.keys(extra).length === 0) {
    b.storeBit(0);
    return;
  }
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const [id, amount] of Object.entries(extra)) dict.set(Number(id), amount);
  b.storeDict(dict);
}

/** Skip a CurrencyCollection (its extra dict is one bit and maybe one ref). */
export function skipCurrencyCollection(s: Slice): void {
  s.skip(s.uint(4) * 8);
  if (s.bit()) s.loadRef();
}

/**
 * acc_state_uninit$00 = AccountStatus; acc_state_frozen$01 = AccountStatus;
 * acc_state_active$10 = AccountStatus; acc_state_nonexist$11 = AccountStatus;
 */
const STATUSES: AccountStatus[] = ['uninit', 'frozen', 'active', 'nonexist'];
export function loadAccountStatus(s: Slice): AccountStatus {
  return STATUSES[s.uint(2)];
}

/** acst_unchanged$0 = AccStatusChange; acst_frozen$10 = AccStatusChange; acst_deleted$11 = AccStatusChange; */
export function loadAccStatusChange(s: Slice): AccStatusChange {
  if (!s.bit()) return 'unchanged';
  return s.bit() ? 'deleted' : 'frozen';
}

/** storage_used_short$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsedShort; */
export function loadStorageUsedShort(s: Slice): MsgSize {
  const cells = s.varUint(7);
  const bits = s.varUint(7);
  return { cells, bits };
}

/** Maybe Grams */
export function loadMaybeGrams(s: Slice): bigint | null {
  return s.bit() ? s.grams() : null;
}

/** update_hashes#72 {X:Type} old_hash:bits256 new_hash:bits256 = HASH_UPDATE X; */
export function loadHashUpdate(s: Slice): { old_hash: string; new_hash: string } {
  const tag = s.uint(8);
  if (tag !== 0x72) throw new DecodeError(`HASH_UPDATE: bad tag 0x${tag.toString(16)} (expected 0x72)`);
  return { old_hash: s.hash(), new_hash: s.hash() };
}

/** Unsigned 64-bit shard id as 16 upper-case hex digits. */
export function shardHex(shard: bigint): string {
  return shard.toString(16).toUpperCase().padStart(16, '0');
}

/**
 * shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent;
 * The shard id sets the bit after the prefix (`prefix | 1 << (63 - pfx_bits)`).
 */
export function loadShardIdent(s: Slice): { workchain: number; shard: bigint; pfx_bits: number } {
  const tag = s.uint(2);
  if (tag !== 0) throw new DecodeError(`ShardIdent: bad tag ${tag}`);
  const pfxBits = s.uint(6);
  if (pfxBits > 60) throw new DecodeError(`ShardIdent: shard_pfx_bits ${pfxBits} > 60`);
  const workchain = s.int(32);
  const prefix = s.uint64();
  const shard = prefix | (1n << BigInt(63 - pfxBits));
  return { workchain, shard, pfx_bits: pfxBits };
}

export { shardChild, shardParent } from '../../format/index.ts';

/** CurrencyCollection as a HashmapAug augmentation (sum of grams; the devnet's blocks carry no extra currencies). */
export const currencyAug: AugKind<bigint> = {
  store: (b, v) => storeCurrencyCollection(b, v),
  add: (a, b) => a + b,
  zero: 0n,
};
