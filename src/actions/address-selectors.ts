/**
 * ↔ indexer/events/blocks/utils/address_selectors.py: which accounts a trace needs interface records for, and
 * which accounts' extra data (the data cell) a matcher will ask for.
 *
 * Upstream loads interfaces for exactly these accounts; our pipeline's trace context (src/traces/trace-context.ts)
 * loads a superset (every address a body names), so `extractAccountsFromTrace` is the reference for what must be
 * there. The extra-data requests do change behaviour: the interface repository (interfaces.ts) answers
 * `getExtraData` only for the accounts requested here, as upstream's does.
 * jVault: upstream asks for the data of an unstake's (and, newer, an unstake request's) stake wallet; its repository
 * then also gathers the data of the pool that wallet names (`lock_wallet_address`). The pool is not known from the
 * messages; here the pool a stake wallet asks for a rewards update is requested too, so its data is there whenever
 * the trace reaches it (families/jvault.ts).
 */
import { Address, type Slice } from '@ton/core';
import type { Trace, TraceMessage, TraceTransaction } from './model.ts';
import { JettonNotify, JettonTransfer } from './messages/jettons.ts';
import { extractPayloadFromWalletMessage } from './messages/externals.ts';
import { JVaultRequestUpdateRewards, JVaultUnstakeJettons, JVaultUnstakeRequest } from './messages/jvault.ts';
import { StonfiSwapV2 } from './messages/swaps.ts';
import { cellFromBoc } from '../contracts/index.ts';
import { accountId } from './ton-utils.ts';

/** jVault `unstake_jettons`: its destination's data cell is read by the jVault matchers. */
export const JVAULT_UNSTAKE_JETTONS_OPCODE = JVaultUnstakeJettons.opcode;
/** Messages whose destination's data the jVault matchers read (see the file comment for the rewards update). */
export const DATA_BOC_REQUEST_OPCODES: ReadonlySet<number> = new Set<number>([JVAULT_UNSTAKE_JETTONS_OPCODE, JVaultUnstakeRequest.opcode, JVaultRequestUpdateRewards.opcode]);
/** STON.fi v2 swap payload inside a transfer notification. */
const STONFI_V2_SWAP_OPCODE = 0x6664de2a;

export interface ExtraAccountRequest {
  account: string;
  request: 'data_boc';
}

function body(m: TraceMessage): Slice {
  const c = cellFromBoc(m.body);
  if (!c) throw new Error('no body');
  return c.beginParse(true);
}

const raw = (a: unknown): string | null => (a instanceof Address ? accountId(a) : null);

/** A transfer notification's STON.fi v2 swap payload names the target wallet. */
export function extractTargetWalletStonfiV2Swap(m: TraceMessage): Set<string> {
  const out = new Set<string>();
  const s = body(m);
  s.skip(32 + 64);
  s.loadCoins();
  s.loadAddressAny();
  const payload = s.loadBit() ? s.loadRef().beginParse(true) : s.clone();
  if (payload.remainingBits > 0 && payload.loadUint(32) >>> 0 === STONFI_V2_SWAP_OPCODE) {
    const a = raw(payload.loadAddressAny());
    if (a) out.add(a);
  }
  return out;
}

/** A jetton transfer's STON.fi v1 swap payload names the target wallet. */
export function extractTargetWalletStonfiSwap(m: TraceMessage): Set<string> {
  const out = new Set<string>();
  const t = new JettonTransfer(body(m));
  const w = raw(t.stonfiSwapBody?.jettonWallet);
  if (w) out.add(w);
  return out;
}

/**
 * `extract_pool_wallets_stonfi_v2`: the pool wallets of a STON.fi v2 route. Upstream runs it on the messages with
 * `StonfiSwapV2.opcode`, which is the pay-to opcode (0x657b54f5), and reads them as a swap: a pay-to rarely reads
 * so, and then names nothing (the failure is swallowed), as upstream.
 */
export function extractPoolWalletsStonfiV2(m: TraceMessage): Set<string> {
  return new Set(new StonfiSwapV2(body(m)).getPoolAccountsRecursive());
}

/** The destinations a wallet external asks to send to, and the receivers of the jetton transfers among them. */
export function extractAddressesFromExternal(m: TraceMessage): Set<string> {
  const out = new Set<string>();
  if (m.source !== null) return out;
  const [payloads] = extractPayloadFromWalletMessage(m.body);
  for (const p of payloads) {
    if (p.info === null) continue;
    const d = raw(p.info.dest);
    if (d) out.add(d);
    try {
      if (p.opcode === JettonTransfer.opcode && p.body) {
        const r = raw(new JettonTransfer(p.body.beginParse(true)).destination);
        if (r) out.add(r);
      }
    } catch {
      // a payload that does not read names nothing more
    }
  }
  return out;
}

function messagesOf(tx: TraceTransaction): TraceMessage[] {
  return tx.inMsg ? [tx.inMsg, ...tx.outMsgs] : [...tx.outMsgs];
}

export function extractAdditionalAddresses(tx: TraceTransaction): Set<string> {
  const out = new Set<string>();
  for (const m of messagesOf(tx)) {
    if (m.opcode === null) continue;
    const op = m.opcode >>> 0;
    try {
      if (m.source === null) for (const a of extractAddressesFromExternal(m)) out.add(a);
      if (op === JettonTransfer.opcode) for (const a of extractTargetWalletStonfiSwap(m)) out.add(a);
      if (op === JettonNotify.opcode) for (const a of extractTargetWalletStonfiV2Swap(m)) out.add(a);
      if (op === StonfiSwapV2.opcode) for (const a of extractPoolWalletsStonfiV2(m)) out.add(a);
    } catch {
      // as upstream: a body that does not read adds nothing
    }
  }
  return out;
}

export function extractExtraAccountsDataRequests(tx: TraceTransaction): ExtraAccountRequest[] {
  const out: ExtraAccountRequest[] = [];
  for (const m of messagesOf(tx)) {
    if (m.opcode !== null && DATA_BOC_REQUEST_OPCODES.has(m.opcode >>> 0) && m.destination !== null) out.push({ account: m.destination, request: 'data_boc' });
  }
  return out;
}

/** The extra data the trace's matchers will ask for (cheap: opcodes only). */
export function extractExtraRequestsFromTrace(trace: Pick<Trace, 'transactions'>): ExtraAccountRequest[] {
  const seen = new Set<string>();
  const out: ExtraAccountRequest[] = [];
  for (const tx of trace.transactions) {
    for (const r of extractExtraAccountsDataRequests(tx)) {
      const k = `${r.account}|${r.request}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(r);
      }
    }
  }
  return out;
}

/** Every account whose interfaces the trace's matchers may read, and the extra data they will ask for. */
export function extractAccountsFromTrace(trace: Pick<Trace, 'transactions'>): { accounts: Set<string>; extraRequests: ExtraAccountRequest[] } {
  const accounts = new Set<string>();
  for (const tx of trace.transactions) {
    accounts.add(tx.account);
    for (const a of extractAdditionalAddresses(tx)) accounts.add(a);
  }
  return { accounts, extraRequests: extractExtraRequestsFromTrace(trace) };
}
