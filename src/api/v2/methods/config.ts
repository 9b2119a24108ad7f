/** getConfigParam, getConfigAll, getLibraries. */
import { Dictionary } from '@ton/core';
import { hashToBase64 } from '../../../format/index.ts';
import { configAllParams, configParamParams, librariesParams } from '../../../../schemas/api/v2/params.ts';
import { notFound } from '../../errors.ts';
import { configAll, configParams, libraries, mcBlock } from '../chain.ts';
import { defineMethod } from '../method.ts';
import { tonlibBoc } from '../convert.ts';

export const getConfigParam = defineMethod({
  name: 'getConfigParam',
  params: configParamParams,
  async run(ctx, p) {
    const id = (p.config_id ?? p.param)!;
    const node = ctx.node();
    const block = await mcBlock(node, p.seqno);
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await configParams(node, block, [id]));
    const cell = dict.get(id);
    if (!cell) throw notFound(`config param ${id} is not set`);
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: tonlibBoc(cell) } };
  },
});

export const getConfigAll = defineMethod({
  name: 'getConfigAll',
  params: configAllParams,
  async run(ctx, p) {
    const node = ctx.node();
    const cell = await configAll(node, await mcBlock(node, p.seqno), ctx.configs);
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: tonlibBoc(cell) } };
  },
});

export const getLibraries = defineMethod({
  name: 'getLibraries',
  params: librariesParams,
  async run(ctx, p) {
    const found = await libraries(ctx.node(), p.libraries);
    return {
      '@type': 'smc.libraryResult',
      result: p.libraries
        .filter((h) => found.has(h))
        .map((h) => ({ '@type': 'smc.libraryEntry', hash: hashToBase64(h), data: tonlibBoc(found.get(h)!) })),
    };
  },
});
