/** Transactions and messages (reference §2.2-2.3); the blocks and indexStatus are blocks.ts. */
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { bookAndMetadata, bookOf } from '../address-book.ts';
import type { Row } from '../db.ts';
import { LT_WINDOW, PAGE, PAGE_SORT, PAGING_DOC, pageOf, type ParamsOf, type ParamSpec } from '../params.ts';
import { b64, messageJson, transactionAddresses, transactionsJson } from '../render.ts';
import { addRoute, type Ctx, type V3Deps } from '../route.ts';
import { findTransactions, loadByKeys, mcBlockExists, type MessageFilter } from '../queries/transactions.ts';
import { findMessages } from '../queries/messages.ts';
import { adjacentTxKeys, pendingTxKeys } from '../queries/transaction-keys.ts';

export async function txResponse(ctx: Ctx<unknown>, transactions: Record<string, unknown>[]): Promise<{ transactions: Record<string, unknown>[]; address_book: Record<string, unknown> }> {
  const address_book = ctx.noBook ? {} : await bookOf(ctx.db, transactionAddresses(transactions), ctx.testnet);
  return { transactions, address_book };
}

/** The reference's TransactionsRequest: block, account, hash, lt, message and window filters (/transactions, /transactionsByMessage). */
const TX_PARAMS = {
  workchain: { kind: 'int32' },
  shard: { kind: 'shard' },
  seqno: { kind: 'uint32' },
  root_hash: { kind: 'hash', description: 'transactions of the block with this root hash' },
  file_hash: { kind: 'hash', description: 'transactions of the block with this file hash' },
  mc_seqno: { kind: 'uint32' },
  account: { kind: 'address[]' },
  exclude_account: { kind: 'address[]', description: 'accounts to leave out' },
  hash: { kind: 'hash[]' },
  lt: { kind: 'uint64' },
  msg_hash: { kind: 'hash[]', description: 'a message of the transaction: hash or normalized hash (external-in)' },
  body_hash: { kind: 'hash', description: 'a message of the transaction has this body hash' },
  opcode: { kind: 'opcode', description: 'an inbound message of the transaction has this opcode' },
  direction: { kind: 'direction', description: 'in or out: which side of the transaction the matched message is on' },
  source: { kind: 'address', description: 'the matched message comes from this address' },
  destination: { kind: 'address', description: 'the matched message goes to this address' },
  ...LT_WINDOW,
  ...PAGE_SORT,
} satisfies ParamSpec;

type TxParams = ParamsOf<typeof TX_PARAMS> & { only_externals?: boolean; exclude_externals?: boolean };

/** One page of transactions for the TX_PARAMS filters of the request. */
async function transactionsOf(ctx: Ctx<TxParams>): Promise<Record<string, unknown>[]> {
  const { q } = ctx;
  if (q.mc_seqno !== undefined) await requireMc(ctx, q.mc_seqno);
  const externals = q.only_externals === true ? 'only' : q.exclude_externals === true ? 'exclude' : undefined;
  if (q.only_externals === true && q.exclude_externals === true) throw new ApiError(422, 'only one of exclude_externals, only_externals can be true');
  const msg: MessageFilter | undefined =
    [q.msg_hash, q.body_hash, q.opcode, q.direction, q.source, q.destination].some((v) => v !== undefined) || externals
      ? { hashes: q.msg_hash, bodyHash: q.body_hash, opcode: q.opcode, direction: q.direction, source: q.source, destination: q.destination, externals }
      : undefined;
  const loaded = await findTransactions(
    ctx.db,
    {
      account: q.account,
      hash: q.hash,
      lt: q.lt,
      startLt: q.start_lt,
      endLt: q.end_lt,
      startUtime: q.start_utime,
      endUtime: q.end_utime,
      workchain: q.workchain,
      shard: q.shard,
      seqno: q.seqno,
      mcSeqno: q.mc_seqno,
      blockRootHash: q.root_hash,
      blockFileHash: q.file_hash,
      excludeAccount: q.exclude_account,
      msg,
    },
    pageOf(q),
  );
  return transactionsJson(loaded);
}

