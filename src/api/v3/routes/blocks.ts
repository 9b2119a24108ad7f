/** Blocks (reference §2.1) and indexStatus. */
import type { FastifyInstance } from 'fastify';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { LT_WINDOW, PAGE_SORT, PAGING_DOC, pageOf } from '../params.ts';
import { blockJson } from '../render.ts';
import { addRoute, type V3Deps } from '../route.ts';
import { indexStatus } from '../queries/status.ts';
import { blocksOfMcBlock, blocksPage, firstLastMcBlocks, shardStateBlocks } from '../queries/blocks.ts';

export function blockRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['blockchain'];

  addRoute(app, deps, {
    url: '/masterchainInfo',
    tags,
    summary: 'First and last indexed masterchain blocks',
    response: S.MasterchainInfo,
    async handler(ctx) {
      const mc = await firstLastMcBlocks(ctx.db);
      if (!mc) throw new ApiError(404, 'no masterchain blocks indexed yet');
      return { first: blockJson(mc.first), last: blockJson(mc.last) };
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

  addRoute(app, deps, {
    url: '/blocks',
    tags,
    summary: 'Blocks by id, hash, masterchain seqno, utime or lt window',
    description: 'Order: gen_utime, then workchain, shard, seqno (sort default desc). start_lt/end_lt filter on block start_lt. ' + PAGING_DOC,
    params: {
      workchain: { kind: 'int32' },
      shard: { kind: 'shard' },
      seqno: { kind: 'uint32' },
      root_hash: { kind: 'hash' },
      file_hash: { kind: 'hash' },
      mc_seqno: { kind: 'uint32', description: 'blocks committed by this masterchain block (incl. itself)' },
      ...LT_WINDOW,
      ...PAGE_SORT,
    },
    response: S.BlocksResponse,
    async handler({ q, db }) {
      const rows = await blocksPage(db, q, pageOf(q));
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
      const rows = await shardStateBlocks(db, q.seqno);
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
      const rows = await blocksOfMcBlock(db, q.seqno, q.sort !== undefined, pg);
      if (rows.length === 0 && pg.offset === 0) throw new ApiError(404, 'blocks not found');
      return { blocks: rows.map(blockJson) };
    },
  });
}
