// The body decoder against ton-marker (toncenter's decoder): its own test vectors with its own expectations
// (test/fixtures/decode/ton-marker-test-vectors.json), and real fixture bodies whose expected tree is written
// here by hand from schemes.tlb and the printing rules of tlbc + tlb::JsonPrinter: every constructor is
// {"@type": name, fields...}, anonymous ones have no "@type", nat and integer fields are decimal strings,
// bits upper-case hex, 1-bit two-constructor types true/false, Maybe / Either / VarUInteger / addresses keep
// their constructors, Cell fields are BoCs replaced by their own decoding. Field values are read with
// @ton/core from the same cells (an independent reader), never from the decoder under test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell, Cell, Dictionary, loadMessage, loadMessageRelaxed, storeMessageRelaxed, type Builder, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBoc, decodeBodies, decodeMessageBody, decodeOpcode, decodeBocRecursive, MarkerBatchError } from '../../src/api/v3/decode/index.ts';
import { FIXTURES } from './helpers.ts';

const VECTORS = JSON.parse(readFileSync(join(FIXTURES, 'decode/ton-marker-test-vectors.json'), 'utf8')) as Record<string, string>;

function body(name: string): Cell {
  return loadMessage(Cell.fromBoc(readFileSync(join(FIXTURES, 'msgs', name)))[0].beginParse()).body;
}
const b64 = (c: Cell) => c.toBoc().toString('base64');
const HEX = (b: Buffer) => b.toString('hex').toUpperCase();

// ---------------------------------------------------------------- expected subtrees, by hand from schemes.tlb

const nothing = { '@type': 'nothing_from_maybe' };
const just = (value: unknown) => ({ '@type': 'something_from_maybe', value });
const left = (value: unknown) => ({ '@type': 'first_from_either', value });
const right = (value: unknown) => ({ '@type': 'second_from_either', value });
const EMPTY = { '@type': 'empty_cell' };

/** var_uint$_ {n:#} len:(#< n) value:(uint (len * 8)) = VarUInteger n */
function varUint(s: Slice, lenBits = 4) {
  const len = s.loadUint(lenBits);
  return { '@type': 'var_uint', len: String(len), value: (len ? s.loadUintBig(len * 8) : 0n).toString() };
}
/** nanograms$_ amount:(VarUInteger 16) = Grams;  nanocoins$_ amount:(VarUInteger 16) = Coins; */
const grams = (s: Slice) => ({ '@type': 'nanograms', amount: varUint(s) });
const coins = (s: Slice) => ({ '@type': 'nanocoins', amount: varUint(s) });

/** addr_none$00 | addr_external$01 len:(## 9) external_address:(bits len) | addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256 | addr_var$11 ... */
function msgAddress(s: Slice): Record<string, unknown> {
  const tag = s.loadUint(2);
  if (tag === 0) return { '@type': 'addr_none' };
  if (tag === 1) {
    const len = s.loadUint(9);
    return { '@type': 'addr_external', len: String(len), external_address: bitsHex(s, len) };
  }
  const anycast = s.loadBit() ? just(anycastInfo(s)) : nothing;
  if (tag === 2) return { '@type': 'addr_std', anycast, workchain_id: String(s.loadInt(8)), address: HEX(s.loadBuffer(32)) };
  const addrLen = s.loadUint(9);
  return { '@type': 'addr_var', anycast, addr_len: String(addrLen), workchain_id: String(s.loadInt(32)), address: bitsHex(s, addrLen) };
}
/** anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth) = Anycast; */
function anycastInfo(s: Slice) {
  const depth = s.loadUint(5);
  return { '@type': 'anycast_info', depth: String(depth), rewrite_pfx: bitsHex(s, depth) };
}
/** bits as td's to_hex: whole nibbles upper-case, an incomplete one with its completion bit and '_' */
function bitsHex(s: Slice, n: number): string {
  let out = '';
  let i = 0;
  for (; i + 4 <= n; i += 4) out += s.loadUint(4).toString(16).toUpperCase();
  const r = n - i;
  if (r) out += (((r ? s.loadUint(r) : 0) << (4 - r)) | (1 << (3 - r))).toString(16).toUpperCase() + '_';
  return out;
}

/**
 * message$_ {X:Type} info:CommonMsgInfoRelaxed init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X) = MessageRelaxed X;
 * int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddress dest:MsgAddressInt value:CurrencyCollection
 *   ihr_fee:Grams fwd_fee:Grams created_lt:uint64 created_at:uint32 = CommonMsgInfoRelaxed;
 * `expectBody` gives the expected decoding of the body cell (X = Any: the BoC of the rest, then its decoding).
 */