async function requireMc(ctx: Ctx<unknown>, seqno: number): Promise<void> {
  if (!(await mcBlockExists(ctx.db, seqno))) throw new ApiError(404, `masterchain block ${seqno} not found`);
}

export function transactionRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['blockchain'];

  addRoute(app, deps, {
    url: '/transactions',
    tags,
    summary: 'Transactions by account, hash, block, masterchain block, lt or utime window',
    description: PAGING_DOC,
    params: TX_PARAMS,
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.direction !== undefined && !q.msg_hash?.length && q.opcode === undefined) {
        throw new ApiError(422, 'direction can be specified only with msg_hash or opcode');
      }
      return txResponse(ctx, await transactionsOf(ctx));
    },
  });

  addRoute(app, deps, {
    url: '/transactionsByMasterchainBlock',
    tags,
    summary: 'Transactions of every block committed by a masterchain block',
    description: PAGING_DOC,
    params: { seqno: { kind: 'uint32', required: true }, ...PAGE_SORT },
    response: S.TransactionsResponse,
    async handler(ctx) {
      await requireMc(ctx, ctx.q.seqno);
      const rows = transactionsJson(await findTransactions(ctx.db, { mcSeqno: ctx.q.seqno }, pageOf(ctx.q)));
      return txResponse(ctx, rows);
    },
  });

  addRoute(app, deps, {
    url: '/transactionsByMessage',
    tags,
    summary: 'Transactions that sent (out) or received (in) a message',
    description:
      'msg_hash matches the message hash or its normalized hash (external-in); opcode matches messages on either side (direction narrows it). Every filter of ' +
      '/transactions applies too, and source / destination / direction / exclude_externals / only_externals constrain the same message. ' +
      'Order: lt (sort, default desc), account, hash. ' + PAGING_DOC,
    params: {
      ...TX_PARAMS,
      exclude_externals: { kind: 'bool', description: 'leave out transactions matched through an external-in message' },
      only_externals: { kind: 'bool', description: 'only transactions matched through an external-in message' },
    },
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (!q.msg_hash?.length && q.body_hash === undefined && q.opcode === undefined) {
        throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
      }
      return txResponse(ctx, await transactionsOf(ctx));
    },
  });

  addRoute(app, deps, {
    url: '/adjacentTransactions',
    tags,
    summary: 'Transactions on the other end of a transaction\'s messages',
    description: 'direction=in: the parent (sender of our in_msg); out: children (receivers of our out_msgs); none: both. Order: lt asc.',
    params: { hash: { kind: 'hash', required: true }, direction: { kind: 'direction' }, ...PAGE },
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      const pg = pageOf(q, 'asc');
      const keys = await adjacentTxKeys(db, q.hash, q.direction);
      if (!keys) throw new ApiError(404, 'transaction not found');
      const rows = transactionsJson((await loadByKeys(db, keys, 'ASC')).slice(pg.offset, pg.offset + pg.limit));
      if (rows.length === 0) throw new ApiError(404, 'adjacent transactions not found');
      return txResponse(ctx, rows);
    },
  });

  messageRoute(app, deps, tags);
  pendingTransactionsRoute(app, deps, tags);
}

