/** Helpers for reading contract data by exact layout from a block's (possibly pruned) data cell. */
import { Address, Cell, Dictionary, type Slice } from '@ton/core';
import { rawAddress } from './cells.ts';

/** True when the whole tree under `cell` is in the block (no pruned branch below it). */
export function whole(cell: Cell): boolean {
  return cell.level() === 0 && !cell.isExotic;
}

/** Reads `cell` with `read`, which must consume every bit and ref; null on any mismatch. */
export function exactly<T>(cell: Cell, read: (s: Slice) => T): T | null {
  try {
    const s = cell.beginParse(true);
    const v = read(s);
    return s.remainingBits === 0 && s.remainingRefs === 0 ? v : null;
  } catch {
    return null;
  }
}

export function loadRawAddress(s: Slice): string | null {
  const a = s.loadAddressAny();
  return a instanceof Address ? rawAddress(a) : null;
}

/** Addresses of a `Hashmap 8 MsgAddressInt` root (multisig signers / proposers), in key order; null when pruned. */
export function addressList(root: Cell | null): string[] | null {
  if (!root) return [];
  if (!whole(root)) return null;
  const d = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), root);
  return [...d].sort((a, b) => a[0] - b[0]).map(([, a]) => rawAddress(a));
}

/**
 * Keys of a `Hashmap n X` root as far as the block carries it: subtrees the block pruned are skipped and
 * reported through `complete: false` (TL-B `hm_edge` / `hml_short|long|same` labels, block.tlb).
 */
export function readableKeys(root: Cell, keyLen: number): { keys: bigint[]; complete: boolean } {
  const keys: bigint[] = [];
  let complete = true;
  const walk = (cell: Cell, prefix: bigint, n: number): void => {
    if (cell.isExotic) {
      complete = false;
      return;
    }
    const s = cell.beginParse();
    let label: bigint;
    let len = 0;
    if (!s.loadBit()) {
      // hml_short$0 len:(Unary ~n) s:(n * Bit)
      while (s.loadBit()) len++;
      label = len ? s.loadUintBig(len) : 0n;
    } else {
      const lenBits = Math.ceil(Math.log2(n + 1));
      if (!s.loadBit()) {
        // hml_long$10 n:(#<= m) s:(n * Bit)
        len = s.loadUint(lenBits);
        label = len ? s.loadUintBig(len) : 0n;
      } else {
        // hml_same$11 v:Bit n:(#<= m)
        const v = s.loadBit();
        len = s.loadUint(lenBits);
        label = v && len ? (1n << BigInt(len)) - 1n : 0n;
      }
    }
    const key = (prefix << BigInt(len)) | label;
    const rest = n - len;
    if (rest === 0) {
      keys.push(key);
      return;
    }
    // hmn_fork left:^(Hashmap n X) right:^(Hashmap n X)
    walk(s.loadRef(), key << 1n, rest - 1);
    walk(s.loadRef(), (key << 1n) | 1n, rest - 1);
  };
  walk(root, 0n, keyLen);
  return { keys: keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), complete };
}