function messageRelaxed(s: Slice, expectBody: (c: Cell) => unknown): Record<string, unknown> {
  expect(s.loadBit()).toBe(false); // int_msg_info$0
  const info = {
    '@type': 'int_msg_info', ihr_disabled: s.loadBit(), bounce: s.loadBit(), bounced: s.loadBit(), src: msgAddress(s), dest: msgAddress(s),
    value: { '@type': 'currencies', grams: grams(s), other: { '@type': 'extra_currencies', dict: extraCurrencies(s) } },
    ihr_fee: grams(s), fwd_fee: grams(s), created_lt: s.loadUintBig(64).toString(), created_at: String(s.loadUint(32)),
  };
  expect(s.loadBit()).toBe(false); // init: nothing
  const init = nothing;
  // body:(Either X ^X): `^X` as a type argument is tlbc's RefT, printed as {"cell_reference": X}
  const bodyValue = s.loadBit() ? right({ cell_reference: expectBody(s.loadRef()) }) : left(expectBody(rest(s)));
  return { '@type': 'message', info, init, body: bodyValue };
}
/** hashmap_empty$0 | hashmap_root$1 root:^(Hashmap 32 (VarUInteger 32)) */
function extraCurrencies(s: Slice): unknown {
  if (!s.loadBit()) return { '@type': 'hashmap_empty' };
  return { '@type': 'hashmap_root', root: hashmap(s.loadRef().beginParse(), 32, (v) => varUint(v, 5)) };
}
function rest(s: Slice): Cell {
  const b = beginCell().storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs) b.storeRef(s.loadRef());
  return b.endCell();
}

/**
 * hashmap_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
 * hashmap_node_leaf#_ value:X = HashmapNode 0 X;  hashmap_node_fork#_ left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
 * hashmap_label_short$0 len:(Unary ~n) s:(n * Bit) | hashmap_label_long$10 n:(#<= m) s:(n * Bit) | hashmap_label_same$11 v:Bit n:(#<= m)
 */
function hashmap(s: Slice, n: number, value: (s: Slice) => unknown): unknown {
  const width = 32 - Math.clz32(n);
  let label: Record<string, unknown>;
  let l: number;
  const long = s.loadBit();
  if (!long) {
    let unary: Record<string, unknown> = { '@type': 'unary_zero' };
    const ones: number[] = [];
    while (s.loadBit()) ones.push(1);
    for (let i = 0; i < ones.length; i++) unary = { '@type': 'unary_succ', x: unary };
    l = ones.length;
    label = { '@type': 'hashmap_label_short', len: unary, s: bitsHex(s, l) };
  } else if (!s.loadBit() /* 10: long; 11: same */) {
    l = s.loadUint(width);
    label = { '@type': 'hashmap_label_long', n: String(l), s: bitsHex(s, l) };
  } else {
    const v = s.loadBit();
    l = s.loadUint(width);
    label = { '@type': 'hashmap_label_same', v, n: String(l) };
  }
  const m = n - l;
  const node = m === 0
    ? { '@type': 'hashmap_node_leaf', value: value(s) }
    : { '@type': 'hashmap_node_fork', left: hashmap(s.loadRef().beginParse(), m - 1, value), right: hashmap(s.loadRef().beginParse(), m - 1, value) };
  return { '@type': 'hashmap_edge', label, node };
}

// ---------------------------------------------------------------- upstream's own test vectors

describe('ton-marker test vectors (its test/logic.cpp expectations)', () => {
  it('a regular message body decodes to its constructor', () => {
    expect(decodeBocRecursive(VECTORS.jetton_transfer).startsWith('{"@type":"jetton_transfer"')).toBe(true);
  });

  it('a Telegram wallet request (signature before the opcode) and the opcode names', () => {
    const r = decodeBocRecursive(VECTORS.tg_wallet_send_one);
    for (const part of ['"@type":"tg_wallet_signed"', '"@type":"tg_wallet_send_one_internal"', '"message":{"@type":"message"', '"send_mode":"3"']) expect(r).toContain(part);
    expect(decodeOpcode(0x63896e74)).toBe('tg_wallet_send_one_internal');
    expect(decodeOpcode(0xeba19948)).toBe('tg_wallet_key_changed');
  });

  it('a Telegram wallet bulk request: the Tolk array of messages; a wrong length falls back to the opaque first_chunk', () => {
    // built exactly as upstream's tg_wallet_bulk_boc(): chunks of (mode, ^message) with a next-chunk ref first
    const bulk = (declared: number) => {
      const msg = Cell.fromBase64(VECTORS.tg_wallet_send_one).refs[0];
      const last = beginCell().storeUint(0, 1);
      for (let i = 0; i < 4; i++) last.storeUint(3, 8).storeRef(msg);
      const first = beginCell().storeUint(1, 1).storeRef(last.endCell()).storeUint(3, 8).storeRef(msg).endCell();
      const req = beginCell().storeUint(0, 256).storeUint(0, 256).storeUint(0x73896e75, 32).storeUint(2147450641, 32).storeUint(1791561777, 32)
        .storeUint(1, 32).storeUint(declared, 8).storeUint(1, 1).storeRef(first).endCell();
      return b64(req);
    };
    const r = decodeBocRecursive(bulk(5));
    expect(r).toContain('"@type":"tg_wallet_send_bulk_external"');
    expect(r).toContain('"messages_count":"5","messages":[');
    expect(r.match(/"@type":"tg_wallet_message_to_send"/g)).toHaveLength(5);
    expect(r).toContain('"message":{"@type":"message"');
    const malformed = decodeBocRecursive(bulk(6));
    expect(malformed).toContain('"first_chunk"');
    expect(malformed).not.toContain('"messages":[');
  });

  it('limits: cell expansion, recursive decode budget, encoded size; batch cardinality and size', () => {
    expect(decodeBocRecursive(VECTORS.recursive_dictionary)).toBe('unknown: decode limit - boc cell expansion limit exceeded');
    expect(decodeBocRecursive(VECTORS.recursive_shared_cell)).toBe('unknown: recursive decode error - recursive decode operation limit exceeded');
    expect(decodeBoc('A'.repeat(2 * 1024 * 1024 + 1))).toEqual({ error: 'unknown: encoded boc size limit exceeded' });
    expect(() => decodeBodies(new Array<string>(2001).fill(''))).toThrow(MarkerBatchError);
    expect(decodeBodies(new Array<string>(1002).fill(''))).toHaveLength(1002);
    expect(() => decodeBodies(new Array<string>(17).fill('A'.repeat(1024 * 1024)))).toThrow(MarkerBatchError);
  });
});

