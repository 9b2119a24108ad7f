/**
 * The node functions API v3's legacy endpoints (runGetMethod, estimateFee, message) call, answered by the
 * API v2 methods of the same network (src/api/v3/route.ts `LegacyNode`).
 */
import type { NetworkContext } from '../server.ts';
import { callMethod, makeContext } from './dispatch.ts';
import { estimateFee, sendBocReturnHash } from './methods/send.ts';
import { runGetMethodLegacy } from './methods/run.ts';
import { masterchainInfo, newConfigCache } from './chain.ts';
import type { NodeClient } from './node.ts';

export interface LegacyNodeFns {
  runGetMethod(req: { address: string; method: string; stack: unknown[] }): Promise<unknown>;
  estimateFee(req: { address: string; body: string; init_code?: string; init_data?: string; ignore_chksig?: boolean }): Promise<unknown>;
  sendMessage(boc: string): Promise<{ message_hash: string; message_hash_norm: string }>;
  lastMcSeqno(): Promise<number | null>;
}

/** Functions that throw ApiError (v2 status codes) on failure. */
export function legacyNode(network: NetworkContext): LegacyNodeFns {
  const ctx = makeContext(network, null, newConfigCache());
  return {
    runGetMethod: (req) => callMethod(runGetMethodLegacy, ctx, req),
    estimateFee: (req) => callMethod(estimateFee, ctx, req),
    async sendMessage(boc) {
      const r = (await callMethod(sendBocReturnHash, ctx, { boc })) as { hash: string; hash_norm: string };
      return { message_hash: r.hash, message_hash_norm: r.hash_norm };
    },
    async lastMcSeqno() {
      const node = network.services.node as NodeClient | undefined;
      if (!node) return null;
      const c = node.consensus?.();
      if (c) return c.seqno;
      const info = await masterchainInfo(node);
      return Number((info.last as { seqno: number }).seqno);
    },
  };
}
