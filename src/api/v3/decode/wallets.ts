/**
 * Wallet requests: W5 signed requests (opcodes 0x7369676e / 0x73696e74 / 0x6578746e, schemes.tlb "w5 FIXED"),
 * and the signature-first external bodies of wallets v3 and v4 (no opcode: tried after every scheme, like
 * ton-marker's special.cpp). Out messages are `MessageRelaxed` records whose body is decoded in turn.
 * Lists (the W5 `OutList` / extended-action snakes, the v3/v4 message refs) are arrays, oldest action first.
 */
import { beginCell, loadMessageRelaxed, type Cell, type Slice, type StateInit } from '@ton/core';
import { addrInt, bits, bocOf, bool, cellValue, cons, currencies, hex, type, uint, type Ctx, type Reader } from './tlb.ts';
import { outList } from './schemes.ts';

const raw = (a: { workChain: number; hash: Buffer } | null | undefined) => (a ? `${a.workChain}:${a.hash.toString('hex').toUpperCase()}` : null);

function stateInitJson(i: StateInit | null | undefined): Record<string, unknown> | null {
  if (!i) return null;
  return {
    fixed_prefix_length: i.splitDepth === undefined || i.splitDepth === null ? null : String(i.splitDepth),
    special: i.special ? { tick: i.special.tick, tock: i.special.tock } : null,
    code: i.code ? bocOf(i.code) : null,
    data: i.data ? bocOf(i.data) : null,
    library: null,
  };
}

/**
 * message$_ {X:Type} info:CommonMsgInfoRelaxed init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X) = MessageRelaxed X;
 * int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddress dest:MsgAddressInt value:CurrencyCollection
 *   ihr_fee:Grams fwd_fee:Grams created_lt:uint64 created_at:uint32 = CommonMsgInfoRelaxed;
 * ext_out_msg_info$11 src:MsgAddress dest:MsgAddressExt created_lt:uint64 created_at:uint32 = CommonMsgInfoRelaxed;
 */
export const messageRelaxed: Reader = (s, ctx) => {
  const m = loadMessageRelaxed(s);
  const i = m.info;
  let info: Record<string, unknown>;
  if (i.type === 'internal') {
    const other: Record<string, string> = {};
    for (const [k, v] of i.value.other ?? new Map<number, bigint>()) other[String(k)] = v.toString();
    info = {
      '@type': 'int_msg_info', ihr_disabled: i.ihrDisabled, bounce: i.bounce, bounced: i.bounced, src: raw(i.src), dest: raw(i.dest),
      value: { grams: i.value.coins.toString(), other }, ihr_fee: i.ihrFee.toString(), fwd_fee: i.forwardFee.toString(),
      created_lt: i.createdLt.toString(), created_at: String(i.createdAt),
    };
  } else {
    info = { '@type': 'ext_out_msg_info', src: raw(i.src), dest: i.dest ? { '@type': 'addr_extern', external_address: i.dest.value.toString(16).toUpperCase() } : null,
      created_lt: i.createdLt.toString(), created_at: String(i.createdAt) };
  }
  return { '@type': 'message', info, init: stateInitJson(m.init), body: cellValue(m.body, ctx) };
};

// action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any) = OutAction;
// action_set_code#ad4de08e new_code:^Cell = OutAction;
// action_reserve_currency#36e6b809 mode:(## 8) currency:CurrencyCollection = OutAction;
// action_change_library#26fa1dd4 mode:(## 7) libref:LibRef = OutAction;  (libref_hash$0 lib_hash:bits256 / libref_ref$1 library:^Cell)
const refMessage: Reader = (s, ctx) => messageRelaxed(s.loadRef().beginParse(), ctx);
const OutAction = type(
  cons('action_send_msg', hex('0ec3c86d'), [['mode', uint(8)], ['out_msg', refMessage]]),
  cons('action_set_code', hex('ad4de08e'), [['new_code', (s) => bocOf(s.loadRef())]]),
  cons('action_reserve_currency', hex('36e6b809'), [['mode', uint(8)], ['currency', currencies]]),
  cons('action_change_library', hex('26fa1dd4'), [['mode', uint(7)], ['libref', (s, ctx) => (s.loadBit() ? { '@type': 'libref_ref', library: bocOf(s.loadRef()) } : { '@type': 'libref_hash', lib_hash: bits(256)(s, ctx) })]]),
);

