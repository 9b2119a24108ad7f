// The interface repository reaches the matchers with the trace's blocks (src/actions/context.ts): each block reads
// the records of the trace it was built from, whatever else is classified meanwhile; nothing is kept in a module.
import { describe, expect, it } from 'vitest';
import { interfaceRepository, traceRepository } from '../../src/actions/context.ts';
import { Block } from '../../src/actions/core.ts';
import type { AccountInterfaces } from '../../src/actions/model.ts';
import { initBlock } from '../../src/actions/processing.ts';
import { toTree } from '../../src/actions/tree.ts';
import { addr, buildTrace } from './trace-builder.ts';

const USER = addr(0, 'a1'), WALLET = addr(0, 'b2'), OWNER = addr(0, 'c3'), MASTER = addr(0, 'd4'), POOL = addr(0, 'e5');
const jw = (owner: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton: MASTER, balance: 0 } } });
const spec = { account: USER, from: null, out: [{ account: WALLET, from: USER }] };

describe('interfaceRepository(block)', () => {
  it('reads the records of the block\'s own trace, for two traces built side by side', () => {
    const known = buildTrace(spec, { interfaces: { [WALLET]: jw(OWNER) } });
    const unknown = buildTrace(spec);
    const a = initBlock(toTree(known));
    const b = initBlock(toTree(unknown));
    expect(interfaceRepository(a).getJettonWallet(WALLET)).toMatchObject({ owner: OWNER, jetton: MASTER });
    expect(interfaceRepository(b).getJettonWallet(WALLET)).toBeNull();
    // every node of a tree carries the same repository, so every block of it answers alike
    expect(interfaceRepository(a.nextBlocks[0])).toBe(interfaceRepository(a));
  });

  it('a tree built with the classifier\'s repository answers from its DeDust pool list too', () => {
    const trace = buildTrace(spec);
    const pools = new Map([[POOL, { assets: [{ is_ton: true, address: null }, { is_ton: false, address: MASTER }] }]]);
    const block = initBlock(toTree(trace, traceRepository(trace, pools)));
    expect(interfaceRepository(block).getDedustPool(POOL)?.assets).toEqual(pools.get(POOL)!.assets);
    expect(interfaceRepository(initBlock(toTree(trace))).getDedustPool(POOL)).toBeNull();
  });

  it('a block of no event node (the root) has no trace to read: an error, not an empty answer', () => {
    expect(() => interfaceRepository(new Block('root', [], null))).toThrow(/root block has no event node/);
  });
});