// ---------------------------------------------------------------- real bodies, expected trees by hand

describe('real bodies: the whole tree, key for key', () => {
  it('excess#d53276db query_id:uint64', () => {
    const c = body('mainnet-jetton-excesses-in-msg-lt58969751000001-8c6c53da.boc');
    const s = c.beginParse();
    expect(s.loadUint(32)).toBe(0xd53276db);
    expect(decodeBoc(b64(c))).toEqual({ '@type': 'excess', query_id: s.loadUintBig(64).toString() });
  });

  it('jetton_transfer: VarUInteger nodes, addr_std / addr_none, Maybe absent, Either left with an empty cell', () => {
    // jetton_transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress response_destination:MsgAddress
    //   custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody0;
    const c = body('mainnet-jetton-transfer-in-msg-lt58895241000001-13544018.boc');
    const s = c.beginParse();
    expect(s.loadUint(32)).toBe(0x0f8a7ea5);
    const expected = {
      '@type': 'jetton_transfer', query_id: s.loadUintBig(64).toString(), amount: varUint(s), destination: msgAddress(s), response_destination: msgAddress(s),
      custom_payload: s.loadBit() ? 'unexpected' : nothing, forward_ton_amount: varUint(s),
      forward_payload: s.loadBit() ? 'unexpected' : left(s.remainingBits || s.remainingRefs ? 'unexpected' : EMPTY),
    };
    const d = decodeBoc(b64(c));
    expect(d).toEqual(expected);
    // what a toncenter client reads
    expect((d.amount as { value: string }).value).toBe('3000000000');
    expect((d.destination as { address: string }).address).toMatch(/^[0-9A-F]{64}$/);
  });

  it('jetton_transfer: Either right, its ref decoded as a STON.fi forward payload with a Maybe MsgAddress absent', () => {
    // stonfi_swap_forward_payload#25938561 token_wallet:MsgAddress min_out:(VarUInteger 16) to_address:MsgAddress referral_address:(Maybe MsgAddress) = ForwardPayload;
    const c = body('mainnet-jetton-transfer-in-msg-lt43049086000005-1150b518.boc');
    const s = c.beginParse();
    s.skip(32);
    const head = { '@type': 'jetton_transfer', query_id: s.loadUintBig(64).toString(), amount: varUint(s), destination: msgAddress(s), response_destination: msgAddress(s) };
    expect(s.loadBit()).toBe(false);
    const fwdAmount = varUint(s);
    expect(s.loadBit()).toBe(true);
    const p = s.loadRef().beginParse();
    expect(p.loadUint(32)).toBe(0x25938561);
    const payload = { '@type': 'stonfi_swap_forward_payload', token_wallet: msgAddress(p), min_out: varUint(p), to_address: msgAddress(p), referral_address: p.loadBit() ? 'unexpected' : nothing };
    expect(decodeBoc(b64(c))).toEqual({ ...head, custom_payload: nothing, forward_ton_amount: fwdAmount, forward_payload: right(payload) });
  });

  it('jetton_notify with a DeDust swap payload: an anonymous field "", a 1-bit enum as a Bool, an anonymous record', () => {
    // dedust_swap#e3a0d482 _:DedustSwapStep swap_params:^DedustSwapParams = ForwardPayload;
    // step#_ pool_addr:MsgAddressInt params:DedustSwapStepParams; step_params#_ kind:DedustSwapKind limit:Coins next:(Maybe ^DedustSwapStep)
    // given_in$0 | given_out$1 = DedustSwapKind (two 1-bit constructors: printed true/false)
    // swap_params#_ deadline:DedustTimestamp recipient_addr:MsgAddress referral_addr:MsgAddress fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell)
    // _ timestamp:uint32 = DedustTimestamp (anonymous: no "@type")
    const c = body('mainnet-jetton-transfer-notification-in-msg-lt76734069000007-18aa8e2e.boc');
    const s = c.beginParse();
    expect(s.loadUint(32)).toBe(0x7362d09c);
    const head = { '@type': 'jetton_notify', query_id: s.loadUintBig(64).toString(), amount: varUint(s), sender: msgAddress(s) };
    expect(s.loadBit()).toBe(true);
    const p = s.loadRef().beginParse();
    expect(p.loadUint(32)).toBe(0xe3a0d482);
    const step = { '@type': 'step', pool_addr: msgAddress(p), params: { '@type': 'step_params', kind: p.loadBit(), limit: coins(p), next: p.loadBit() ? 'unexpected' : nothing } };
    const sp = p.loadRef().beginParse();
    const swapParams = {
      '@type': 'swap_params', deadline: { timestamp: String(sp.loadUint(32)) }, recipient_addr: msgAddress(sp), referral_addr: msgAddress(sp),
      fulfill_payload: sp.loadBit() ? 'unexpected' : nothing, reject_payload: sp.loadBit() ? 'unexpected' : nothing,
    };
    expect(decodeBoc(b64(c))).toEqual({ ...head, forward_payload: right({ '@type': 'dedust_swap', '': step, swap_params: swapParams }) });
  });

  it('wallet v4 external: signature first, then msg_seqno and op:simple_send with msgs_N of (mode, ^MessageRelaxed)', () => {
    // wallet_signed_v4#_ {n:#} signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32 op:(W4Operation n) = W4MsgBody n;
    // simple_send#00 {n:#} msgs:(WalletV1toV4Msgs n); msgs_1#_ msg_1:ModeWithMessage = WalletV1toV4Msgs 1; _ mode:(## 8) msg:^(MessageRelaxed Any)
    const c = body('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000029-1beb7d5f.boc');
    const s = c.beginParse();
    const head = { '@type': 'wallet_signed_v4', signature: HEX(s.loadBuffer(64)), subwallet_id: String(s.loadUint(32)), valid_until: String(s.loadUint(32)), msg_seqno: String(s.loadUint(32)) };
    expect(s.loadUint(8)).toBe(0);
    expect(c.refs).toHaveLength(1);
    const mode = String(s.loadUint(8));
    const msg = messageRelaxed(s.loadRef().beginParse(), (b) => {
      expect(b.bits.length + b.refs.length).toBe(0);
      return EMPTY;
    });
    expect(decodeBoc(b64(c))).toEqual({ ...head, op: { '@type': 'simple_send', msgs: { '@type': 'msgs_1', msg_1: { mode, msg } } } });
  });

  it('wallet v4 external with 4 messages: msgs_4 (the nat parameter n is the number of refs)', () => {
    const c = body('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000001-a9558b20.boc');
    const d = decodeBoc(b64(c)) as { op: { msgs: Record<string, unknown> } };
    expect(d.op.msgs['@type']).toBe(`msgs_${c.refs.length}`);
    expect(Object.keys(d.op.msgs)).toEqual(['@type', ...c.refs.map((_, i) => `msg_${i + 1}`)]);
  });

  it('W5 external: W5MsgBody m n with the out actions as an OutList m chain, the message body decoded', () => {
    // w5_external_signed_request#7369676e request:(W5SignedRequest m n); w5_signed_request$_ wallet_id:uint32 valid_until:uint32 msg_seqno:uint32
    //   inner:(W5InnerRequest m n) signature:bits512; w5_actions_request$_ out_actions:(Maybe ^(OutList m)) extended_actions:(Maybe (W5ExtendedActionList n))
    // out_list$_ prev:^(OutList n) action:OutAction = OutList (n + 1); out_list_empty$_ = OutList 0;
    // action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any)
    // jetton_burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress custom_payload:(Maybe ^Cell)
    const c = body('mainnet-ext-in-wallet-v5r1-in-msg-lt76734069000001-bc91b30e.boc');
    const s = c.beginParse();
    expect(s.loadUint(32)).toBe(0x7369676e);
    const head = { wallet_id: String(s.loadUint(32)), valid_until: String(s.loadUint(32)), msg_seqno: String(s.loadUint(32)) };
    expect(s.loadBit()).toBe(true);
    const outList = (cell: Cell): unknown => {
      const o = cell.beginParse();
      if (!o.remainingBits && !o.remainingRefs) return { '@type': 'out_list_empty' };
      const prev = o.loadRef();
      expect(o.loadUint(32)).toBe(0x0ec3c86d);
      const mode = String(o.loadUint(8));
      const out = messageRelaxed(o.loadRef().beginParse(), (b) => {
        const bs = b.beginParse();
        expect(bs.loadUint(32)).toBe(0x595f07bc);
        const head = { '@type': 'jetton_burn', query_id: bs.loadUintBig(64).toString(), amount: varUint(bs), response_destination: msgAddress(bs) };
        // custom_payload:(Maybe ^Cell) present; its cell holds 2 bits, too small to decode ("boc is too small"), so the BoC stays
        const custom = bs.loadBit() ? just(bs.loadRef().toBoc({ idx: false, crc32: false }).toString('base64')) : nothing;
        return { ...head, custom_payload: custom };
      });
      return { '@type': 'out_list', prev: outList(prev), action: { '@type': 'action_send_msg', mode, out_msg: out } };
    };
    const actions = outList(s.loadRef());
    expect(s.loadBit()).toBe(false);
    const signature = HEX(s.loadBuffer(64));
    expect(decodeBoc(b64(c))).toEqual({
      '@type': 'w5_external_signed_request',
      // out_actions:(Maybe ^(OutList m)): a RefT argument
      request: { '@type': 'w5_signed_request', ...head, inner: { '@type': 'w5_actions_request', out_actions: just({ cell_reference: actions }), extended_actions: nothing }, signature },
    });
  });

  it('highload v3 external: anonymous records without "@type" (HighloadV3MsgInner, HighloadV3QueryId)', () => {
    // highload_wallet_signed_v3#_ signature:bits512 msg_inner:^HighloadV3MsgInner;
    // _ subwallet_id:uint32 message_to_send:^(MessageRelaxed Any) send_mode:uint8 query_id:HighloadV3QueryId created_at:uint64 timeout:uint22;
    // _ shift:uint13 bit_number:(## 10) = HighloadV3QueryId;
    const c = body('mainnet-ext-in-highload-v3-in-msg-lt76734069000021-15813623.boc');
    const s = c.beginParse();
    const signature = HEX(s.loadBuffer(64));
    const inner = s.loadRef().beginParse();
    const subwallet = String(inner.loadUint(32));
    const msgCell = inner.loadRef();
    const expected = {
      subwallet_id: subwallet, send_mode: String(inner.loadUint(8)), query_id: { shift: String(inner.loadUint(13)), bit_number: String(inner.loadUint(10)) },
      created_at: inner.loadUintBig(64).toString(), timeout: String(inner.loadUint(22)),
    };
    const d = decodeBoc(b64(c)) as { '@type': string; msg_inner: Record<string, unknown> };
    expect(d['@type']).toBe('highload_wallet_signed_v3');
    expect((d as Record<string, unknown>).signature).toBe(signature);
    // ton-marker's text keeps the fields in declaration order (message_content.decoded serves it so); /decode sorts
    // every object's keys, as the Go API re-encodes the map it parsed
    const raw = JSON.parse(decodeBocRecursive(b64(c))) as { msg_inner: Record<string, unknown> };
    expect(Object.keys(raw.msg_inner)).toEqual(['subwallet_id', 'message_to_send', 'send_mode', 'query_id', 'created_at', 'timeout']);
    expect(Object.keys(d.msg_inner)).toEqual(['created_at', 'message_to_send', 'query_id', 'send_mode', 'subwallet_id', 'timeout']);
    expect(Object.keys(decodeMessageBody(b64(c))!.msg_inner as object)).toEqual(Object.keys(raw.msg_inner));
    expect(d.msg_inner).toMatchObject(expected);
    const m = loadMessageRelaxed(msgCell.beginParse());
    if (m.info.type !== 'internal') throw new Error('internal message expected');
    expect(d.msg_inner.message_to_send).toMatchObject({ '@type': 'message', info: { '@type': 'int_msg_info', dest: { '@type': 'addr_std', address: HEX(m.info.dest.hash) } } });
  });

  it('text comments: ton-marker prints {text}; message_content.decoded gives the back-compatible shape, keys as Go\'s map marshals them', () => {
    const c = body('mainnet-text-comment-in-msg-lt76734069000033-7692c307.boc');
    const s = c.beginParse();
    s.skip(32);
    const text = s.loadStringTail();
    expect(decodeBoc(b64(c))).toEqual({ '@type': 'text_comment', text });
    // markWithRefs: json.Marshal(map[string]interface{}{"type", "@type", "comment"}) sorts the keys
    expect(JSON.stringify(decodeMessageBody(b64(c)))).toBe(JSON.stringify({ '@type': 'text_comment', comment: text, type: 'text_comment' }));
  });

  it('a text comment inside a tree stays {text} (a W5 request whose message carries one)', () => {
    const c = body('mainnet-ext-in-wallet-v5r1-in-msg-lt58895241000001-12d9aa60.boc');
    // w5 request -> out_actions (a RefT: cell_reference) -> out_list -> action_send_msg -> out_msg -> body left
    const list = c.refs[0].beginParse();
    list.loadRef();
    list.skip(32 + 8);
    const m = loadMessageRelaxed(list.loadRef().beginParse());
    const cs = m.body.beginParse();
    expect(cs.loadUint(32)).toBe(0);
    const text = cs.loadStringTail();
    type D = { request: { inner: { out_actions: { value: { cell_reference: { action: { out_msg: { body: unknown } } } } } } } };
    const d = decodeMessageBody(b64(c)) as D;
    expect(d.request.inner.out_actions.value.cell_reference.action.out_msg.body).toEqual(left({ '@type': 'text_comment', text }));
  });

  it('^X as a type argument (tlbc\'s RefT) is {"cell_reference": X}: a wallet v4 message whose body is in a ref', () => {
    // message$_ ... body:(Either X ^X) = MessageRelaxed X: the body is the ref, an nft_transfer
    const c = body('mainnet-ext-in-wallet-subwallet698983191-v3v4-in-msg-lt58895241000002-21667f84.boc');
    const s = c.beginParse();
    s.skip(512 + 32 * 3 + 8);
    const mode = String(s.loadUint(8));
    const msg = loadMessageRelaxed(s.loadRef().beginParse());
    const nft = msg.body.beginParse();
    expect(nft.loadUint(32)).toBe(0x5fcc3d14);
    const queryId = nft.loadUintBig(64).toString();
    const newOwner = msgAddress(nft);
    type D = { op: { msgs: { msg_1: { mode: string; msg: { body: { '@type': string; value: { cell_reference: Record<string, unknown> } } } } } } };
    const d = decodeMessageBody(b64(c)) as D;
    expect(d.op.msgs.msg_1.mode).toBe(mode);
    const bodyTree = d.op.msgs.msg_1.msg.body;
    expect(bodyTree['@type']).toBe('second_from_either');
    expect(Object.keys(bodyTree.value)).toEqual(['cell_reference']);
    expect(bodyTree.value.cell_reference).toMatchObject({ '@type': 'nft_transfer', query_id: queryId, new_owner: newOwner });
  });

  it('a constant ^StonfiPayToParams argument is a RefT too; a constant ^Cell argument is t_RefCell: the BoC, decoded in place', () => {
    // stonfi_payment_request ... params:(Either StonfiPayToParams ^StonfiPayToParams)
    const pay = body('mainnet-stonfi-v1-pay-to-in-msg-lt43049086000011-779dcc81.boc');
    const ps = pay.beginParse();
    ps.skip(32 + 64);
    ps.loadAddress();
    ps.skip(32);
    expect(ps.loadBit()).toBe(true);
    const params = ps.loadRef().beginParse();
    const amount0 = varUint(params);
    const d = decodeMessageBody(b64(pay)) as { params: { '@type': string; value: { cell_reference: Record<string, unknown> } } };
    expect(d.params['@type']).toBe('second_from_either');
    expect(d.params.value.cell_reference).toMatchObject({ '@type': 'pay_to_params', amount0_out: amount0 });
    // jetton_transfer ... forward_payload:(Either Cell ^Cell): the referenced cell itself, no wrapper
    const t = body('mainnet-jetton-transfer-in-msg-lt43049086000005-1150b518.boc');
    const fp = (decodeMessageBody(b64(t)) as { forward_payload: { '@type': string; value: Record<string, unknown> } }).forward_payload;
    expect(fp['@type']).toBe('second_from_either');
    expect(fp.value).not.toHaveProperty('cell_reference');
    expect(fp.value['@type']).toBe('stonfi_swap_forward_payload');
  });

  it('bounce#ffffffff payload:Cell: the rest of the body as a BoC (a truncated body does not decode, so the BoC stays)', () => {
    const c = body('mainnet-bounced-in-in-msg-lt43049060000005-fd7e5735.boc');
    const s = c.beginParse();
    s.skip(32);
    const payload = rest(s);
    expect(decodeBoc(b64(payload)).error).toBe('unknown: no parser succeeded');
    expect(decodeBoc(b64(c))).toEqual({ '@type': 'bounce', payload: payload.toBoc({ idx: false, crc32: false }).toString('base64') });
  });
});

