/**
 * Message reader.
 *
 * int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddressInt dest:MsgAddressInt
 *   value:CurrencyCollection extra_flags:(VarUInteger 16) fwd_fee:Grams created_lt:uint64 created_at:uint32 = CommonMsgInfo;
 *   (before global version 12 the same bits were `ihr_fee:Grams`: GlobalVersions.md, "Version 12")
 * ext_in_msg_info$10 src:MsgAddressExt dest:MsgAddressInt import_fee:Grams = CommonMsgInfo;
 * ext_out_msg_info$11 src:MsgAddressInt dest:MsgAddressExt created_lt:uint64 created_at:uint32 = CommonMsgInfo;
 * message$_ {X:Type} info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X) = Message X;
 * _ split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell)
 *   library:(HashmapE 256 SimpleLib) = StateInit;
 */
import { BitWriter, hashNewCell, sliceRange, type NewCell } from '../cell/builder.ts';
import { serializeBoc } from '../cell/std-boc.ts';
import type { Cells } from '../cell/boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { loadCurrencyCollection, loadMsgAddress, type ExtraCurrencies } from './common.ts';

export type MessageType = 'int' | 'ext_in' | 'ext_out';

/** One message (inbound or outbound of a transaction). */
export interface MessageRow {
  /** representation hash of the Message cell */
  msg_hash: string;
  message_type: MessageType;
  /** raw `wc:HEX`; null for external-in (addr_none/addr_extern source) */
  source: string | null;
  /** raw `wc:HEX`; null for external-out (addr_none/addr_extern destination) */
  destination: string | null;
  /** addr_extern payload of an external source/destination: `"<bit length>:<hex of the bits, right-padded>"`, else null */
  source_external: string | null;
  destination_external: string | null;
  /** int only */
  value: bigint | null;
  value_extra_currencies: ExtraCurrencies;
  /** int only */
  fwd_fee: bigint | null;
  /**
   * int only. The CommonMsgInfo field after `value` is `ihr_fee:Grams` before global version 12 and
   * `extra_flags:(VarUInteger 16)` from it (same bits; IHR fees are zero since version 11): read as the block's
   * version says, the other one is 0.
   */
  ihr_fee: bigint | null;
  /** int only: see ihr_fee (bit 0: new bounce format, bit 1: bounce with the whole body); 0 before version 12 */
  extra_flags: bigint | null;
  /** ext_in only */
  import_fee: bigint | null;
  /** int, ext_out */
  created_lt: bigint | null;
  /** int, ext_out (unix time) */
  created_at: number | null;
  /** int only */
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /**
   * first 32 bits of the body as a signed int32 (as toncenter stores it, `messages.opcode int4`); null when the
   * body has fewer than 32 bits. API v3 renders `"0x" + (opcode >>> 0).toString(16).padStart(8, "0")`.
   */
  opcode: number | null;
  /** hash of the body cell: the referenced cell, or the inline remainder of the message slice as its own cell */
  body_hash: string;
  /** base64 BoC of that body cell */
  body_boc: string;
  /** StateInit cell (inline StateInit rebuilt as its own cell) hash and BoC; null without init */
  init_state_hash: string | null;
  init_state_boc: string | null;
  /** external-in only: normalized hash (API v3 §7.1); null for other messages. Set even when equal to msg_hash. */
  hash_norm: string | null;
}

/** Bodies and init states as toncenter's indexer stores them: `std_boc_serialize(cell, WithCRC32C)`. */
const TONCENTER_BOC = { crc: true };

/** The global version from which int_msg_info's field after `value` is `extra_flags` (was `ihr_fee`). */
export const EXTRA_FLAGS_VERSION = 12;

/** Skip a StateInit in place (fields are bits and refs of the same cell). */
function skipStateInit(s: Slice): void {
  if (s.bit()) s.skip(5); // split_depth
  if (s.bit()) s.skip(2); // special: tick_tock$_ tick:Bool tock:Bool
  if (s.bit()) s.loadRef(); // code
  if (s.bit()) s.loadRef(); // data
  if (s.bit()) s.loadRef(); // library (HashmapE root)
}

/**
 * Decode the Message cell `cell` of an arena. `globalVersion`: the version of the block that carries it (BlockInfo
 * gen_software; 0 when unknown), which names int_msg_info's `extra_flags` / `ihr_fee` field.
 */
export function readMessage(cells: Cells, cell: number, globalVersion = 0): MessageRow {
  const s = Slice.of(cells, cell, 'Message');
  const row = emptyMessageRow(cells.hashHex(cell));
  let destFrom = 0;
  let destTo = 0;
  const infoTag = s.bit() ? (s.bit() ? 3 : 2) : 0;
  if (infoTag === 0) readIntMsgInfo(s, row, globalVersion);
  else if (infoTag === 2) {
    row.message_type = 'ext_in';
    const src = loadMsgAddress(s);
    row.source_external = src.external;
    destFrom = s.pos;
    const dst = loadMsgAddress(s);
    destTo = s.pos;
    row.destination = dst.raw;
    row.import_fee = s.grams();
  } else {
    row.message_type = 'ext_out';
    const src = loadMsgAddress(s);
    row.source = src.raw;
    const dst = loadMsgAddress(s);
    row.destination_external = dst.external;
    row.created_lt = s.uint64();
    row.created_at = s.uint(32);
  }
  readInit(cells, s, row);
  const body = readBody(cells, s, row);
  if (row.message_type === 'ext_in') row.hash_norm = normalizedHash(cells, destFrom, destTo, body.hash, body.depth);
  return row;
}

