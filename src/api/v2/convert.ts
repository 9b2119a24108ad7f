/**
 * JSON shapes of API v2 (tonlib types as toncenter renders them): block ids, transactions, messages.
 * 64-bit values are decimal strings, hashes standard base64, addresses friendly url-safe bounceable
 * (testnet flag on test networks) inside objects and raw `wc:HEX` where the reference uses raw.
 */
import { beginCell, Cell, Dictionary, loadMessage, loadTransaction, storeStateInit, type Message, type Transaction, type Address as CoreAddress } from '@ton/core';
import { formatFriendly, formatRaw, hashToBase64, type AccountAddress } from '../../format/index.ts';
import type { TlObject } from '../../tl/index.ts';
import { nodeBoc } from '../../ton/index.ts';

/** A cell as tonlib renders `bytes` (`to_bytes`: the node's std_boc_serialize with CRC32-C), base64. */
export const tonlibBoc = (c: Cell): string => nodeBoc(c, { crc: true }).toString('base64');

export interface RenderCtx {
  testnet: boolean;
}

export interface BlockIdJson {
  '@type': 'ton.blockIdExt';
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** tonNode.blockIdExt (TL object) -> ton.blockIdExt JSON. */
export function blockIdJson(id: TlObject): BlockIdJson {
  return {
    '@type': 'ton.blockIdExt',
    workchain: Number(id.workchain),
    shard: BigInt.asIntN(64, BigInt(id.shard as bigint)).toString(),
    seqno: Number(id.seqno),
    root_hash: hashToBase64(id.root_hash as Buffer),
    file_hash: hashToBase64(id.file_hash as Buffer),
  };
}

export function friendly(addr: AccountAddress, ctx: RenderCtx): string {
  return formatFriendly(addr, { bounceable: true, testOnly: ctx.testnet, urlSafe: true });
}

export function accountAddressJson(addr: AccountAddress | null, ctx: RenderCtx): { '@type': 'accountAddress'; account_address: string } {
  return { '@type': 'accountAddress', account_address: addr ? friendly(addr, ctx) : '' };
}

export function coreToAccount(a: CoreAddress): AccountAddress {
  return { workchain: a.workChain, hash: a.hash.toString('hex') };
}

export function txIdJson(lt: bigint, hash: Buffer | string): { '@type': 'internal.transactionId'; lt: string; hash: string } {
  return { '@type': 'internal.transactionId', lt: lt.toString(), hash: hashToBase64(typeof hash === 'string' ? hash : hash) };
}

const TEXT_OP = 0;
const ENCRYPTED_OP = 0x2167da4b;

function snakeBytes(cell: Cell, skipBits: number): Buffer | null {
  // Text comments are snake-encoded: data bits then the continuation in ref 0.
  const parts: Buffer[] = [];
  let s = cell.beginParse();
  s.skip(skipBits);
  for (let guard = 0; guard < 1024; guard++) {
    if (s.remainingBits % 8 !== 0) return null;
    parts.push(s.loadBuffer(s.remainingBits / 8));
    if (s.remainingRefs === 0) break;
    s = s.loadRef().beginParse();
  }
  return Buffer.concat(parts);
}

/** msg_data of tonlib: dataText for op 0 comments, dataEncryptedText for op 0x2167da4b, else dataRaw. */
function msgData(body: Cell, init: Cell | null): { json: Record<string, unknown>; text: string | null } {
  const s = body.beginParse();
  if (s.remainingBits >= 32 && init === null) {
    const op = s.preloadUint(32);
    if (op === TEXT_OP) {
      const bytes = snakeBytes(body, 32);
      if (bytes) {
        const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
        return { json: { '@type': 'msg.dataText', text: bytes.toString('base64') }, text };
      }
    }
    if (op === ENCRYPTED_OP) {
      const bytes = snakeBytes(body, 32);
      if (bytes) return { json: { '@type': 'msg.dataEncryptedText', text: bytes.toString('base64') }, text: null };
    }
  }
  return {
    json: { '@type': 'msg.dataRaw', body: tonlibBoc(body), init_state: init ? tonlibBoc(init) : '' },
    text: null,
  };
}

/** The legacy `message` field: base64 of the root cell's data bits with a trailing "\n" (reference quirk). */
function legacyMessageField(body: Cell): string {
  const bits = body.bits;
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return bytes.toString('base64') + '\n';
}

export type MessageStyle = 'raw' | 'legacy';

export function messageJson(cell: Cell, msg: Message, ctx: RenderCtx, style: MessageStyle): Record<string, unknown> {
  const info = msg.info;
  let source: AccountAddress | null = null;
  let destination: AccountAddress | null = null;
  let value = 0n;
  let fwdFee = 0n;
  let ihrFee = 0n;
  let createdLt = 0n;
  let extra: { '@type': 'extraCurrency'; id: number; amount: string }[] = [];
  if (info.type === 'internal') {
    source = coreToAccount(info.src);
    destination = coreToAccount(info.dest);
    value = info.value.coins;
    fwdFee = info.forwardFee;
    ihrFee = info.ihrFee;
    createdLt = info.createdLt;
    const other = info.value.other;
    if (other) extra = [...other].map(([id, amount]) => ({ '@type': 'extraCurrency', id: Number(id), amount: amount.toString() }));
  } else if (info.type === 'external-in') {
    destination = coreToAccount(info.dest);
  } else {
    source = coreToAccount(info.src);
    createdLt = info.createdLt;
  }
  const init = msg.init ? initCell(msg) : null;
  const data = msgData(msg.body, init);
  const base = {
    hash: hashToBase64(cell.hash()),
    source: style === 'legacy' ? (source ? friendly(source, ctx) : '') : accountAddressJson(source, ctx),
    destination: style === 'legacy' ? (destination ? friendly(destination, ctx) : '') : accountAddressJson(destination, ctx),
    value: value.toString(),
    extra_currencies: extra,
    fwd_fee: fwdFee.toString(),
    ihr_fee: ihrFee.toString(),
    created_lt: createdLt.toString(),
    body_hash: hashToBase64(msg.body.hash()),
    msg_data: data.json,
  };
  if (style === 'raw') return { '@type': 'raw.message', ...base };
  return { '@type': 'ext.message', ...base, message: data.text ?? legacyMessageField(msg.body) };
}

function initCell(msg: Message): Cell | null {
  // tonlib returns the StateInit the message carried as a BoC.
  return msg.init ? beginCell().store(storeStateInit(msg.init)).endCell() : null;
}

export interface ParsedTx {
  cell: Cell;
  tx: Transaction;
  account: AccountAddress;
}

export function parseTxCell(cell: Cell, workchain: number): ParsedTx {
  const tx = loadTransaction(cell.beginParse());
  return { cell, tx, account: { workchain, hash: tx.address.toString(16).padStart(64, '0') } };
}

function storageFee(tx: Transaction): bigint {
  const d = tx.description;
  if ((d.type === 'generic' || d.type === 'tick-tock' || d.type === 'split-prepare' || d.type === 'merge-install') && d.storagePhase) {
    return d.storagePhase.storageFeesCollected;
  }
  if (d.type === 'storage') return d.storagePhase.storageFeesCollected;
  return 0n;
}

export type TxStyle = 'legacy' | 'raw' | 'ext';

/**
 * legacy: getTransactions / tryLocate* (`ext.transaction`, plain-string addresses, `message` field);
 * raw: getTransactionsStd (`raw.transaction`); ext: getBlockTransactionsExt items (`raw.transactionExt`).
 */
export function transactionJson(p: ParsedTx, ctx: RenderCtx, style: TxStyle): Record<string, unknown> {
  const { tx, cell, account } = p;
  const fee = tx.totalFees.coins;
  const sFee = storageFee(tx);
  const msgStyle: MessageStyle = style === 'legacy' ? 'legacy' : 'raw';
  // in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)): read the original cells.
  const ms = cell.refs[0].beginParse();
  const inMsgCell = ms.loadMaybeRef();
  const outDict = ms.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outs = [...outDict].sort((x, y) => x[0] - y[0]).map(([, c]) => c);
  const typeName = style === 'legacy' ? 'ext.transaction' : style === 'ext' ? 'raw.transactionExt' : 'raw.transaction';
  const out: Record<string, unknown> = {
    '@type': typeName,
    address: accountAddressJson(account, ctx),
    ...(style !== 'raw' ? { account: formatRaw(account) } : {}),
    utime: tx.now,
    data: tonlibBoc(cell),
    transaction_id: txIdJson(tx.lt, cell.hash()),
    fee: fee.toString(),
    storage_fee: sFee.toString(),
    other_fee: (fee - sFee).toString(),
    in_msg: inMsgCell ? messageJson(inMsgCell, loadMessage(inMsgCell.beginParse()), ctx, msgStyle) : null,
    out_msgs: outs.map((c) => messageJson(c, loadMessage(c.beginParse()), ctx, msgStyle)),
  };
  if (style === 'legacy' && out.in_msg === null) delete out.in_msg;
  return out;
}