// ---------------------------------------------------------------- hand-built from real parts

/** A real out message (the v4 fixture's) to embed in built bodies. */
const REAL_MESSAGE = body('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000029-1beb7d5f.boc').refs[0];

describe('built from real parts: addresses, dictionaries, Maybe present, nat parameters', () => {
  function transferTo(dest: (b: Builder) => void): Cell {
    return beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(5n).store(dest).storeUint(0, 2).storeBit(true).storeRef(REAL_MESSAGE)
      .storeCoins(0n).storeBit(false).endCell();
  }

  it('addresses: addr_var, addr_std with anycast, addr_external; Maybe ^Cell present holds the decoded cell', () => {
    const hash = Buffer.alloc(32, 0xab);
    const cases: [string, (b: Builder) => void, unknown][] = [
      ['addr_var', (b) => b.storeUint(3, 2).storeBit(false).storeUint(256, 9).storeInt(-7, 32).storeBuffer(hash),
        { '@type': 'addr_var', anycast: nothing, addr_len: '256', workchain_id: '-7', address: HEX(hash) }],
      ['addr_std + anycast', (b) => b.storeUint(2, 2).storeBit(true).storeUint(5, 5).storeUint(0b10110, 5).storeInt(-1, 8).storeBuffer(hash),
        { '@type': 'addr_std', anycast: just({ '@type': 'anycast_info', depth: '5', rewrite_pfx: 'B4_' }), workchain_id: '-1', address: HEX(hash) }],
      ['addr_external', (b) => b.storeUint(1, 2).storeUint(10, 9).storeUint(0b1010101010, 10),
        { '@type': 'addr_external', len: '10', external_address: 'AAA_' }],
      ['addr_none', (b) => b.storeUint(0, 2), { '@type': 'addr_none' }],
    ];
    for (const [, write, dest] of cases) {
      const d = decodeBoc(b64(transferTo(write)));
      expect(d.destination).toEqual(dest);
      // custom_payload:(Maybe ^Cell) present: the ref's BoC, replaced by its decoding (a MessageRelaxed is no message body: BoC stays)
      const custom = d.custom_payload as { '@type': string; value: string };
      expect(custom['@type']).toBe('something_from_maybe');
      expect(Cell.fromBase64(custom.value).equals(REAL_MESSAGE)).toBe(true);
    }
  });

  it('highload v2 external: HashmapE 16 ModeWithMessage printed as its hashmap tree (labels, forks, leaves)', () => {
    // highload_wallet_signed_v2#_ signature:bits512 subwallet_id:uint32 query_id:uint64 payload:(HashmapE 16 ModeWithMessage)
    for (const keys of [[0], [0, 1], [3, 700, 65535]]) {
      const dict = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Cell());
      for (const k of keys) dict.set(k, beginCell().storeUint(3, 8).storeRef(REAL_MESSAGE).endCell());
      const c = beginCell().storeBuffer(Buffer.alloc(64, 1)).storeUint(698983191, 32).storeUint(12345n, 64)
        .storeDict(dict, Dictionary.Keys.Uint(16), { serialize: (v, b) => b.storeSlice(v.beginParse()), parse: (s) => s.asCell() }).endCell();
      const s = c.beginParse();
      s.skip(512 + 96);
      expect(s.loadBit()).toBe(true);
      const leaf = (v: Slice) => ({ mode: String(v.loadUint(8)), msg: messageRelaxed(v.loadRef().beginParse(), () => EMPTY) });
      const expected = {
        '@type': 'highload_wallet_signed_v2', signature: '01'.repeat(64), subwallet_id: '698983191', query_id: '12345',
        payload: { '@type': 'hashmap_root', root: hashmap(s.loadRef().beginParse(), 16, leaf) },
      };
      expect(decodeBoc(b64(c)), `keys ${keys.join(',')}`).toEqual(expected);
    }
  });

  it('extra currencies: HashmapE 32 (VarUInteger 32) inside a wallet v3 external with two messages', () => {
    // wallet_signed_v3#_ {n:#} signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32 msgs:(WalletV1toV4Msgs n)
    const m = loadMessageRelaxed(REAL_MESSAGE.beginParse());
    if (m.info.type !== 'internal') throw new Error('internal message expected');
    const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    other.set(7, 1000n).set(100000, 5n ** 40n);
    const withExtra = beginCell().store(storeMessageRelaxed({ ...m, info: { ...m.info, value: { coins: m.info.value.coins, other } } })).endCell();
    const c = beginCell().storeBuffer(Buffer.alloc(64, 2)).storeUint(698983191, 32).storeUint(1900000000, 32).storeUint(9, 32)
      .storeUint(3, 8).storeRef(withExtra).storeUint(1, 8).storeRef(REAL_MESSAGE).endCell();
    const msg = (x: Cell) => messageRelaxed(x.beginParse(), () => EMPTY);
    expect(decodeBoc(b64(c))).toEqual({
      '@type': 'wallet_signed_v3', signature: '02'.repeat(64), subwallet_id: '698983191', valid_until: '1900000000', msg_seqno: '9',
      msgs: { '@type': 'msgs_2', msg_1: { mode: '3', msg: msg(withExtra) }, msg_2: { mode: '1', msg: msg(REAL_MESSAGE) } },
    });
  });

  it('highload v3 internal request: HighloadV3InternalRequest n with n counted from the OutList refs', () => {
    // highload_v3_internal_request#ae42e5a4 {n:#} query_id:uint64 actions:^(OutList n) = HighloadV3InternalRequest n;
    const action = (mode: number) => (b: Builder) => b.storeUint(0x0ec3c86d, 32).storeUint(mode, 8).storeRef(REAL_MESSAGE);
    const empty = beginCell().endCell();
    const l1 = beginCell().storeRef(empty).store(action(1)).endCell();
    const l2 = beginCell().storeRef(l1).store(action(2)).endCell();
    const c = beginCell().storeUint(0xae42e5a4, 32).storeUint(77, 64).storeRef(l2).endCell();
    const send = (mode: number) => ({ '@type': 'action_send_msg', mode: String(mode), out_msg: messageRelaxed(REAL_MESSAGE.beginParse(), () => EMPTY) });
    expect(decodeBoc(b64(c))).toEqual({
      '@type': 'highload_v3_internal_request', query_id: '77',
      actions: { '@type': 'out_list', prev: { '@type': 'out_list', prev: { '@type': 'out_list_empty' }, action: send(1) }, action: send(2) },
    });
  });
});

