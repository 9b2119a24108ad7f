/**
 * Addresses a trace names: its transactions' accounts, its messages' ends, and the standard addresses inside its
 * message bodies (a swap's target wallet, the intended messages of a failed wallet external): toncenter gathers
 * those with per-protocol extractors (`extract_additional_addresses`); here every `addr_std` a body carries is
 * taken, which covers them all (an address that is not an account only costs a lookup that finds nothing). Pure
 * (a bounded cache of scanned bodies).
 */
import type { TraceTransaction } from '../actions/index.ts';
import { CELL_ORDINARY, parseBoc, Slice, type Cells, type TransactionRow } from '../ton/index.ts';
import { BoundedMap } from '../util/index.ts';
import type { ContextMessage } from './context-dedust.ts';

/** A body is walked at most this many cells deep into its tree (forward payloads can be large). */
const MAX_BODY_CELLS = 64;
// addr_std$10 anycast:nothing$0 workchain_id:int8 (0 or -1) address:bits256 (block.tlb MsgAddressInt): the 11
// leading bits of a basechain and of a masterchain address
const PREFIX_WC0 = 0b100_0000_0000;
const PREFIX_WCM1 = 0b100_1111_1111;

/** A one-root BoC's structure (no hashes: nothing here reads one), or null when it does not parse. */
function bodyCells(boc: string): Cells | null {
  try {
    const cells = parseBoc(Buffer.from(boc, 'base64'), { hash: false });
    return cells.roots.length === 1 ? cells : null;
  } catch {
    return null;
  }
}

/**
 * Every bit offset of every ordinary cell is a candidate (an address may sit anywhere in a body), so the scan
 * slides an 11-bit window over the bytes: this runs over every body of a batch.
 */
function scanBody(boc: string): string[] {
  const cells = bodyCells(boc);
  if (!cells) return [];
  const out = new Set<string>();
  // breadth first from the root, each cell once, ordinary cells only
  const queue = [cells.roots[0]];
  const seen = new Set<number>();
  const { buf } = cells;
  for (let q = 0; q < queue.length && seen.size < MAX_BODY_CELLS; q++) {
    const c = queue[q];
    if (seen.has(c) || cells.type[c] !== CELL_ORDINARY) continue;
    seen.add(c);
    for (let r = 0; r < cells.refCount[c]; r++) queue.push(cells.refs[c * 4 + r]);
    const n = cells.bits[c];
    if (n < 267) continue;
    const off = cells.dataOff[c];
    // the 256 bits from bit `at` of the cell (a hit is rare: a slice per hit)
    const addressAt = (at: number) => {
      const s = new Slice(cells, c);
      s.skip(at);
      return s.hex(256, true);
    };
    // after bit i the window holds bits i-10..i; the address follows at i+1 and must end within the cell
    let win = 0;
    let masterchain: string[] | null = null;
    for (let i = 0; i < n - 256; i++) {
      win = ((win << 1) | ((buf[off + (i >> 3)] >> (7 - (i & 7))) & 1)) & 0x7ff;
      if (i < 10) continue;
      if (win === PREFIX_WC0) out.add(`0:${addressAt(i + 1)}`);
      else if (win === PREFIX_WCM1) (masterchain ??= []).push(`-1:${addressAt(i + 1)}`);
    }
    // a cell's basechain addresses come before its masterchain ones (the order the callers have always seen)
    if (masterchain) for (const a of masterchain) out.add(a);
  }
  return [...out];
}

// the stage scans a group's bodies for its prefetch, again per batch and per completed trace: the cache holds a
// group's worth (a full clear when it filled made the group scans all misses). A memo of a pure function of the BoC
// (CONTRIBUTING: a module-level memo over immutable input): whoever shares it gets the same answer, so it stays here.
const scanned = new BoundedMap<string, string[]>(65_536);

/** Every standard basechain / masterchain address written anywhere in a body's cells (raw upper-case). */
export function bodyAddresses(boc: string | null | undefined, out: Set<string> = new Set()): Set<string> {
  if (!boc) return out;
  let found = scanned.get(boc);
  if (!found) {
    found = scanBody(boc);
    scanned.set(boc, found);
  }
  for (const a of found) out.add(a);
  return out;
}

interface MessageLike {
  source: string | null;
  destination: string | null;
  body: string | null;
}

function addMessage(out: Set<string>, m: MessageLike | null): void {
  if (!m) return;
  if (m.source) out.add(m.source);
  if (m.destination) out.add(m.destination);
  bodyAddresses(m.body, out);
}

/** Addresses a trace names: accounts, message ends, addresses inside message bodies. */
export function traceAddresses(txs: readonly TraceTransaction[]): Set<string> {
  const out = new Set<string>();
  for (const tx of txs) {
    out.add(tx.account);
    addMessage(out, tx.inMsg);
    for (const m of tx.outMsgs) addMessage(out, m);
  }
  return out;
}

/** Same as traceAddresses, over the decoder's rows (what the stage has before it assembles traces). */
export function rowAddresses(txs: readonly TransactionRow[]): Set<string> {
  const out = new Set<string>();
  const msg = (m: TransactionRow['in_msg']) => m && addMessage(out, { source: m.source, destination: m.destination, body: m.body_boc });
  for (const tx of txs) {
    out.add(tx.account);
    msg(tx.in_msg);
    for (const m of tx.out_msgs) msg(m);
  }
  return out;
}

/** Every message of a trace's transactions, as the context reads them. */
export function traceMessages(txs: readonly TraceTransaction[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const tx of txs) for (const m of [tx.inMsg, ...tx.outMsgs]) if (m) out.push(m);
  return out;
}

/** Same as traceMessages, over the decoder's rows. */
export function rowMessages(txs: readonly TransactionRow[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const tx of txs) {
    for (const m of [tx.in_msg, ...tx.out_msgs]) if (m) out.push({ source: m.source, destination: m.destination, opcode: m.opcode, body: m.body_boc, initState: m.init_state_boc });
  }
  return out;
}
