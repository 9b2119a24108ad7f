/**
 * toncenter's ton-marker (ton-index-worker/ton-marker/src/logic.cpp, special.cpp, tolk_array.cpp): body
 * BoC -> the JSON text its TL-B printer writes, or an `unknown: ...` reason.
 *
 * decodeBoc: base64 (input starting "te6") or hex; size limits; an empty cell is {"@type": "empty_cell"};
 * under 32 bits is "unknown: boc is too small, size N"; then the special parsers (Telegram wallet, W5,
 * highload v3 internal, signature-first wallet externals when the opcode names nothing), then for each
 * parser type in order every constructor whose tag equals the opcode. The printer is not reset after a
 * failed W5 / highload-v3 special parse, as upstream (its partial text stays in front).
 * decodeBocRecursive: every `"te6c...` string in the output that decodes is replaced by its decoding,
 * depth <= 10, within the per-body and per-batch budgets.
 */
import { Cell } from '@ton/core';
import { CellSlice } from './cell-slice.ts';
import { JsonPrinter } from './json-printer.ts';
import { PARSER_TYPES, consName, consTag, typeNamed } from './scheme.ts';
import { bocCell, bocHeaderCellCount, tdBase64Decode, tdHexDecode } from './std-boc.ts';
import type { TypeDef } from './tlb/model.ts';
import { TlbPrinter, type Arg } from './tlb/print.ts';

export const MAX_ENCODED_BOC_BYTES = 2 * 1024 * 1024;
export const MAX_BOC_BATCH_REQUESTS = 2000;
export const MAX_OPCODE_BATCH_REQUESTS = 1000;
export const MAX_BATCH_ENCODED_BOC_BYTES = 16 * 1024 * 1024;
const MAX_RECURSIVE_DEPTH = 10;
const MAX_RECURSIVE_DECODES_PER_BODY = 256;
const MAX_RECURSIVE_DECODES_PER_BATCH = 4096;
const MAX_DECODE_INPUT_BYTES_PER_BODY = 16 * 1024 * 1024;
const MAX_DECODE_INPUT_BYTES_PER_BATCH = 64 * 1024 * 1024;
const MAX_DECODED_BOC_BYTES = 1024 * 1024;
const MAX_BOC_CELLS = 4096;
const MAX_EXPANDED_BOC_BITS = 2 * 1024 * 1024;
const MAX_PARSER_RECURSIVE_CALLS = 4096;
const MAX_DECODED_BODY_BYTES = 4 * 1024 * 1024;
const MAX_DECODED_BATCH_BYTES = 16 * 1024 * 1024;
export const BATCH_OUTPUT_LIMIT_ERROR = 'unknown: decoded batch output size limit exceeded';

class DecodeLimitError extends Error {}
/** what the node's VmError would report (loading an exotic cell as an ordinary one) */
class VmError extends Error {}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function checkDecodedBodySize(size: number): void {
  if (size > MAX_DECODED_BODY_BYTES) throw new DecodeLimitError('decoded output size limit exceeded');
}

/** Walks the tree as stored (no deduplication), as check_boc_expansion does. */
function checkBocExpansion(root: Cell): void {
  const stack = [root];
  let cells = 0;
  let bits = 0;
  while (stack.length) {
    const c = stack.pop()!;
    if (++cells > MAX_BOC_CELLS) throw new DecodeLimitError('boc cell expansion limit exceeded');
    if (c.bits.length > MAX_EXPANDED_BOC_BITS - bits) throw new DecodeLimitError('boc bit expansion limit exceeded');
    bits += c.bits.length;
    for (const r of c.refs) stack.push(r);
  }
}

