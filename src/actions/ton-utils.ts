/**
 * ↔ indexer/events/blocks/utils/ton_utils.py: the value types block data is made of.
 *
 * - `AccountId` is an account as raw upper-case `wc:HEX` (what `AccountId(x).as_str()` gives), `null` for
 *   addr_none. Upstream wraps addresses in an object; a plain string carries the same information. Where upstream
 *   would raise on a missing address (`None.to_str()`), the family code raises explicitly.
 * - `Amount` is a `bigint` (`null` where upstream wraps `None`, e.g. the value of an external message).
 * - `Asset` is kept as a class: TON or a jetton master, compared the way upstream's `__eq__` compares.
 */
import { Address } from '@ton/core';

export type AccountId = string | null;
export type Amount = bigint | null;

/** `AccountId(x).as_str()`: any address form upstream accepts -> raw upper-case, addr_none -> null. */
export function accountId(a: string | Address | null | undefined): AccountId {
  if (a === null || a === undefined || a === 'addr_none') return null;
  if (a instanceof Address) return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
  // raw `wc:hex` in any case, or a user-friendly form (pytoniq's Address accepts both)
  const m = /^(-?\d+):([0-9a-fA-F]{64})$/.exec(a);
  if (m) return `${m[1]}:${m[2].toUpperCase()}`;
  const p = Address.parse(a);
  return `${p.workChain}:${p.hash.toString('hex').toUpperCase()}`;
}

/** `str(AccountId)` (its `__repr__`): raw form with lower-case hex, `addr_none` for none. */
export function accountRepr(a: AccountId): string {
  if (a === null) return 'addr_none';
  const [wc, hex] = a.split(':');
  return `${wc}:${hex.toLowerCase()}`;
}

export class Asset {
  readonly isTon: boolean;
  readonly isJetton: boolean;
  readonly jettonAddress: AccountId;

  constructor(isTon: boolean, jettonAddress: string | Address | null = null) {
    this.isTon = isTon;
    this.isJetton = jettonAddress !== null;
    this.jettonAddress = jettonAddress === null ? null : accountId(jettonAddress);
  }

  /** `to_json`: "TON" or the master's raw address. */
  toJson(): string | null {
    return this.isTon ? 'TON' : this.jettonAddress;
  }

  /** `__eq__` against another Asset, a string (address or "ton", case-insensitive) or None. */
  equals(other: Asset | string | null): boolean {
    if (other instanceof Asset) return this.isTon === other.isTon && this.jettonAddress === other.jettonAddress;
    if (typeof other === 'string') {
      if (this.jettonAddress === null) throw new TypeError('Asset without jetton address compared to a string');
      return this.jettonAddress.toLowerCase() === other.toLowerCase() || (this.isTon && other.toLowerCase() === 'ton');
    }
    return this.isTon && this.jettonAddress === null;
  }
}
