/**
 * What a trace is emulated against (src/emulate `EmulationState`): the newest masterchain block the index holds
 * (its seqno from the store, or the newest the indexer's feed brought), its config and the account states at it, read
 * from the network's liteservers (as upstream's emulator reads them from its node): the store keeps only the cells the
 * blocks carried, and an emulation needs whole accounts. utime and lt: the masterchain block's gen_utime and start lt
 * (upstream takes each shard's newest block; the masterchain block is at least as new).
 */
import { beginCell, type Address, type Cell } from '@ton/core';
import type { EmulationState } from '../../emulate/index.ts';
import type { StoreClient } from '../../store/client/index.ts';
import { accountState, blockIdTl, configAll, MASTER_SHARD_SIGNED, newConfigCache, type BlockIdTl, type NodeClient } from '../v2/index.ts';

interface McRow {
  seqno: string;
  root_hash: string;
  file_hash: string;
  gen_utime: string;
  start_lt: string;
}

/** The index has not the block asked for (404), or none yet. */
export class EmulationStateMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulationStateMissing';
  }
}

/** The state factory of a network with a store and liteservers. */
export function liteserverState(store: StoreClient, node: NodeClient) {
  // config dictionaries by block, this network's own
  const configs = newConfigCache();
  return async (hint: { lastSeqno: number | null; at?: number }): Promise<EmulationState> => {
    const cols = 'SELECT seqno, root_hash, file_hash, gen_utime, start_lt FROM blocks WHERE workchain = -1';
    const rows = await store.query<McRow>(
      hint.at !== undefined
        ? `${cols} AND seqno = {s:UInt32} LIMIT 1`
        : hint.lastSeqno !== null
          ? `${cols} AND seqno <= {s:UInt32} ORDER BY seqno DESC LIMIT 1`
          : `${cols} ORDER BY seqno DESC LIMIT 1`,
      hint.at !== undefined ? { s: hint.at } : hint.lastSeqno !== null ? { s: hint.lastSeqno } : undefined,
    );
    const mc = rows[0];
    if (!mc) throw new EmulationStateMissing(hint.at !== undefined ? `masterchain block ${hint.at} is not in the index` : 'the index holds no masterchain block yet: nothing to emulate against');
    const block = blockIdTl(-1, MASTER_SHARD_SIGNED, Number(mc.seqno), Buffer.from(mc.root_hash, 'hex'), Buffer.from(mc.file_hash, 'hex'));
    const config = await configAll(node, block, configs);
    const shards = new Map<string, BlockIdTl>();
    const keyOf = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;
    return {
      mcSeqno: Number(mc.seqno),
      config,
      utime: Number(mc.gen_utime),
      lt: BigInt(mc.start_lt),
      shardOf(a: Address) {
        const b = shards.get(keyOf(a));
        if (!b) return { workchain: a.workChain, shard: '8000000000000000', seqno: 0 };
        return { workchain: b.workchain, shard: BigInt.asUintN(64, BigInt(b.shard)).toString(16).padStart(16, '0'), seqno: b.seqno };
      },
      async shardAccount(a: Address): Promise<Cell> {
        const st = await accountState(node, { workchain: a.workChain, hash: a.hash.toString('hex') }, block);
        shards.set(keyOf(a), a.workChain === -1 ? st.block : st.shardBlock);
        return beginCell()
          .storeRef(st.accountCell ?? beginCell().storeBit(0).endCell())
          .storeBuffer(st.lastTx.hash, 32)
          .storeUint(st.lastTx.lt, 64)
          .endCell();
      },
    };
  };
}