/** BagOfCells::deserialize's header errors (std_boc_deserialize allows one root). */
function bocHeaderError(b: Buffer): string | null {
  if (b.length < 4) return `cannot deserialize bag-of-cells: not enough bytes (${b.length} present, 4 required)`;
  const magic = b.readUInt32BE(0);
  if (magic !== 0xb5ee9c72 && magic !== 0x68ff65f3 && magic !== 0xacc3a728) return 'cannot deserialize bag-of-cells: invalid header, error 0';
  const size = magic === 0xb5ee9c72 ? b[4] & 7 : b[4];
  if (b.length >= 6 + 2 * size) {
    let roots = 0;
    for (let i = 0; i < size; i++) roots = roots * 256 + b[6 + size + i];
    if (roots > 1) return 'Bag-of-cells has more root cells than expected';
  }
  return null;
}

// ---------------------------------------------------------------- opcode names

let names: Map<number, string> | null = null;

/** decode_opcode: the name of the first constructor (parser order, then enum order) with this tag, else "unknown". */
export function decodeOpcode(opcode: number): string {
  if (!names) {
    names = new Map();
    for (const tn of PARSER_TYPES) {
      const t = typeNamed(tn);
      for (const i of t.enumOrder) {
        const tag = consTag(t.constructors[i]);
        if (!names.has(tag)) names.set(tag, consName(t, i));
      }
    }
  }
  return names.get(opcode >>> 0) ?? 'unknown';
}

// ---------------------------------------------------------------- decode_boc

interface State {
  pp: JsonPrinter;
}

function freshPrinter(st: State): void {
  st.pp = new JsonPrinter();
  st.pp.setLimit(MAX_PARSER_RECURSIVE_CALLS);
}

function print(st: State, t: TypeDef, args: Arg[], cs: CellSlice): boolean {
  return new TlbPrinter(st.pp).printSkip({ k: 'user', t, args }, cs);
}

/** decode_boc is a pure function of its input: recent results are reused (bodies and payloads repeat). */
const memo = new Map<string, string>();
const MEMO_MAX = 8192;
const MEMO_KEY_MAX = 4096;

export function decodeBoc(input: string): string {
  if (input.length > MEMO_KEY_MAX) return decodeBocOnce(input);
  const hit = memo.get(input);
  if (hit !== undefined) return hit;
  const r = decodeBocOnce(input);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(input, r);
  return r;
}

function decodeBocOnce(input: string): string {
  try {
    if (bytes(input) > MAX_ENCODED_BOC_BYTES) return 'unknown: encoded boc size limit exceeded';
    let decoded: Buffer;
    if (input.startsWith('te6')) {
      const r = tdBase64Decode(input);
      if (!r.ok) return `unknown: failed to decode base64: ${r.error}`;
      decoded = r.bytes;
    } else {
      const r = tdHexDecode(input);
      if (!r.ok) return `unknown: failed to decode hex: ${r.error}`;
      decoded = r.bytes;
    }
    if (decoded.length > MAX_DECODED_BOC_BYTES) return 'unknown: decoded boc size limit exceeded';
    const count = bocHeaderCellCount(decoded);
    if (count !== null && count > MAX_BOC_CELLS) throw new DecodeLimitError('boc cell count limit exceeded');
    const header = bocHeaderError(decoded);
    if (header) return `unknown: failed to deserialize boc: ${header}`;
    let cell: Cell;
    try {
      const roots = bocCell(input, decoded);
      if (roots.length !== 1) return 'unknown: failed to deserialize boc: bag of cells is expected to have exactly one root';
      cell = roots[0];
    } catch (e) {
      // the node's own messages differ in detail past the header checks
      return `unknown: failed to deserialize boc: cannot deserialize bag-of-cells: ${e instanceof Error ? e.message : String(e)}`;
    }
    checkBocExpansion(cell);
    if (cell.isExotic) return 'unknown: vm error - unexpected special cell';
    const cs = new CellSlice(cell);
    if (cs.size() === 0 && cs.sizeRefs() === 0) return '{"@type": "empty_cell"}';
    if (cs.size() < 32) return `unknown: boc is too small, size ${cs.size()}`;
    const opcode = Number(cs.prefetchUint(32));

    const st: State = { pp: new JsonPrinter() };
    st.pp.setLimit(MAX_PARSER_RECURSIVE_CALLS);
    const special = tryParseSpecial(decodeOpcode(opcode), cs, st);
    if (special !== null) {
      checkDecodedBodySize(bytes(special));
      return special;
    }
    for (const tn of PARSER_TYPES) {
      const t = typeNamed(tn);
      for (const i of t.enumOrder) {
        if (consTag(t.constructors[i]) !== opcode) continue;
        if (print(st, t, [], cs.clone())) {
          const out = st.pp.text();
          checkDecodedBodySize(bytes(out));
          return out;
        }
        freshPrinter(st);
      }
    }
    return 'unknown: no parser succeeded';
  } catch (e) {
    if (e instanceof DecodeLimitError) return `unknown: decode limit - ${e.message}`;
    if (e instanceof VmError) return `unknown: vm error - ${e.message}`;
    return `unknown: std error - ${e instanceof Error ? e.message : String(e)}`;
  }
}

