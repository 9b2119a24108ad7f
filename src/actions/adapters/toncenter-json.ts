/**
 * Adapter from toncenter's trace layout (ton-indexer test traces decoded to JSON: `trace`,
 * `transactions[]` with `messages[]` and `message_content`, `interfaces`) to our trace model.
 */
import { parseHash } from '../../format/index.ts';
import type { AccountInterfaces, Trace, TraceMessage, TraceTransaction } from '../model.ts';

export class TraceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceFormatError';
  }
}

/** JSON.parse that keeps every integer literal exact: integers come back as decimal strings. */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < n && /[0-9.eE+-]/.test(text[j])) j++;
      const lit = text.slice(i, j);
      out += /^-?\d+$/.test(lit) ? `"${lit}"` : lit;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

type J = Record<string, unknown>;

function big(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  throw new TraceFormatError(`expected an integer, got ${JSON.stringify(v)}`);
}
function num(v: unknown): number | null {
  const b = big(v);
  return b === null ? null : Number(b);
}
function bool(v: unknown): boolean | null {
  return v === null || v === undefined ? null : Boolean(v);
}
function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}
function hash(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new TraceFormatError(`missing ${what}`);
  return parseHash(v, what);
}
function addr(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  return String(v).toUpperCase();
}

function message(m: J): TraceMessage {
  const content = (m.message_content ?? null) as J | null;
  const init = (m.init_state ?? null) as J | null;
  const op = num(m.opcode);
  return {
    hash: hash(m.msg_hash, 'msg_hash'),
    source: addr(m.source),
    destination: addr(m.destination),
    value: big(m.value),
    valueExtraCurrencies: (m.value_extra_currencies as Record<string, string> | null) ?? null,
    fwdFee: big(m.fwd_fee),
    ihrFee: big(m.ihr_fee),
    opcode: op === null ? null : op >>> 0,
    body: content ? str(content.body) : null,
    bounce: bool(m.bounce),
    bounced: bool(m.bounced),
    createdLt: big(m.created_lt),
    createdAt: num(m.created_at),
    initState: init ? str(init.body) : null,
  };
}

function transaction(t: J): TraceTransaction {
  const msgs = Array.isArray(t.messages) ? (t.messages as J[]) : [];
  const inMsg = msgs.find((m) => m.direction === 'in');
  const lt = big(t.lt);
  if (lt === null) throw new TraceFormatError('transaction without lt');
  const exit = num(t.compute_exit_code);
  return {
    hash: hash(t.hash, 'transaction hash'),
    account: addr(t.account) ?? '',
    lt,
    now: num(t.now) ?? 0,
    mcSeqno: num(t.mc_block_seqno),
    descr: str(t.descr) ?? 'ord',
    isTock: bool(t.is_tock),
    origStatus: str(t.orig_status) ?? 'nonexist',
    endStatus: str(t.end_status) ?? 'nonexist',
    aborted: Boolean(t.aborted),
    destroyed: Boolean(t.destroyed),
    computeSkipped: t.compute_skipped === undefined ? null : bool(t.compute_skipped),
    computeSkippedReason: str(t.skipped_reason ?? t.compute_skip_reason ?? null),
    computeSuccess: t.compute_success === undefined ? (exit === null ? null : exit === 0 || exit === 1) : bool(t.compute_success),
    computeExitCode: exit,
    actionResultCode: num(t.action_result_code),
    totalFees: big(t.total_fees),
    emulated: Boolean(t.emulated),
    inMsg: inMsg ? message(inMsg) : null,
    outMsgs: msgs.filter((m) => m.direction === 'out').map(message),
  };
}

function interfacesOf(raw: J): AccountInterfaces {
  const res: AccountInterfaces = { raw };
  const jw = raw.JettonWallet as J | undefined;
  if (jw) res.jettonWallet = { owner: addr(jw.owner) ?? '', jetton: addr(jw.jetton) ?? '', balance: big(jw.balance) ?? undefined };
  const nft = raw.NftItem as J | undefined;
  if (nft) {
    res.nftItem = {
      index: big(nft.index),
      collection: addr(nft.collection_address),
      owner: addr(nft.owner_address),
      init: bool(nft.init) ?? undefined,
    };
  }
  if (raw.NftSale) res.nftSale = raw.NftSale as J;
  const pool = raw.DedustPool as J | undefined;
  if (pool && Array.isArray(pool.assets)) {
    res.dedustPool = {
      assets: (pool.assets as J[]).map((a) => ({ isTon: Boolean(a.is_ton), address: addr(a.address) })),
    };
  }
  const db = raw.data_boc as J | undefined;
  if (db && typeof db.data_boc === 'string') res.dataBoc = db.data_boc;
  return res;
}

/** Converts one decoded toncenter trace document to our model. Throws TraceFormatError on bad input. */
export function traceFromToncenterJson(doc: unknown): Trace {
  if (!doc || typeof doc !== 'object') throw new TraceFormatError('trace document is not an object');
  const d = doc as J;
  const t = d.trace as J | undefined;
  if (!t) throw new TraceFormatError('trace document has no "trace" object');
  if (!Array.isArray(d.transactions)) throw new TraceFormatError('trace document has no "transactions" array');
  const transactions = (d.transactions as J[]).map(transaction);
  // message bodies may also live in the top-level message_contents list
  const contents = new Map<string, string>();
  for (const c of (Array.isArray(d.message_contents) ? d.message_contents : []) as J[]) {
    if (typeof c.hash === 'string' && typeof c.body === 'string') contents.set(c.hash, c.body);
  }
  if (contents.size > 0) {
    for (const [ti, raw] of (d.transactions as J[]).entries()) {
      const msgs = (raw.messages ?? []) as J[];
      const tx = transactions[ti];
      let oi = 0;
      for (const m of msgs) {
        const target = m.direction === 'in' ? tx.inMsg : tx.outMsgs[oi++];
        if (target && target.body === null && typeof m.body_hash === 'string') target.body = contents.get(m.body_hash) ?? null;
        // a StateInit lives in the same list, under init_state_hash (the code of a contract the message deploys)
        if (target && !target.initState && typeof m.init_state_hash === 'string') target.initState = contents.get(m.init_state_hash) ?? null;
      }
    }
  }
  const interfaces: Record<string, AccountInterfaces> = {};
  for (const [a, v] of Object.entries((d.interfaces ?? {}) as Record<string, J>)) interfaces[a.toUpperCase()] = interfacesOf(v ?? {});
  return {
    traceId: hash(t.trace_id, 'trace_id'),
    externalHash: t.external_hash ? hash(t.external_hash, 'external_hash') : null,
    externalHashNorm: t.external_hash_norm ? hash(t.external_hash_norm, 'external_hash_norm') : null,
    mcSeqnoStart: num(t.mc_seqno_start),
    mcSeqnoEnd: num(t.mc_seqno_end),
    startLt: big(t.start_lt) ?? 0n,
    endLt: big(t.end_lt) ?? 0n,
    startUtime: num(t.start_utime) ?? 0,
    endUtime: num(t.end_utime) ?? 0,
    transactions,
    interfaces,
  };
}
