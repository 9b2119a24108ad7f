/**
 * Fee formulas estimateFee needs besides the emulated transaction: storage fees (block::StoragePrices::
 * compute_storage_fees, crypto/block/transaction.cpp) and the destination fees of tonlib's
 * Query::estimate_fees (tonlib/tonlib/TonlibClient.cpp). Prices come from the config dictionary.
 */
import { Dictionary, type Account, type Cell, type Slice } from '@ton/core';
import { configParam } from './tlb.ts';

/** ton#cc utime_since:uint32 bit_price_ps:uint64 cell_price_ps:uint64 mc_bit_price_ps:uint64 mc_cell_price_ps:uint64 = StoragePrices; */
export interface StoragePrices {
  utimeSince: number;
  bitPrice: bigint;
  cellPrice: bigint;
  mcBitPrice: bigint;
  mcCellPrice: bigint;
}

/** _ (Hashmap 32 StoragePrices) = ConfigParam 18; in key order. */
export function storagePrices(config: Cell): StoragePrices[] {
  const p18 = configParam(config, 18);
  if (!p18) return [];
  const dict = Dictionary.loadDirect(
    Dictionary.Keys.Uint(32),
    {
      serialize: () => {
        throw new Error('read only');
      },
      parse: (s: Slice): StoragePrices => {
        if (s.loadUint(8) !== 0xcc) throw new Error('config param 18: not a StoragePrices entry');
        return { utimeSince: s.loadUint(32), bitPrice: s.loadUintBig(64), cellPrice: s.loadUintBig(64), mcBitPrice: s.loadUintBig(64), mcCellPrice: s.loadUintBig(64) };
      },
    },
    p18,
  );
  return [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
}

/**
 * Storage fee for `cells` and `bits` from `lastPaid` to `now`, over the price periods in force:
 * sum of (cell_price * cells + bit_price * bits) * seconds, divided by 2^16 rounding up.
 */
export function computeStorageFee(now: number, pricing: StoragePrices[], cells: bigint, bits: bigint, lastPaid: number, isSpecial: boolean, isMasterchain: boolean): bigint {
  if (now <= lastPaid || lastPaid === 0 || isSpecial || pricing.length === 0 || now <= pricing[0].utimeSince) return 0n;
  const n = pricing.length;
  let i = n;
  while (i > 0 && pricing[i - 1].utimeSince > lastPaid) i--;
  if (i > 0) i--;
  let upto = Math.max(lastPaid, pricing[0].utimeSince);
  let total = 0n;
  for (; i < n && upto < now; i++) {
    const validUntil = i < n - 1 ? Math.min(now, pricing[i + 1].utimeSince) : now;
    if (upto < validUntil) {
      const p = pricing[i];
      const perSecond = isMasterchain ? p.mcCellPrice * cells + p.mcBitPrice * bits : p.cellPrice * cells + p.bitPrice * bits;
      total += perSecond * BigInt(validUntil - upto);
    }
    upto = validUntil;
  }
  return (total + 0xffffn) >> 16n;
}

/**
 * flat_gas_price of config param 20 (masterchain) / 21 (basechain):
 * gas_flat_pfx#d1 flat_gas_limit:uint64 flat_gas_price:uint64 other:GasLimitsPrices = GasLimitsPrices;
 * (0 when the prices have no flat prefix)
 */
export function flatGasPrice(config: Cell, masterchain: boolean): bigint {
  const c = configParam(config, masterchain ? 20 : 21);
  if (!c) return 0n;
  const s = c.beginParse();
  if (s.loadUint(8) !== 0xd1) return 0n;
  s.loadUintBig(64);
  return s.loadUintBig(64);
}

export interface Fees {
  inFwdFee: bigint;
  storageFee: bigint;
  gasFee: bigint;
  fwdFee: bigint;
}

/**
 * tonlib's fees for one destination of a query: nothing for an account without code (absent, uninit, frozen);
 * else the flat gas price of its workchain and the storage fee it owes from its last payment to the time of
 * its state. tonlib prices that storage with the *source's* workchain flag; so does this, to give its numbers.
 */
export function destinationFees(
  dest: { account: Account | null; workchain: number; syncUtime: number },
  pricing: StoragePrices[],
  config: Cell,
  sourceIsMasterchain: boolean,
): Fees {
  const zero: Fees = { inFwdFee: 0n, storageFee: 0n, gasFee: 0n, fwdFee: 0n };
  const acc = dest.account;
  if (!acc || acc.storage.state.type !== 'active' || !acc.storage.state.state.code) return zero;
  const used = acc.storageStats.used;
  const storageFee = computeStorageFee(dest.syncUtime, pricing, used.cells, used.bits, acc.storageStats.lastPaid, false, sourceIsMasterchain);
  return { ...zero, storageFee, gasFee: flatGasPrice(config, dest.workchain === -1) };
}
