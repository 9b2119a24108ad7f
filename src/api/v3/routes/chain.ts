/** Blocks, transactions and messages (reference §2.1-2.3) plus indexStatus. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { bookAndMetadata, bookOf } from '../address-book.ts';
import type { Row } from '../db.ts';
import { LT_WINDOW, PAGE, PAGE_SORT, pageOf, type ParamSpec } from '../params.ts';
import { b64, blockJson, messageJson, transactionAddresses } from '../render.ts';
import { addRoute, type Ctx, type V3Deps } from '../route.ts';
import { findTransactions, loadContents, mcBlockExists, renderByKeys, txKeysByMessage, type MessageFilter, type TxKey } from '../queries/transactions.ts';
import { indexStatus } from '../queries/status.ts';
import { messagesByHashFromDocs } from '../queries/messages.ts';

const BLOCK_COLS = '*';
const PAGING_DOC =
  'Paging: offset over a total, stable order (lt, then account, then hash; utime filters sort by now first). ' +
  'Pages never skip or repeat rows while the window is unchanged; for deep history prefer start_lt/end_lt (or utime) windows over large offsets.';

export async function txResponse(ctx: Ctx, transactions: Record<string, unknown>[]): Promise<{ transactions: Record<string, unknown>[]; address_book: Record<string, unknown> }> {
  const address_book = ctx.noBook ? {} : await bookOf(ctx.db, transactionAddresses(transactions), ctx.testnet);
  return { transactions, address_book };
}

/** The reference's TransactionsRequest: block, account, hash, lt, message and window filters (/transactions, /transactionsByMessage). */
const TX_PARAMS: ParamSpec = {
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
};

/** One page of transactions for the TX_PARAMS filters of the request. */
async function transactionsOf(ctx: Ctx): Promise<Record<string, unknown>[]> {
  const { q } = ctx;
  if (q.mc_seqno !== undefined) await requireMc(ctx, q.mc_seqno as number);
  const msgFields = ['msg_hash', 'body_hash', 'opcode', 'direction', 'source', 'destination'];
  const externals = q.only_externals === true ? 'only' : q.exclude_externals === true ? 'exclude' : undefined;
  if (q.only_externals === true && q.exclude_externals === true) throw new ApiError(422, 'only one of exclude_externals, only_externals can be true');
  const msg: MessageFilter | undefined =
    msgFields.some((k) => q[k] !== undefined) || externals
      ? {
          hashes: q.msg_hash as string[] | undefined,
          bodyHash: q.body_hash as string | undefined,
          opcode: q.opcode as number | undefined,
          direction: q.direction as 'in' | 'out' | undefined,
          source: q.source as string | undefined,
          destination: q.destination as string | undefined,
          externals,
        }
      : undefined;
  return findTransactions(
    ctx.db,
    {
      account: q.account as string[] | undefined,
      hash: q.hash as string[] | undefined,
      lt: q.lt as bigint | undefined,
      startLt: q.start_lt as bigint | undefined,
      endLt: q.end_lt as bigint | undefined,
      startUtime: q.start_utime as number | undefined,
      endUtime: q.end_utime as number | undefined,
      workchain: q.workchain as number | undefined,
      shard: q.shard as bigint | undefined,
      seqno: q.seqno as number | undefined,
      mcSeqno: q.mc_seqno as number | undefined,
      blockRootHash: q.root_hash as string | undefined,
      blockFileHash: q.file_hash as string | undefined,
      excludeAccount: q.exclude_account as string[] | undefined,
      msg,
    },
    pageOf(q),
  );
}

async function requireMc(ctx: Ctx, seqno: number): Promise<void> {
  if (!(await mcBlockExists(ctx.db, seqno))) throw new ApiError(404, `masterchain block ${seqno} not found`);
}

