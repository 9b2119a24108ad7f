/** sendBoc, sendBocReturnHash, estimateFee. */
import { Address, beginCell, Cell, Dictionary, loadMessage, loadTransaction, storeMessage, type Message } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { hashToBase64, type AccountAddress } from '../../../format/index.ts';
import { estimateFeeParams, sendBocParams, sendQueryParams } from '../../../../schemas/api/v2/params.ts';
import { ApiError, badParam } from '../../errors.ts';
import { withExecutor } from '../../../tvm/index.ts';
import { accountState, configAll, lastMcBlock } from '../chain.ts';
import { defineMethod, LITE_SERVER_STATUS, toV2Error, type V2Context } from '../method.ts';
import { LiteServerError } from '../node.ts';
import { destinationFees, storagePrices, type Fees } from '../fees.ts';
import { explainSendError } from '../send-errors.ts';
import { EmulationBusy, EmulationRejected, type EmulatedRows, type EmulationService } from '../../../emulate/index.ts';

/** The cells of a BoC parameter; bytes that do not parse are a 422 naming it, in our words (the parser's are about its offsets). */
function bocCells(param: string, boc: Buffer): Cell[] {
  try {
    return Cell.fromBoc(boc);
  } catch {
    throw badParam(param, 'not a valid bag of cells (the bytes do not parse as a serialized BoC)');
  }
}

/** The one root cell of a BoC parameter; anything else is a 422 naming the parameter. */
function oneCell(param: string, boc: Buffer): Cell {
  const cells = bocCells(param, boc);
  if (cells.length !== 1) throw badParam(param, `expected one root cell, got ${cells.length}`);
  return cells[0];
}

function parseExternal(boc: Buffer): { cell: Cell; msg: Message } {
  const cells = bocCells('boc', boc);
  if (cells.length !== 1) throw badParam('boc', `expected one root cell, got ${cells.length}`);
  let msg: Message;
  try {
    msg = loadMessage(cells[0].beginParse());
  } catch {
    throw badParam('boc', 'the root cell is not a Message');
  }
  if (msg.info.type !== 'external-in') throw badParam('boc', `expected an external-in message, got ${msg.info.type}`);
  return { cell: cells[0], msg };
}

/**
 * TEP-467 normalized hash of an external-in message: src addr_none, import_fee 0, no init, body as a
 * reference. Wallets re-sign and re-pack, so explorers index by this hash.
 */
export function normalizedHash(msg: Message): Buffer {
  if (msg.info.type !== 'external-in') throw new Error('not an external-in message');
  const c = beginCell()
    .storeUint(0b10, 2)
    .storeUint(0, 2) // src: addr_none
    .storeAddress(msg.info.dest)
    .storeCoins(0)
    .storeBit(0) // init: nothing
    .storeBit(1) // body: right (reference)
    .storeRef(msg.body)
    .endCell();
  return c.hash();
}

/**
 * Sends an external message through the liteservers. Where the network emulates (src/emulate, `services.emulation`),
 * its trace is emulated meanwhile and held as pending once the liteserver took the message; past the emulation queue's
 * bound the message is refused with 429 before anything is sent. An emulation that fails never fails the send (the
 * liteserver decides), but a refusal by the liteserver carries the emulator's reason too.
 */
async function send(ctx: V2Context, boc: Buffer, cell: Cell): Promise<void> {
  const emulation = ctx.network.services.emulation as EmulationService | undefined;
  let emulated: Promise<EmulatedRows> | null = null;
  if (emulation) {
    try {
      emulated = emulation.emulate(cell);
    } catch (err) {
      if (err instanceof EmulationBusy) throw new ApiError(429, err.message);
      throw err;
    }
    emulated.catch(() => undefined);
  }
  try {
    await ctx.node().query({ _: 'liteServer.sendMessage', body: boc });
  } catch (err) {
    if (err instanceof LiteServerError) {
      const f = explainSendError(err.message);
      const why = emulated ? await emulated.then(() => '', (e: unknown) => (e instanceof EmulationRejected ? `; emulation: ${e.message}` : '')) : '';
      throw new ApiError(LITE_SERVER_STATUS, `LITE_SERVER_UNKNOWN: ${err.message}${f.exitCode !== null ? ` (exit code ${f.exitCode}: ${f.hint})` : ` (${f.hint})`}${why}`);
    }
    throw err;
  }
  if (emulation && emulated) {
    // answered once the trace is held, so the caller's next /pendingTraces has it
    await emulated.then(
      (rows) => {
        emulation.track(rows);
      },
      (e: unknown) => ctx.request?.log.info({ err: (e as Error).message }, 'emulation: the sent message was not emulated'),
    );
  }
}