// add_extension#02 addr:MsgAddressInt = W5ExtendedAction; delete_extension#03 addr:MsgAddressInt = W5ExtendedAction;
// set_signature_auth_allowed#04 allowed:Bool = W5ExtendedAction;
const W5ExtendedAction = type(
  cons('add_extension', hex('02'), [['addr', addrInt]]),
  cons('delete_extension', hex('03'), [['addr', addrInt]]),
  cons('set_signature_auth_allowed', hex('04'), [['allowed', bool]]),
);

/** extended_list_last$_ action = (W5ExtendedActionList 0); extended_list_action$_ action prev:^(W5ExtendedActionList m) */
const extendedList: Reader = (s, ctx) => {
  const out: unknown[] = [W5ExtendedAction(s, ctx)];
  // the first action is inline; a ref continues the list
  let cur: Slice | null = s.remainingRefs > 0 ? s.loadRef().beginParse() : null;
  while (cur) {
    if (out.length > 255) throw new Error('extended action list longer than 255');
    out.push(W5ExtendedAction(cur, ctx));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return out;
};

/** w5_actions_request$_ out_actions:(Maybe ^(OutList m)) extended_actions:(Maybe (W5ExtendedActionList n)) = W5InnerRequest m n; */
const W5InnerRequest: Reader = (s, ctx) => {
  const out_actions = s.loadBit() ? outList(OutAction)(s.loadRef().beginParse(), ctx) : null;
  const extended_actions = s.loadBit() ? extendedList(s, ctx) : null;
  return { '@type': 'w5_actions_request', out_actions, extended_actions };
};

/** w5_signed_request$_ wallet_id:uint32 valid_until:uint32 msg_seqno:uint32 inner:(W5InnerRequest m n) signature:bits512 = W5SignedRequest m n; */
const W5SignedRequest: Reader = (s, ctx) => {
  const wallet_id = uint(32)(s, ctx);
  const valid_until = uint(32)(s, ctx);
  const msg_seqno = uint(32)(s, ctx);
  // the signature is the last 512 bits of the cell: read the inner request from the bits before it
  const sig = s.clone();
  sig.skip(s.remainingBits - 512);
  const signature = bits(512)(sig, ctx);
  const inner = beginCell().storeBits(s.loadBits(s.remainingBits - 512));
  while (s.remainingRefs) inner.storeRef(s.loadRef());
  s.skip(512);
  return { '@type': 'w5_signed_request', wallet_id, valid_until, msg_seqno, inner: W5InnerRequest(inner.endCell().beginParse(), ctx), signature };
};

/** W5 bodies by opcode (w5_internal_signed_request#73696e74 / w5_external_signed_request#7369676e request:(W5SignedRequest m n),
 * w5_extension_action_request#6578746e query_id:uint64 request:(W5InnerRequest m n)). */
export const W5_SCHEMES = [
  cons('w5_internal_signed_request', hex('73696e74'), [['request', W5SignedRequest]]),
  cons('w5_external_signed_request', hex('7369676e'), [['request', W5SignedRequest]]),
  cons('w5_extension_action_request', hex('6578746e'), [['query_id', uint(64)], ['request', W5InnerRequest]]),
];

/**
 * Wallet v3 / v4 external body: signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32, v4 then op:uint8
 * (simple_send 0), then one `mode:uint8` per ref, each ref a MessageRelaxed. Matches only when the bits left are
 * exactly one mode per ref (what tells v3 from v4, as the reference's W3MsgBody / W4MsgBody do).
 */
export function decodeWalletV3V4(c: Cell, ctx: Ctx): Record<string, unknown> | null {
  const s = c.beginParse();
  const n = s.remainingRefs;
  const rest = s.remainingBits - 512 - 96;
  if (n === 0 || n > 4) return null;
  const v4 = rest === 8 + 8 * n;
  if (!v4 && rest !== 8 * n) return null;
  const signature = bits(512)(s, ctx);
  const head = { subwallet_id: uint(32)(s, ctx), valid_until: uint(32)(s, ctx), seqno: uint(32)(s, ctx) };
  if (v4 && s.loadUint(8) !== 0) return null; // simple_send$00000000 only
  const payload: unknown[] = [];
  for (let i = 0; i < n; i++) payload.push({ mode: uint(8)(s, ctx), message: messageRelaxed(s.loadRef().beginParse(), ctx) });
  return v4
    ? { '@type': 'wallet_signed_v4', signature, ...head, op: '0', payload }
    : { '@type': 'wallet_signed_v3', signature, ...head, payload };
}