// ---------------------------------------------------------------- special.cpp

/** count_actions_depth: cells in a chain of first refs, minus one, stopping at an exotic cell. */
function countActionsDepth(list: Cell | null): number {
  if (!list) return 0;
  let i = -1;
  let cur: Cell | null = list;
  do {
    ++i;
    if (cur.isExotic) break;
    cur = cur.refs[0] ?? null;
  } while (cur);
  return i;
}

const TG_BULK_INTERNAL = 0x73896e74;
const TG_BULK_EXTERNAL = 0x73896e75;

/** A Tolk array: uint8 length, Maybe ^first_chunk; each chunk: Maybe ^next, then items of `refsPerItem` refs each. */
function printTolkArray(p: TlbPrinter, item: TypeDef, refsPerItem: number, cs: CellSlice): boolean {
  const pp = p.pp;
  if (!refsPerItem || !cs.have(9)) return false;
  const declared = Number(cs.fetchUlong(8));
  if (!declared || !Number(cs.fetchUlong(1)) || !cs.sizeRefs()) return false;
  let chunk: Cell | null = cs.fetchRef();
  pp.writeRaw('[');
  let count = 0;
  while (chunk) {
    if (chunk.isExotic) throw new VmError('unexpected special cell');
    const slice = new CellSlice(chunk);
    if (!slice.have(1)) return false;
    const hasNext = Number(slice.fetchUlong(1)) !== 0;
    let next: Cell | null = null;
    if (hasNext) {
      if (!slice.sizeRefs()) return false;
      next = slice.fetchRef();
    }
    const refs = slice.sizeRefs();
    if (!refs || refs % refsPerItem || refs / refsPerItem > declared - count) return false;
    for (let i = 0; i < refs / refsPerItem; i++) {
      const before = slice.sizeRefs();
      if (count && !pp.writeRaw(',')) return false;
      if (!p.printSkip({ k: 'user', t: item, args: [] }, slice) || before - slice.sizeRefs() !== refsPerItem) return false;
      ++count;
    }
    if (!slice.emptyExt()) return false;
    chunk = next;
  }
  if (count !== declared) return false;
  return pp.writeRaw(']');
}

function tryTgWalletBulk(opcode: number, input: CellSlice): string | null {
  if (opcode !== TG_BULK_INTERNAL && opcode !== TG_BULK_EXTERNAL) return null;
  const cs = input.clone();
  const pp = new JsonPrinter();
  pp.setLimit(MAX_PARSER_RECURSIVE_CALLS);
  if (!pp.open('tg_wallet_signed') || !pp.fetchBitsField(cs, 512, 'signature') || Number(cs.fetchUlong(32)) !== opcode || !pp.field('request')
    || !pp.open(opcode === TG_BULK_INTERNAL ? 'tg_wallet_send_bulk_internal' : 'tg_wallet_send_bulk_external')
    || !pp.fetchIntField(cs, 32, false, 'subwallet_id') || !pp.fetchIntField(cs, 32, false, 'valid_until') || !pp.fetchIntField(cs, 32, false, 'seqno')) {
    return null;
  }
  const array = cs.clone();
  if (!array.have(8) || !pp.fetchIntField(cs, 8, false, 'messages_count') || !pp.field('messages')
    || !printTolkArray(new TlbPrinter(pp), typeNamed('TgWalletMessageToSend'), 1, array) || !array.emptyExt() || !pp.close() || !pp.close()) {
    return null;
  }
  return pp.text();
}