export const sendBoc = defineMethod({
  name: 'sendBoc',
  post_only: true,
  params: sendBocParams,
  async run(ctx, p) {
    const { cell } = parseExternal(p.boc);
    await send(ctx, p.boc, cell);
    return { '@type': 'ok' };
  },
});

export const sendBocReturnHash = defineMethod({
  name: 'sendBocReturnHash',
  post_only: true,
  params: sendBocParams,
  async run(ctx, p) {
    const { cell, msg } = parseExternal(p.boc);
    await send(ctx, p.boc, cell);
    return { '@type': 'raw.extMessageInfo', hash: hashToBase64(cell.hash()), hash_norm: hashToBase64(normalizedHash(msg)) };
  },
});

/**
 * ton-http-api-cpp's sendBocReturnHashNoError: sendBocReturnHash whose failures after the empty-boc check are 400
 * with the reason (its SendBocHandler with ignore_errors), so a broadcaster does not count them as server errors.
 */
export const sendBocReturnHashNoError = defineMethod({
  name: 'sendBocReturnHashNoError',
  post_only: true,
  params: sendBocParams,
  async run(ctx, p) {
    try {
      return await sendBocReturnHash.run(ctx, p);
    } catch (err) {
      const e = toV2Error(err);
      if (e instanceof ApiError) throw new ApiError(400, e.message);
      throw err;
    }
  },
});

/**
 * sendQuery of the reference's Python API (tonlib raw.createQuery + query.send; ton-http-api-cpp has none): the
 * external-in message to `address` carrying `body` and, when given, a StateInit of `init_code` / `init_data`.
 */
export const sendQuery = defineMethod({
  name: 'sendQuery',
  post_only: true,
  params: sendQueryParams,
  async run(ctx, p) {
    const body = oneCell('body', p.body);
    const code = p.init_code ? oneCell('init_code', p.init_code) : null;
    const data = p.init_data ? oneCell('init_data', p.init_data) : null;
    const msg = externalTo(p.address, body, code, data);
    const cell = beginCell().store(storeMessage(msg)).endCell();
    await send(ctx, cell.toBoc(), cell);
    return { '@type': 'ok' };
  },
});

/** The external-in message tonlib's raw.createQuery builds: no source, import fee 0, StateInit when code or data is given. */
function externalTo(address: AccountAddress, body: Cell, code: Cell | null, data: Cell | null): Message {
  return {
    info: { type: 'external-in', dest: Address.parseRaw(`${address.workchain}:${address.hash}`), importFee: 0n },
    init: code || data ? { code: code ?? undefined, data: data ?? undefined } : undefined,
    body,
  };
}

/** A tonlib int53 field: a JSON number; a value beyond 2^53 would be a broken emulation, not a fee. */
function int53(v: bigint): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`fee ${v} does not fit tonlib's int53`);
  return Number(v);
}

/** msg_forward_prices#ea lump_price:uint64 bit_price:uint64 cell_price:uint64 ihr_price_factor:uint32 first_frac:uint16 next_frac:uint16 = MsgForwardPrices; */
function forwardPrices(config: Cell, workchain: number) {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  const c = dict.get(workchain === -1 ? 24 : 25);
  if (!c) return null;
  const s = c.beginParse();
  if (s.loadUint(8) !== 0xea) return null;
  return { lump: s.loadUintBig(64), bit: s.loadUintBig(64), cell: s.loadUintBig(64) };
}

/** Cells and bits of a message tree below its root (the root's own bits are not charged), each unique cell once. */
function treeStats(root: Cell): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let cells = 0n;
  let bits = 0n;
  const walk = (c: Cell) => {
    for (const r of c.refs) {
      const h = r.hash().toString('hex');
      if (seen.has(h)) continue;
      seen.add(h);
      cells++;
      bits += BigInt(r.bits.length);
      walk(r);
    }
  };
  walk(root);
  return { cells, bits };
}

