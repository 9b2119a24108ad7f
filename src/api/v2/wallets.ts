/**
 * Wallet detection by code hash (v1..v5, highload) and the fields read from the wallet's data cell.
 * Layouts from the wallet contracts' storage: v1/v2 `seqno:uint32 public_key:bits256`; v3/v4
 * `seqno:uint32 subwallet_id:uint32 public_key:bits256`; v5r1 `is_signature_allowed:bit seqno:uint32
 * wallet_id:int32 public_key:bits256 extensions:(Maybe ^Cell)`; highload v1 `seqno:uint32 subwallet:uint32
 * ...`; highload v2 `subwallet_id:uint32 last_cleaned:uint64 ...`; highload v3 `public_key:bits256
 * subwallet_id:uint32 ...`.
 */
import type { Cell } from '@ton/core';
import { highloadTypeOfCodeHash, walletTypeOfCodeHash } from '../../format/index.ts';

export interface WalletInfo {
  wallet_type: string;
  family: 'v1' | 'v2' | 'v3' | 'v4' | 'v5beta' | 'v5' | 'highload-v1' | 'highload-v2' | 'highload-v3';
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

export function detectWallet(code: Cell | null | undefined, data: Cell | null | undefined): WalletInfo | null {
  if (!code || !data) return null;
  const codeHash = code.hash().toString('hex');
  const std = walletTypeOfCodeHash(codeHash);
  const hl = std ? null : highloadTypeOfCodeHash(codeHash);
  if (!std && !hl) return null;
  try {
    const s = data.beginParse(true);
    if (std) {
      if (std.startsWith('wallet v1') || std.startsWith('wallet v2')) {
        return { wallet_type: std, family: std.startsWith('wallet v1') ? 'v1' : 'v2', seqno: s.loadUint(32) };
      }
      if (std.startsWith('wallet v3') || std.startsWith('wallet v4')) {
        return { wallet_type: std, family: std.startsWith('wallet v3') ? 'v3' : 'v4', seqno: s.loadUint(32), wallet_id: s.loadUint(32) };
      }
      if (std === 'wallet v5 r1') {
        const allowed = s.loadBit();
        return { wallet_type: std, family: 'v5', is_signature_allowed: allowed, seqno: s.loadUint(32), wallet_id: s.loadUint(32) };
      }
      // v5 beta: is_signature_allowed:bit seqno:uint32, then an 80-bit wallet id.
      const allowed = s.loadBit();
      return { wallet_type: std, family: 'v5beta', is_signature_allowed: allowed, seqno: s.loadUint(32) };
    }
    if (hl!.startsWith('highload v1')) return { wallet_type: hl!, family: 'highload-v1', seqno: s.loadUint(32), wallet_id: s.loadUint(32) };
    if (hl!.startsWith('highload v2')) return { wallet_type: hl!, family: 'highload-v2', wallet_id: s.loadUint(32) };
    s.skip(256);
    return { wallet_type: hl!, family: 'highload-v3', wallet_id: s.loadUint(32) };
  } catch {
    // Code of a wallet with data in another layout: report the type without fields.
    return { wallet_type: (std ?? hl)!, family: std ? 'v3' : 'highload-v3' };
  }
}
