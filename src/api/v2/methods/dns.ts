/** dnsResolve (ton-http-api-cpp): TON DNS resolution with every resolver's state read at one masterchain block. */
import { beginCell, Dictionary } from '@ton/core';
import type { AccountAddress } from '../../../format/index.ts';
import { dnsResolveParams } from '../../../../schemas/api/v2/params.ts';
import { accountState, configAll, configParams, mcBlock } from '../chain.ts';
import { prepareDomain, resolveDns, rootFromConfig } from '../dns.ts';
import { defineMethod } from '../method.ts';
import { viewOf } from './accounts.ts';
import { runOn } from './run.ts';

export const dnsResolve = defineMethod({
  name: 'dnsResolve',
  params: dnsResolveParams,
  async run(ctx, p) {
    const domain = prepareDomain(p.domain, p.resolver_address !== undefined);
    const node = ctx.node();
    // root discovery and every resolver's state are pinned to one masterchain block, as the reference pins them
    const block = await mcBlock(node, p.seqno);
    let root: AccountAddress;
    if (p.resolver_address) root = p.resolver_address;
    else {
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await configParams(node, block, [4]));
      root = rootFromConfig(dict.get(4) ?? null);
    }
    const config = await configAll(node, block, ctx.configs);
    return resolveDns(domain, root, async (resolver, subdomain) => {
      const view = viewOf(await accountState(node, resolver, block));
      // dnsresolve(subdomain: slice, category: int); category 0 asks for every record
      const slice = beginCell().storeBuffer(subdomain).endCell();
      const r = await runOn(ctx, { view, address: resolver, block, config }, 'dnsresolve', [
        { type: 'slice', cell: slice },
        { type: 'int', value: 0n },
      ]);
      return { exitCode: r.exitCode, stack: r.stack };
    });
  },
});