/** A row with every field in place (one object shape for every message), to be filled by the readers below. */
function emptyMessageRow(msg_hash: string): MessageRow {
  return {
    msg_hash,
    message_type: 'int',
    source: null,
    destination: null,
    source_external: null,
    destination_external: null,
    value: null,
    value_extra_currencies: null,
    fwd_fee: null,
    ihr_fee: null,
    extra_flags: null,
    import_fee: null,
    created_lt: null,
    created_at: null,
    ihr_disabled: null,
    bounce: null,
    bounced: null,
    opcode: null,
    body_hash: '',
    body_boc: '',
    init_state_hash: null,
    init_state_boc: null,
    hash_norm: null,
  };
}

/** int_msg_info$0, after its tag. */
function readIntMsgInfo(s: Slice, row: MessageRow, globalVersion: number): void {
  row.message_type = 'int';
  row.ihr_disabled = s.bit();
  row.bounce = s.bit();
  row.bounced = s.bit();
  const src = loadMsgAddress(s);
  row.source = src.raw;
  row.source_external = src.external;
  const dst = loadMsgAddress(s);
  row.destination = dst.raw;
  row.destination_external = dst.external;
  const value = loadCurrencyCollection(s);
  row.value = value.grams;
  row.value_extra_currencies = value.extra;
  const flagsOrFee = s.grams();
  const extraFlags = globalVersion >= EXTRA_FLAGS_VERSION;
  row.extra_flags = extraFlags ? flagsOrFee : 0n;
  row.ihr_fee = extraFlags ? 0n : flagsOrFee;
  row.fwd_fee = s.grams();
  row.created_lt = s.uint64();
  row.created_at = s.uint(32);
}

/** init:(Maybe (Either StateInit ^StateInit)): an inline StateInit is rebuilt as its own cell. */
function readInit(cells: Cells, s: Slice, row: MessageRow): void {
  if (!s.bit()) return;
  if (s.bit()) {
    const ref = s.loadRef();
    row.init_state_hash = cells.hashHex(ref);
    row.init_state_boc = serializeBoc(cells, ref, TONCENTER_BOC).toString('base64');
  } else {
    const from = s.pos;
    const refFrom = s.ref;
    skipStateInit(s);
    const init = sliceRange(s, from, s.pos, refFrom, s.ref);
    row.init_state_hash = hashNewCell(cells, init).hash.toString('hex');
    row.init_state_boc = serializeBoc(cells, init, TONCENTER_BOC).toString('base64');
  }
}

/**
 * body:(Either X ^X): an inline body is the rest of the slice, as its own cell (toncenter does the same). Returns
 * the body cell's hash and depth (the normalized hash of an external-in message refers to it).
 */
function readBody(cells: Cells, s: Slice, row: MessageRow): { hash: Uint8Array; depth: number } {
  if (s.bit()) {
    if (s.refsLeft < 1) throw new DecodeError('Message: body ref missing');
    const ref = s.loadRef();
    const o = cells.hashOff(ref);
    row.body_hash = cells.hashHex(ref);
    row.body_boc = serializeBoc(cells, ref, TONCENTER_BOC).toString('base64');
    const b = new Slice(cells, ref);
    if (cells.type[ref] === 0 && b.bitsLeft >= 32) row.opcode = b.int(32);
    return { hash: cells.hashes.subarray(o, o + 32), depth: cells.depth(ref) };
  }
  const body: NewCell = sliceRange(s, s.pos, s.end, s.ref, s.refEnd);
  const h = hashNewCell(cells, body);
  row.body_hash = h.hash.toString('hex');
  row.body_boc = serializeBoc(cells, body, TONCENTER_BOC).toString('base64');
  if (s.bitsLeft >= 32) row.opcode = s.int(32);
  return { hash: h.hash, depth: h.depth };
}

/**
 * API v3 §7.1 (toncenter DataParser `ext_in_msg_get_normalized_hash`): the hash of
 * ext_in_msg_info$10 src:addr_none$00 dest:(same) import_fee:0 init:nothing$0 body:right$1 ^body.
 */
function normalizedHash(cells: Cells, destFrom: number, destTo: number, bodyHash: Uint8Array, bodyDepth: number): string {
  const w = new BitWriter();
  w.writeUint(0b10, 2);
  w.writeUint(0b00, 2);
  w.writeFrom(cells.buf, destFrom, destTo);
  w.writeUint(0, 4); // Grams 0: len = 0
  w.writeBit(0); // init: nothing
  w.writeBit(1); // body: right (ref)
  const cell: NewCell = { data: w.finish(), bits: w.bits, refs: [] };
  return hashNewCell(cells, cell, [{ hash: bodyHash, depth: bodyDepth }]).hash.toString('hex');
}
