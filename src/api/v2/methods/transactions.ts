/** Account history, block transaction lists, and locating the transaction of a message. */
import { Cell, loadTransaction } from '@ton/core';
import type { z } from 'zod';
import { formatRaw, hashToBase64, sameAddress, type AccountAddress } from '../../../format/index.ts';
import { blockTransactionsParams, locateParams, transactionsParams } from '../../../../schemas/api/v2/params.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { TlObject } from '../../../tl/index.ts';
import { accountState, accountTransactions, lastMcBlock, resolveBlock } from '../chain.ts';
import { blockIdJson, coreToAccount, parseTxCell, transactionJson, txIdJson, type ParsedTx } from '../convert.ts';
import { defineMethod, type V2Context } from '../method.ts';
import { LiteServerError } from '../node.ts';

/** An account's transactions, newest first, from (lt, hash) or its last one, down to to_lt (exclusive). */
export async function accountHistory(
  ctx: V2Context,
  address: AccountAddress,
  opts: { limit: number; lt?: bigint; hash?: string; toLt?: bigint; archival?: boolean },
): Promise<{ txs: ParsedTx[]; next: { lt: bigint; hash: Buffer } | null }> {
  const node = ctx.node();
  let cursor: { lt: bigint; hash: Buffer };
  if (opts.lt !== undefined && opts.lt !== 0n && opts.hash) {
    cursor = { lt: opts.lt, hash: Buffer.from(opts.hash, 'hex') };
  } else {
    const st = await accountState(node, address, await lastMcBlock(node));
    cursor = st.lastTx;
  }
  const toLt = opts.toLt ?? 0n;
  const txs: ParsedTx[] = [];
  while (txs.length < opts.limit && cursor.lt > 0n && cursor.lt > toLt) {
    const { cells } = await accountTransactions(node, address, cursor.lt, cursor.hash, Math.min(16, opts.limit - txs.length), opts.archival ?? false);
    if (cells.length === 0) break;
    let stop = false;
    for (const cell of cells) {
      const p = parseTxCell(cell, address.workchain);
      if (p.tx.lt !== cursor.lt || !cell.hash().equals(cursor.hash)) {
        throw new LiteServerError(`liteserver answered transaction ${p.tx.lt} instead of ${cursor.lt}:${cursor.hash.toString('hex')}`);
      }
      if (p.tx.lt <= toLt) {
        stop = true;
        break;
      }
      txs.push(p);
      cursor = { lt: p.tx.prevTransactionLt, hash: Buffer.from(p.tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex') };
      if (txs.length >= opts.limit || cursor.lt === 0n) break;
    }
    if (stop) break;
  }
  return { txs, next: cursor.lt > 0n ? cursor : null };
}

export const getTransactions = defineMethod({
  name: 'getTransactions',
  params: transactionsParams,
  async run(ctx, p) {
    const { txs } = await accountHistory(ctx, p.address, { limit: p.limit, lt: p.lt, hash: p.hash, toLt: p.to_lt, archival: p.archival });
    return txs.map((t) => transactionJson(t, ctx.render, 'legacy'));
  },
});

export const getTransactionsStd = defineMethod({
  name: 'getTransactionsStd',
  params: transactionsParams,
  async run(ctx, p) {
    const { txs, next } = await accountHistory(ctx, p.address, { limit: p.limit, lt: p.lt, hash: p.hash, toLt: p.to_lt, archival: p.archival });
    return {
      '@type': 'raw.transactions',
      transactions: txs.map((t) => transactionJson(t, ctx.render, 'raw')),
      previous_transaction_id: next ? txIdJson(next.lt, next.hash) : txIdJson(0n, Buffer.alloc(32)),
    };
  },
});

async function blockTransactions(ctx: V2Context, p: z.output<typeof blockTransactionsParams>, ext: boolean) {
  const node = ctx.node();
  const id = await resolveBlock(node, p);
  const want = p.count;
  let after: { account: Buffer; lt: bigint } | null = p.after_lt !== undefined ? { account: Buffer.from(p.after_hash!, 'hex'), lt: p.after_lt } : null;
  const items: unknown[] = [];
  let incomplete = true;
  while (items.length < want && incomplete) {
    const count = Math.min(256, want - items.length);
    const mode = 7 | (after ? 128 : 0);
    const fn = ext ? 'liteServer.listBlockTransactionsExt' : 'liteServer.listBlockTransactions';
    const res = await node.query({ _: fn, id, mode, count, after: after ? { account: after.account, lt: after.lt } : undefined });
    incomplete = Boolean(res.incomplete);
    if (ext) {
      const boc = res.transactions as Buffer;
      const cells = boc.length > 0 ? Cell.fromBoc(boc) : [];
      for (const cell of cells) {
        const t = parseTxCell(cell, id.workchain);
        items.push(transactionJson(t, ctx.render, 'ext'));
        after = { account: Buffer.from(t.account.hash, 'hex'), lt: t.tx.lt };
      }
      if (cells.length === 0) break;
    } else {
      const ids = res.ids as TlObject[];
      for (const t of ids) {
        const account: AccountAddress = { workchain: id.workchain, hash: (t.account as Buffer).toString('hex') };
        items.push({ '@type': 'blocks.shortTxId', mode: Number(t.mode), account: formatRaw(account), lt: String(t.lt), hash: hashToBase64(t.hash as Buffer) });
        after = { account: t.account as Buffer, lt: t.lt as bigint };
      }
      if (ids.length === 0) break;
    }
  }
  return {
    '@type': ext ? 'blocks.transactionsExt' : 'blocks.transactions',
    id: blockIdJson(id),
    req_count: want,
    incomplete,
    transactions: items,
  };
}

export const getBlockTransactionsExt = defineMethod({
  name: 'getBlockTransactionsExt',
  params: blockTransactionsParams,
  run: (ctx, p) => blockTransactions(ctx, p, true),
});

export const getBlockTransactions = defineMethod({
  name: 'getBlockTransactions',
  params: blockTransactionsParams,
  run: (ctx, p) => blockTransactions(ctx, p, false),
});

/** How many transactions of one account a locate call scans before giving up. */
const LOCATE_SCAN_LIMIT = 1024;

async function locate(ctx: V2Context, p: { source: AccountAddress; destination: AccountAddress; created_lt: bigint }, side: 'result' | 'source') {
  const account = side === 'result' ? p.destination : p.source;
  const node = ctx.node();
  const st = await accountState(node, account, await lastMcBlock(node));
  let cursor = st.lastTx;
  let scanned = 0;
  while (cursor.lt > 0n && scanned < LOCATE_SCAN_LIMIT) {
    const { cells } = await accountTransactions(node, account, cursor.lt, cursor.hash, 16);
    if (cells.length === 0) break;
    for (const cell of cells) {
      scanned++;
      const tx = loadTransaction(cell.beginParse());
      if (side === 'result') {
        // The receiving transaction comes after the message was created.
        if (tx.lt < p.created_lt) throw notFound('transaction was not found');
        const m = tx.inMessage;
        if (m && m.info.type === 'internal' && m.info.createdLt === p.created_lt && sameAddress(coreToAccount(m.info.src), p.source)) {
          return transactionJson(parseTxCell(cell, account.workchain), ctx.render, 'legacy');
        }
      } else {
        // Messages a transaction creates have created_lt in (tx.lt, tx.lt + out count].
        if (tx.lt + BigInt(tx.outMessagesCount) < p.created_lt) throw notFound('transaction was not found');
        for (const m of tx.outMessages.values()) {
          if (m.info.type === 'internal' && m.info.createdLt === p.created_lt && sameAddress(coreToAccount(m.info.dest), p.destination)) {
            return transactionJson(parseTxCell(cell, account.workchain), ctx.render, 'legacy');
          }
        }
      }
      cursor = { lt: tx.prevTransactionLt, hash: Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex') };
    }
  }
  if (scanned >= LOCATE_SCAN_LIMIT) throw new ApiError(404, `transaction was not found in the last ${LOCATE_SCAN_LIMIT} transactions of the account`);
  throw notFound('transaction was not found');
}

export const tryLocateResultTx = defineMethod({ name: 'tryLocateResultTx', params: locateParams, run: (ctx, p) => locate(ctx, p, 'result') });
export const tryLocateTx = defineMethod({ name: 'tryLocateTx', params: locateParams, run: (ctx, p) => locate(ctx, p, 'result') });
export const tryLocateSourceTx = defineMethod({ name: 'tryLocateSourceTx', params: locateParams, run: (ctx, p) => locate(ctx, p, 'source') });