// ---------------------------------------------------------------- failures as ton-marker reports them

describe('failure paths', () => {
  const excess = body('mainnet-jetton-excesses-in-msg-lt58969751000001-8c6c53da.boc');
  const transfer = body('mainnet-jetton-transfer-in-msg-lt58895241000001-13544018.boc');

  it('trailing bits and refs are allowed (print_skip): the scheme still decodes', () => {
    const c = beginCell().storeSlice(excess.beginParse()).storeUint(0b1011, 4).storeRef(REAL_MESSAGE).endCell();
    expect(decodeBoc(b64(c))).toEqual(decodeBoc(b64(excess)));
  });

  it('truncated body, unknown opcode, invalid UTF-8 comment: no parser succeeded; under 32 bits; empty cell', () => {
    const cut = beginCell().storeBits(transfer.beginParse().loadBits(32 + 64 + 20)).endCell();
    expect(decodeBoc(b64(cut))).toEqual({ error: 'unknown: no parser succeeded' });
    expect(decodeBoc(b64(beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 64).endCell()))).toEqual({ error: 'unknown: no parser succeeded' });
    // text_comment#00000000 text:SnakeString needs valid UTF-8; text:^SnakeString needs a ref
    expect(decodeBoc(b64(beginCell().storeUint(0, 32).storeBuffer(Buffer.from([0xff, 0xfe])).endCell()))).toEqual({ error: 'unknown: no parser succeeded' });
    expect(decodeBoc(b64(beginCell().storeUint(5, 8).endCell()))).toEqual({ error: 'unknown: boc is too small, size 8' });
    expect(decodeBoc(b64(beginCell().endCell()))).toEqual({ '@type': 'empty_cell' });
  });

  it('input errors: base64 when it starts with te6, hex otherwise; BoC header errors', () => {
    expect(decodeBoc('te6cc!!')).toEqual({ error: 'unknown: failed to decode base64: Wrong padding length' });
    expect(decodeBoc('te6c#===')).toEqual({ error: 'unknown: failed to decode base64: Wrong string padding' });
    expect(decodeBoc('zz')).toEqual({ error: 'unknown: failed to decode hex: Wrong hex string' });
    expect(decodeBoc('abc')).toEqual({ error: 'unknown: failed to decode hex: Wrong hex string length' });
    expect(decodeBoc('00112233')).toEqual({ error: 'unknown: failed to deserialize boc: cannot deserialize bag-of-cells: invalid header, error 0' });
    // the same BoC given as hex decodes the same
    expect(decodeBoc(excess.toBoc().toString('hex'))).toEqual(decodeBoc(b64(excess)));
  });

  it('nat fields are read into a C++ int: a # field of 2^31 or more fails the constructor', () => {
    // init_payment_channel#0e0620c2 is_A:Bool signature:bits512 tag:# channel_id:uint128 balance_A:Coins balance_B:Coins
    // tlbc: cs.fetch_uint_to(32, int& tag) is false when the value does not fit an int
    const channel = (tag: number) => b64(beginCell().storeUint(0x0e0620c2, 32).storeBit(true).storeBuffer(Buffer.alloc(64, 9)).storeUint(tag, 32)
      .storeUint(5n, 128).storeCoins(10n).storeCoins(0n).endCell());
    expect(decodeOpcode(0x0e0620c2)).toBe('init_payment_channel');
    expect(decodeBoc(channel(0x43685374))).toMatchObject({ '@type': 'init_payment_channel', is_A: true, tag: String(0x43685374), channel_id: '5' });
    expect(decodeBoc(channel(0x7fffffff)).tag).toBe('2147483647');
    expect(decodeBoc(channel(0x80000000))).toEqual({ error: 'unknown: no parser succeeded' });
  });

  it('a W5 opcode whose request does not parse: upstream keeps the failed attempt in front of the fallback text, which is not JSON', () => {
    const c = beginCell().storeUint(0x7369676e, 32).storeUint(1, 32).endCell();
    const text = decodeBocRecursive(b64(c));
    expect(text.startsWith('{"@type":"w5_external_signed_request","request":{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    // the Go API's /decode (processDecode): text its JSON decoder refuses is answered as is
    expect(decodeBoc(b64(c))).toEqual({ failed_to_decode_json: text });
    expect(decodeMessageBody(b64(c))).toBeNull();
  });

  it('opcode names: first constructor with the tag across InternalMsgBody0..11, ExternalMsgBody, ForwardPayload', () => {
    expect(decodeOpcode(0)).toBe('text_comment');
    expect(decodeOpcode(1)).toBe('evaa_supply_master,pyth_update_guardian_set,w4_deploy_install_plugin');
    expect(decodeOpcode(0xd55e4686)).toBe('dedust_deposit_liquidity');
    expect(decodeOpcode(0x2114702d)).toBe('cron_trigger');
    expect(decodeOpcode(0xc0ffee10)).toBe('coffee_swap_forward_payload');
    expect(decodeOpcode(0xdeadbeef)).toBe('unknown');
  });
});