/** /messages: one row per message. */
function messageRoute(app: FastifyInstance, deps: V3Deps, tags: string[]): void {
  addRoute(app, deps, {
    url: '/messages',
    tags,
    summary: 'Messages by hash, body hash, source, destination, opcode, lt or utime window',
    description:
      'One row per message (sender and receiver rows merged; in_msg_tx_hash / out_msg_tx_hash name both transactions). ' +
      'msg_hash matches the normalized hash of external-in messages too. Order: created_lt (or created_at with utime filters), then msg_hash; ' +
      'external-in messages have no created_lt and sort last in desc order. ' + PAGING_DOC,
    params: {
      msg_hash: { kind: 'hash[]' },
      hash: { kind: 'hash', description: 'legacy alias of one msg_hash' },
      body_hash: { kind: 'hash' },
      source: { kind: 'nullableAddress', description: 'sender; null = external-in messages' },
      destination: { kind: 'nullableAddress', description: 'receiver; null = external-out messages' },
      opcode: { kind: 'opcode' },
      direction: { kind: 'direction' },
      exclude_externals: { kind: 'bool' },
      only_externals: { kind: 'bool' },
      ...LT_WINDOW,
      ...PAGE_SORT,
    },
    response: S.MessagesResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      if (q.hash !== undefined && q.msg_hash?.length) throw new ApiError(422, 'cannot use both legacy and new message hashes');
      const hashes = [...(q.msg_hash ?? []), ...(q.hash ? [q.hash] : [])];
      const { rows, contents } = await findMessages(db, { ...q, hashes }, pageOf(q));
      return messagesResponse(ctx, rows, contents);
    },
  });

}

/** /pendingTransactions: emulated transactions first, then those of traces still in flight. */
function pendingTransactionsRoute(app: FastifyInstance, deps: V3Deps, tags: string[]): void {
  addRoute(app, deps, {
    url: '/pendingTransactions',
    tags,
    summary: 'Transactions of traces still in flight',
    description:
      'Emulated transactions first (emulated: true, finality pending): those of the traces of the external messages sent through this gateway, ' +
      'run in the TVM emulator, until the chain shows them. Then finalized transactions that belong to traces whose messages are still in flight ' +
      'between finalized blocks (trace state pending); once every message of a trace has been received they leave this list.',
    params: { account: { kind: 'address[]' }, trace_id: { kind: 'hash[]' }, ...PAGE },
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      if (!q.account?.length && !q.trace_id?.length) throw new ApiError(422, 'at least 1 account address or trace_id required');
      // emulated transactions of these accounts first (upstream's FilterTransactionsByAccounts), then indexed ones
      const pg = pageOf(q);
      const emulated: Record<string, unknown>[] = [];
      if (ctx.deps.emulation && q.account?.length) {
        const want = new Set(q.account);
        const { rendered } = await ctx.deps.emulation.page(db, { accounts: q.account }, { ...pg, offset: 0, limit: Number.MAX_SAFE_INTEGER }, new Set());
        for (const r of rendered) for (const t of [...r.txs].reverse()) if (want.has(String(t.account))) emulated.push(t);
      }
      const mine = emulated.slice(pg.offset, pg.offset + pg.limit);
      const rest = { ...pg, offset: Math.max(0, pg.offset - emulated.length), limit: pg.limit - mine.length };
      const keys = rest.limit > 0 ? await pendingTxKeys(db, q, rest) : [];
      if (keys.length === 0 && mine.length === 0) throw new ApiError(404, 'pending traces not found');
      return txResponse(ctx, [...mine, ...(keys.length ? transactionsJson(await loadByKeys(db, keys, 'given')) : [])]);
    },
  });
}

/** The /messages answer for message rows (one per message, with in_tx / out_tx) and their contents. */
async function messagesResponse(ctx: Ctx<unknown>, rows: Row[], contents: Map<string, string>) {
  const messages = rows.map((m) => {
    const extraFields: Record<string, unknown> = {};
    const inTx = b64(m.in_tx);
    const outTx = b64(m.out_tx);
    if (inTx) extraFields.in_msg_tx_hash = inTx;
    if (outTx) extraFields.out_msg_tx_hash = outTx;
    return messageJson(m, contents, extraFields, ctx.db.caches.bodies);
  });
  const addrs = messages.flatMap((m) => [m.source as string | null, m.destination as string | null]);
  const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
  return { messages, address_book, metadata };
}