export function chainRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['blockchain'];

  addRoute(app, deps, {
    url: '/masterchainInfo',
    tags,
    summary: 'First and last indexed masterchain blocks',
    response: S.MasterchainInfo,
    async handler(ctx) {
      const rows = await ctx.db.q(
        `SELECT * FROM (SELECT ${BLOCK_COLS}, 'first' AS which FROM blocks WHERE workchain = -1 ORDER BY seqno ASC LIMIT 1)
         UNION ALL SELECT * FROM (SELECT ${BLOCK_COLS}, 'last' AS which FROM blocks WHERE workchain = -1 ORDER BY seqno DESC LIMIT 1)`,
      );
      const first = rows.find((r) => r.which === 'first');
      const last = rows.find((r) => r.which === 'last');
      if (!first || !last) throw new ApiError(404, 'no masterchain blocks indexed yet');
      return { first: blockJson(first), last: blockJson(last) };
    },
  });

  addRoute(app, deps, {
    url: '/indexStatus',
    tags,
    summary: 'Indexing progress: first/last indexed masterchain seqno, gaps, lag',
    description: 'gaps = masterchain seqnos missing between first and last indexed blocks; lag vs network when the node layer is configured.',
    response: S.IndexStatus,
    async handler(ctx) {
      return indexStatus(ctx.db, ctx.deps.node);
    },
  });

  const blockParams: ParamSpec = {
    workchain: { kind: 'int32' },
    shard: { kind: 'shard' },
    seqno: { kind: 'uint32' },
    root_hash: { kind: 'hash' },
    file_hash: { kind: 'hash' },
    mc_seqno: { kind: 'uint32', description: 'blocks committed by this masterchain block (incl. itself)' },
    ...LT_WINDOW,
    ...PAGE_SORT,
  };
  addRoute(app, deps, {
    url: '/blocks',
    tags,
    summary: 'Blocks by id, hash, masterchain seqno, utime or lt window',
    description: 'Order: gen_utime, then workchain, shard, seqno (sort default desc). start_lt/end_lt filter on block start_lt. ' + PAGING_DOC,
    params: blockParams,
    response: S.BlocksResponse,
    async handler({ q, db }) {
      const p: Record<string, unknown> = {};
      const c: string[] = [];
      const add = (cond: string, name: string, v: unknown) => {
        if (v !== undefined) {
          c.push(cond);
          p[name] = v;
        }
      };
      add('workchain = {wc:Int32}', 'wc', q.workchain);
      add('shard = {shard:UInt64}', 'shard', q.shard);
      add('seqno = {seqno:UInt32}', 'seqno', q.seqno);
      add('root_hash = {rh:FixedString(64)}', 'rh', q.root_hash);
      add('file_hash = {fh:FixedString(64)}', 'fh', q.file_hash);
      add('mc_block_seqno = {mc:UInt32}', 'mc', q.mc_seqno);
      add('gen_utime >= {sut:UInt32}', 'sut', q.start_utime);
      add('gen_utime <= {eut:UInt32}', 'eut', q.end_utime);
      add('start_lt >= {slt:UInt64}', 'slt', q.start_lt);
      add('start_lt <= {elt:UInt64}', 'elt', q.end_lt);
      const pg = pageOf(q);
      const rows = await db.q(
        `SELECT ${BLOCK_COLS} FROM blocks ${c.length ? 'WHERE ' + c.join(' AND ') : ''}
         ORDER BY gen_utime ${pg.dir}, workchain ${pg.dir}, shard ${pg.dir}, seqno ${pg.dir} LIMIT 1 BY workchain, shard, seqno LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        { ...p, limit: pg.limit, offset: pg.offset },
      );
      return { blocks: rows.map(blockJson) };
    },
  });

  addRoute(app, deps, {
    url: '/masterchainBlockShardState',
    tags,
    summary: 'Shard state registered in a masterchain block (the block and the top block of every shard)',
    params: { seqno: { kind: 'uint32', required: true } },
    response: S.BlocksResponse,
    async handler({ q, db }) {
      const rows = await db.q(
        `SELECT b.* FROM blocks AS b
         WHERE (b.workchain, b.shard, b.seqno) IN (SELECT workchain, shard, seqno FROM shard_state FINAL WHERE mc_seqno = {s:UInt32})
            OR (b.workchain = -1 AND b.shard = 9223372036854775808 AND b.seqno = {s:UInt32})
         ORDER BY b.workchain, b.shard, b.seqno LIMIT 1 BY b.workchain, b.shard, b.seqno`,
        { s: q.seqno },
      );
      if (rows.length === 0) throw new ApiError(404, 'blocks not found');
      return { blocks: rows.map(blockJson) };
    },
  });

  addRoute(app, deps, {
    url: '/masterchainBlockShards',
    tags,
    summary: 'Every block committed by a masterchain block (mc_block_seqno = seqno)',
    description: 'Order: workchain, shard, seqno; with sort: gen_utime (then workchain, shard, seqno) in that direction, as the reference orders /blocks. ' + PAGING_DOC,
    params: { seqno: { kind: 'uint32', required: true }, ...PAGE_SORT },
    response: S.BlocksResponse,
    async handler({ q, db }) {
      const pg = pageOf(q, 'asc');
      const d = pg.dir;
      const order = q.sort !== undefined ? `gen_utime ${d}, workchain ${d}, shard ${d}, seqno ${d}` : 'workchain, shard, seqno';
      const rows = await db.q(
        `SELECT ${BLOCK_COLS} FROM blocks WHERE mc_block_seqno = {s:UInt32} ORDER BY ${order} LIMIT 1 BY workchain, shard, seqno LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        { s: q.seqno, limit: pg.limit, offset: pg.offset },
      );
      if (rows.length === 0 && pg.offset === 0) throw new ApiError(404, 'blocks not found');
      return { blocks: rows.map(blockJson) };
    },
  });

  addRoute(app, deps, {
    url: '/transactions',
    tags,
    summary: 'Transactions by account, hash, block, masterchain block, lt or utime window',
    description: PAGING_DOC,
    params: TX_PARAMS,
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.direction !== undefined && !(q.msg_hash as string[] | undefined)?.length && q.opcode === undefined) {
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
      await requireMc(ctx, ctx.q.seqno as number);
      const rows = await findTransactions(ctx.db, { mcSeqno: ctx.q.seqno as number }, pageOf(ctx.q));
      return txResponse(ctx, rows);
    },
  });

  addRoute(app, deps, {
    url: '/transactionsByMessage',
    tags,
    summary: 'Transactions that sent (out) or received (in) a message',
    description:
      'msg_hash matches the message hash or its normalized hash (external-in); opcode matches inbound messages. Every filter of ' +
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
      if (!(q.msg_hash as string[] | undefined)?.length && q.body_hash === undefined && q.opcode === undefined) {
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
      const own = await db.q<{ account: string; lt: string }>('SELECT DISTINCT account, lt FROM transactions_by_hash WHERE hash = {h:FixedString(64)}', { h: q.hash });
      if (own.length === 0) throw new ApiError(404, 'transaction not found');
      const msgs = await db.q<{ msg_hash: string; direction: string }>(
        `SELECT DISTINCT msg_hash, direction FROM messages WHERE (tx_account, tx_lt) IN {k:Array(Tuple(String, UInt64))} ${q.direction ? 'AND direction = {d:String}' : ''} AND message_type = 'int'`,
        { k: own.map((o) => [o.account, BigInt(o.lt)]), d: q.direction === 'in' ? 'in' : 'out' },
      );
      const keys: TxKey[] = [];
      for (const dir of ['in', 'out'] as const) {
        const hs = msgs.filter((m) => m.direction === dir).map((m) => m.msg_hash);
        if (hs.length) keys.push(...(await txKeysByMessage(db, hs, dir === 'in' ? 'out' : 'in')));
      }
      const rows = (await renderByKeys(db, keys, 'ASC')).slice(pg.offset, pg.offset + pg.limit);
      if (rows.length === 0) throw new ApiError(404, 'adjacent transactions not found');
      return txResponse(ctx, rows);
    },
  });

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
      const pg = pageOf(q);
      if (q.hash !== undefined && (q.msg_hash as string[] | undefined)?.length) throw new ApiError(422, 'cannot use both legacy and new message hashes');
      const hashes = [...((q.msg_hash as string[] | undefined) ?? []), ...(q.hash ? [q.hash as string] : [])];
      const otherFilters =
        ['body_hash', 'source', 'destination', 'opcode', 'direction', 'start_lt', 'end_lt', 'start_utime', 'end_utime'].some((k) => q[k] !== undefined) ||
        q.exclude_externals === true ||
        q.only_externals === true;
      if (hashes.length && !otherFilters) {
        const fromDocs = await messagesByHashFromDocs(db, hashes, pg);
        if (fromDocs) return messagesResponse(ctx, fromDocs.rows, fromDocs.contents);
      }
      const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset };
      const c: string[] = [];
      if (hashes.length) {
        p.h = hashes;
        c.push('(tx_account, tx_lt, direction, msg_hash) IN (SELECT tx_account, tx_lt, direction, msg_hash FROM message_hashes WHERE hash IN {h:Array(FixedString(64))})');
      }
      if (q.body_hash !== undefined) {
        p.bh = q.body_hash;
        c.push('body_hash = {bh:FixedString(64)}');
      }
      if (q.source !== undefined) {
        if (q.source === null) c.push("message_type = 'ext_in'");
        else {
          p.src = q.source;
          c.push('source = {src:String}');
        }
      }
      if (q.destination !== undefined) {
        if (q.destination === null) c.push("message_type = 'ext_out'");
        else {
          p.dst = q.destination;
          c.push('destination = {dst:String}');
        }
      }
      if (q.opcode !== undefined) {
        p.op = q.opcode;
        c.push('opcode = {op:Int32}');
      }
      if (q.direction !== undefined) {
        p.d = q.direction;
        c.push('direction = {d:String}');
      }
      const byUtime = q.start_utime !== undefined || q.end_utime !== undefined;
      const col = byUtime ? 'created_at' : 'created_lt';
      if (q.start_utime !== undefined) { p.sut = q.start_utime; c.push('created_at >= {sut:UInt32}'); }
      if (q.end_utime !== undefined) { p.eut = q.end_utime; c.push('created_at <= {eut:UInt32}'); }
      if (q.start_lt !== undefined) { p.slt = q.start_lt; c.push('created_lt >= {slt:UInt64}'); }
      if (q.end_lt !== undefined) { p.elt = q.end_lt; c.push('created_lt <= {elt:UInt64}'); }
      if (q.exclude_externals) c.push(`${col} IS NOT NULL`);
      if (q.only_externals) c.push(`${col} IS NULL`);
      const where = c.length ? 'WHERE ' + c.join(' AND ') : '';
      // one row per msg_hash: group the in/out rows, keep both transaction hashes
      const rows = await db.q(
        `SELECT msg_hash, any(m.message_type) AS message_type, any(m.msg_hash_norm) AS msg_hash_norm, any(m.source) AS source,
                any(m.destination) AS destination, any(m.value) AS value, any(m.value_extra_currencies) AS value_extra_currencies,
                any(m.fwd_fee) AS fwd_fee, any(m.ihr_fee) AS ihr_fee, any(m.extra_flags) AS extra_flags, any(m.created_lt) AS created_lt,
                any(m.created_at) AS created_at, any(m.opcode) AS opcode, any(m.ihr_disabled) AS ihr_disabled, any(m.bounce) AS bounce,
                any(m.bounced) AS bounced, any(m.import_fee) AS import_fee, any(m.body_hash) AS body_hash, any(m.init_state_hash) AS init_state_hash,
                anyIf(m.tx_hash, m.direction = 'in') AS in_tx, anyIf(m.tx_hash, m.direction = 'out') AS out_tx
         FROM (SELECT * FROM messages ${where}) AS m
         GROUP BY msg_hash
         ORDER BY ${col} ${pg.dir} NULLS ${pg.dir === 'DESC' ? 'LAST' : 'FIRST'}, msg_hash ${pg.dir}
         LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        p,
      );
      const contents = new Map<string, string>();
      await loadContents(db, rows, contents);
      return messagesResponse(ctx, rows, contents);
    },
  });

  addRoute(app, deps, {
    url: '/pendingTransactions',
    tags,
    summary: 'Transactions of traces still in flight',
    description:
      'This gateway has no mempool emulator. "Pending" here means: finalized transactions that belong to traces whose messages are still in flight ' +
      'between finalized blocks (trace state pending). Once every message of a trace has been received the trace is complete and its transactions leave this list.',
    params: { account: { kind: 'address[]' }, trace_id: { kind: 'hash[]' }, ...PAGE },
    response: S.TransactionsResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      const accounts = q.account as string[] | undefined;
      const traceIds = q.trace_id as string[] | undefined;
      if (!accounts?.length && !traceIds?.length) throw new ApiError(422, 'at least 1 account address or trace_id required');
      const pg = pageOf(q);
      const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset, a: accounts ?? [], t: traceIds ?? [] };
      const rows = await db.q<{ account: string; lt: string; hash: string }>(
        `SELECT DISTINCT tt.account AS account, tt.lt AS lt, tt.hash AS hash FROM trace_transactions AS tt
         WHERE tt.trace_id IN (SELECT trace_id FROM traces FINAL WHERE state = 'pending' ${traceIds?.length ? 'AND trace_id IN {t:Array(FixedString(64))}' : ''})
         ${accounts?.length ? 'AND tt.account IN {a:Array(String)}' : ''}
         ORDER BY tt.lt DESC, tt.account DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        p,
      );
      if (rows.length === 0) throw new ApiError(404, 'pending traces not found');
      return txResponse(ctx, await renderByKeys(db, rows.map((r) => [r.account, r.lt, r.hash]), 'given'));
    },
  });
  void z;
}

/** The /messages answer for message rows (one per message, with in_tx / out_tx) and their contents. */
async function messagesResponse(ctx: Ctx, rows: Row[], contents: Map<string, string>) {
  const messages = rows.map((m) => {
    const extraFields: Record<string, unknown> = {};
    const inTx = b64(m.in_tx);
    const outTx = b64(m.out_tx);
    if (inTx) extraFields.in_msg_tx_hash = inTx;
    if (outTx) extraFields.out_msg_tx_hash = outTx;
    return messageJson(m, contents, extraFields);
  });
  const addrs = messages.flatMap((m) => [m.source as string | null, m.destination as string | null]);
  const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
  return { messages, address_book, metadata };
}