export const estimateFee = defineMethod({
  name: 'estimateFee',
  post_only: true,
  params: estimateFeeParams,
  async run(ctx, p) {
    const node = ctx.node();
    const block = await lastMcBlock(node);
    const [st, config] = await Promise.all([accountState(node, p.address, block), configAll(node, block, ctx.configs)]);
    const body = oneCell('body', p.body);
    const code = p.init_code ? oneCell('init_code', p.init_code) : null;
    const data = p.init_data ? oneCell('init_data', p.init_data) : null;
    const msg = externalTo(p.address, body, code, data);
    const msgCell = beginCell().store(storeMessage(msg)).endCell();
    const shardAccount = beginCell()
      .storeRef(st.accountCell ?? beginCell().storeBit(0).endCell())
      .storeBuffer(st.lastTx.hash, 32)
      .storeUint(st.lastTx.lt, 64)
      .endCell();
    const res = await withExecutor('estimating the fee', (executor: Executor) => executor.runTransaction({
      config: config.toBoc().toString('base64'),
      libs: null,
      verbosity: 'short',
      shardAccount: shardAccount.toBoc().toString('base64'),
      now: Math.max(st.syncUtime, Math.floor(Date.now() / 1000)),
      lt: st.lastTx.lt + 1_000_000n,
      randomSeed: null,
      ignoreChksig: p.ignore_chksig,
      debugEnabled: false,
      message: msgCell,
    }));
    if (!res.result.success) {
      const exit = res.result.vmResults?.vmExitCode;
      const f = explainSendError(exit !== undefined ? `exitcode=${exit}` : res.result.error);
      // The account refusing the caller's message (its contract did not accept it, or it cannot pay the import fee:
      // the emulator's -701 "rejected by account ... before smart-contract execution") is the caller's to fix: 422.
      // Anything else the emulator fails on is ours.
      const refused = exit !== undefined || /inbound external message rejected|not accepted/i.test(res.result.error);
      throw new ApiError(refused ? 422 : LITE_SERVER_STATUS, `the external message would be rejected: ${res.result.error}${exit !== undefined ? ` (exit code ${exit}: ${f.hint})` : ''}`);
    }
    const tx = loadTransaction(Cell.fromBase64(res.result.transaction).beginParse());
    const d = tx.description;
    let storageFee = 0n;
    let gasFee = 0n;
    let fwdFee = 0n;
    if (d.type === 'generic') {
      storageFee = d.storagePhase?.storageFeesCollected ?? 0n;
      if (d.computePhase.type === 'vm') gasFee = d.computePhase.gasFees;
      fwdFee = d.actionPhase?.totalFwdFees ?? 0n;
    }
    const prices = forwardPrices(config, p.address.workchain);
    let inFwdFee = 0n;
    if (prices) {
      const s = treeStats(msgCell);
      inFwdFee = prices.lump + (prices.bit * s.bits + prices.cell * s.cells + 0xffffn) / 0x10000n;
    }
    // tonlib's fees{in_fwd_fee:int53 storage_fee:int53 gas_fee:int53 fwd_fee:int53}: JSON numbers, which clients
    // check (@ton/ton's TonClient refuses strings); a fee never comes near 2^53.
    const fees = (f: Fees) => ({
      '@type': 'fees',
      in_fwd_fee: int53(f.inFwdFee),
      storage_fee: int53(f.storageFee),
      gas_fee: int53(f.gasFee),
      fwd_fee: int53(f.fwdFee),
    });
    // One entry per internal message the transaction sends, in order: what its destination will pay on receipt
    // (tonlib's Query::estimate_fees destinations, read at the same masterchain block).
    const pricing = storagePrices(config);
    const destinations = [...tx.outMessages.keys()]
      .sort((a, b) => a - b)
      .map((k) => tx.outMessages.get(k)!.info)
      .flatMap((info) => (info.type === 'internal' ? [info.dest] : []));
    const destFees = await Promise.all(
      destinations.map(async (dest) => {
        const d = await accountState(node, { workchain: dest.workChain, hash: dest.hash.toString('hex') }, block);
        return destinationFees({ account: d.account, workchain: dest.workChain, syncUtime: d.syncUtime }, pricing, config, p.address.workchain === -1);
      }),
    );
    return {
      '@type': 'query.fees',
      source_fees: fees({ inFwdFee, storageFee, gasFee, fwdFee }),
      destination_fees: destFees.map(fees),
    };
  },
});