const W5_NAMES = new Set(['w5_external_signed_request', 'w5_internal_signed_request', 'w5_extension_action_request']);

/** try_parse_special: the JSON text when a special parser succeeded, else null (st.pp may hold a failed W5 attempt). */
function tryParseSpecial(opcodeName: string, cs: CellSlice, st: State): string | null {
  if (cs.have(512 + 32)) {
    const opcode = Number(cs.prefetchUint(32, 512));
    const tgRequest = typeNamed('TgWalletRequest');
    for (const i of tgRequest.enumOrder) {
      if (consTag(tgRequest.constructors[i]) !== opcode) continue;
      const bulk = tryTgWalletBulk(opcode, cs);
      if (bulk !== null) return bulk;
      const copy = cs.clone();
      if (print(st, typeNamed('TgWalletMsgBody'), [], copy) && copy.emptyExt()) return st.pp.text();
      freshPrinter(st);
      break;
    }
  }
  if (W5_NAMES.has(opcodeName)) {
    // W5MsgBody m n: m = out actions (depth of the first ref), n = extended actions - 1 (the list starts inline)
    const c = cs.clone();
    c.advance(32);
    if (opcodeName === 'w5_extension_action_request') c.advance(64);
    else {
      c.advance(32);
      c.advance(32);
      c.advance(32);
    }
    const hasOut = c.fetchUlong(1) !== 0n;
    const hasExt = c.fetchUlong(1) !== 0n;
    let outCount = 0;
    let extCount = 0;
    if (hasOut && c.sizeRefs() > 0) outCount = countActionsDepth(c.fetchRef());
    if (hasExt) {
      extCount = 1;
      let cur = c;
      while (cur.sizeRefs() > 0) {
        extCount++;
        const next = cur.fetchRef()!;
        if (next.isExotic) throw new VmError('unexpected special cell');
        cur = new CellSlice(next);
      }
    }
    return print(st, typeNamed('W5MsgBody'), [outCount, (extCount - 1) >>> 0], cs.clone()) ? st.pp.text() : null;
  }
  if (opcodeName === 'highload_v3_internal_request') {
    const n = countActionsDepth(cs.prefetchRef(0));
    return print(st, typeNamed('HighloadV3InternalRequest'), [n], cs.clone()) ? st.pp.text() : null;
  }
  if (opcodeName.includes('unknown')) {
    const tryWallet = (type: string, args: Arg[]): string | null => {
      const copy = cs.clone();
      if (print(st, typeNamed(type), args, copy) && copy.emptyExt()) return st.pp.text();
      freshPrinter(st);
      return null;
    };
    let r: string | null = null;
    const msg = cs.prefetchRef(0);
    if (msg) {
      if (msg.isExotic) throw new VmError('unexpected special cell');
      if (msg.refs.length >= 1) {
        const n = countActionsDepth(msg.refs[0]);
        if (n > 0) r = tryWallet('PreprocessedWalletV2MsgBody', [n]);
      }
    }
    const refs = cs.sizeRefs();
    r ??= tryWallet('HighloadV3MsgBody', []);
    r ??= tryWallet('HighloadV2MsgBody', []);
    r ??= tryWallet('HighloadV1MsgBody', []);
    r ??= tryWallet('W4MsgBody', [refs]);
    r ??= tryWallet('W3MsgBody', [refs]);
    r ??= tryWallet('W1W2MsgBody', [refs]);
    return r;
  }
  return null;
}

// ---------------------------------------------------------------- recursion and batches

interface Budget {
  bodyDecodes: number;
  bodyInput: number;
  batch: { decodes: number; input: number };
}

function consume(b: Budget, inputBytes: number): void {
  if (b.bodyDecodes >= MAX_RECURSIVE_DECODES_PER_BODY || b.batch.decodes >= MAX_RECURSIVE_DECODES_PER_BATCH) {
    throw new DecodeLimitError('recursive decode operation limit exceeded');
  }
  if (inputBytes > MAX_DECODE_INPUT_BYTES_PER_BODY - b.bodyInput || inputBytes > MAX_DECODE_INPUT_BYTES_PER_BATCH - b.batch.input) {
    throw new DecodeLimitError('recursive decode input size limit exceeded');
  }
  b.bodyDecodes++;
  b.batch.decodes++;
  b.bodyInput += inputBytes;
  b.batch.input += inputBytes;
}

function replaceBocCells(json: string, budget: Budget, depth = 0): string {
  checkDecodedBodySize(bytes(json));
  if (depth > MAX_RECURSIVE_DEPTH) return json;
  const matches: [number, number][] = [];
  let pos = 0;
  for (;;) {
    const at = json.indexOf('"te6c', pos);
    if (at < 0) break;
    const end = json.indexOf('"', at + 1);
    if (end < 0) break;
    matches.push([at, end]);
    pos = end + 1;
  }
  let result = json;
  for (let k = matches.length - 1; k >= 0; k--) {
    const [at, end] = matches[k];
    const boc = result.slice(at + 1, end);
    consume(budget, bytes(boc));
    const decoded = decodeBoc(boc);
    checkDecodedBodySize(bytes(decoded));
    if (decoded && !decoded.startsWith('unknown')) {
      const inner = replaceBocCells(decoded, budget, depth + 1);
      const grow = bytes(inner) - (end + 1 - at);
      if (grow > 0 && grow > MAX_DECODED_BODY_BYTES - bytes(result)) throw new DecodeLimitError('decoded output size limit exceeded');
      result = result.slice(0, at) + inner + result.slice(end + 1);
    }
  }
  return result;
}

export interface BatchCounters {
  decodes: number;
  input: number;
}

export function newBatch(): BatchCounters {
  return { decodes: 0, input: 0 };
}

/** decode_boc_recursive with a batch's shared budget. */
export function decodeBocRecursive(input: string, batch: BatchCounters = newBatch()): string {
  try {
    const budget: Budget = { bodyDecodes: 0, bodyInput: 0, batch };
    consume(budget, bytes(input));
    const initial = decodeBoc(input);
    if (!initial || initial.startsWith('unknown')) return initial;
    checkDecodedBodySize(bytes(initial));
    return replaceBocCells(initial, budget);
  } catch (e) {
    return `unknown: recursive decode error - ${e instanceof Error ? e.message : String(e)}`;
  }
}

export class MarkerBatchError extends Error {}

/** process_batch for bodies: per-request limits, a shared recursion budget and the batch output cap. */
export function processBocBatch(inputs: string[]): string[] {
  if (inputs.length > MAX_BOC_BATCH_REQUESTS) throw new MarkerBatchError('batch request count limit exceeded');
  let encoded = 0;
  for (const s of inputs) {
    const n = bytes(s);
    if (n > MAX_ENCODED_BOC_BYTES || n > MAX_BATCH_ENCODED_BOC_BYTES - encoded) throw new MarkerBatchError('batch encoded boc size limit exceeded');
    encoded += n;
  }
  const batch = newBatch();
  const out: string[] = [];
  let outBytes = 0;
  let capped = false;
  inputs.forEach((s, i) => {
    let r: string;
    if (capped) r = BATCH_OUTPUT_LIMIT_ERROR;
    else {
      r = decodeBocRecursive(s, batch);
      const reserved = (inputs.length - i - 1) * BATCH_OUTPUT_LIMIT_ERROR.length;
      if (bytes(r) > MAX_DECODED_BATCH_BYTES - outBytes - reserved) {
        r = BATCH_OUTPUT_LIMIT_ERROR;
        capped = true;
      }
    }
    outBytes += bytes(r);
    out.push(r);
  });
  return out;
}
