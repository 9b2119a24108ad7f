/**
 * ↔ indexer/events/blocks/cocoon.py: Cocoon (the TON AI compute network) root, proxy, worker and client contracts.
 * Each matcher anchors on a signed or owner message and requires the contract's answers; a body that does not read
 * builds nothing. `failed` is the anchor's transaction's abort, except for the worker payout and the grant refund,
 * where it is the payout's. The client increase-stake / withdraw matchers and the grant refund's payout are newer
 * upstream (its cocoon.mch spec of the same matchers; the Go API and the C++ serializer carry the same fields).
 */
import { Address, ExternalAddress } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import { findCallContract, getLabeled } from '../block-utils.ts';
import type {
  CocoonChargeData, CocoonClientChangeSecretHashData, CocoonClientIncreaseStakeData, CocoonClientRegisterData, CocoonClientRequestRefundData,
  CocoonClientTopUpData, CocoonClientWithdrawData, CocoonGrantRefundData, CocoonProxyPayoutData, CocoonRegisterProxyData, CocoonWorkerPayoutData,
} from '../block-data.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, ContractMatcher } from '../matchers.ts';
import { addrAccount } from '../messages/common.ts';
import {
  CocoonChargePayload, CocoonClientProxyRefundGranted, CocoonClientProxyRequest, CocoonExtClientTopUp, CocoonExtProxyPayoutRequest,
  CocoonGrantRefundPayload, CocoonLastPayoutPayload, CocoonOwnerClientChangeSecretHash, CocoonOwnerClientIncreaseStake, CocoonOwnerClientRegister,
  CocoonOwnerClientRequestRefund, CocoonOwnerClientWithdraw, CocoonOwnerWalletSendMessage, CocoonPayout, CocoonPayoutPayload, CocoonRegisterProxy,
  CocoonReturnExcessesBack, CocoonUnregisterProxy, CocoonWorkerProxyRequest,
} from '../messages/cocoon.ts';
import { accountId } from '../ton-utils.ts';

class CocoonBlock<D> extends Block<D> {}

const isCall = (b: Block, opcode: number): boolean => b instanceof CallContractBlock && b.opcode === opcode >>> 0;
const contract = (opcode: number, optional = false) => new ContractMatcher(opcode, { optional });

/** `expectedMyAddress` as upstream renders it: `len;hex` for an external address, raw upper-case, or none. */
export function expectedAddress(a: Address | ExternalAddress | null): string | null {
  if (a instanceof ExternalAddress) return `${a.bits};${a.value.toString(16)}`;
  if (a instanceof Address) return accountId(a);
  return null;
}

function cocoonBlock<D>(btype: string, data: D, merge: Block[], failed: boolean): Block[] {
  const b = new CocoonBlock<D>(btype, [], data);
  b.mergeBlocks(merge);
  b.failed = failed;
  return [b];
}

/** ExtWorker(Last)PayoutRequest -> worker proxy request (worker -> proxy) -> payout to the worker's owner (+ excesses). */
export class CocoonWorkerPayoutMatcher extends BlockMatcher {
  constructor() {
    super({
      optional: false,
      childMatcher: new ContractMatcher(CocoonWorkerProxyRequest.opcode, {
        optional: false,
        childrenMatchers: [labeled('payout', contract(CocoonPayout.opcode)), labeled('excesses', contract(CocoonReturnExcessesBack.opcode, true))],
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonPayoutPayload.opcode) || isCall(block, CocoonLastPayoutPayload.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const startMsg = block.getMessage();
    const last = isCall(block, CocoonLastPayoutPayload.opcode);
    let payload: CocoonPayoutPayload;
    try {
      payload = last ? new CocoonLastPayoutPayload(block.getBody()) : new CocoonPayoutPayload(block.getBody());
    } catch {
      return [];
    }
    const request = findCallContract(block.nextBlocks, CocoonWorkerProxyRequest.opcode);
    if (request === null) return [];
    let wreq: CocoonWorkerProxyRequest;
    try {
      wreq = new CocoonWorkerProxyRequest(request.getBody());
    } catch {
      return [];
    }
    const payout = getLabeled('payout', otherBlocks, CallContractBlock);
    if (payout === null) return [];
    const payoutMsg = payout.getMessage();
    const data: CocoonWorkerPayoutData = {
      proxy_contract: accountId(startMsg.source),
      worker_contract: accountId(startMsg.destination),
      worker_owner: addrAccount(wreq.ownerAddress),
      payout_type: last ? 'last' : 'regular',
      query_id: payload.queryId,
      new_tokens: payload.tokens,
      expected_address: expectedAddress(payload.expectedMyAddress),
      payout_amount: payoutMsg.value,
      worker_state: wreq.state,
      worker_tokens: wreq.tokens,
    };
    const merge = new Set<Block>([block, ...otherBlocks, request, payout]);
    return cocoonBlock('cocoon_worker_payout', data, [...merge], payoutMsg.transaction.aborted);
  }
}

/** ExtProxyPayoutRequest -> payout to the proxy's owner + excesses (both required). */
export class CocoonProxyPayoutMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childrenMatchers: [labeled('payout', contract(CocoonPayout.opcode)), labeled('excesses', contract(CocoonReturnExcessesBack.opcode))] });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonExtProxyPayoutRequest.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let req: CocoonExtProxyPayoutRequest;
    try {
      req = new CocoonExtProxyPayoutRequest(block.getBody());
    } catch {
      return [];
    }
    const payout = getLabeled('payout', otherBlocks, CallContractBlock);
    if (payout === null) return [];
    const payoutMsg = payout.getMessage();
    const data: CocoonProxyPayoutData = {
      proxy_contract: accountId(block.getMessage().destination),
      proxy_owner: accountId(payoutMsg.destination),
      excesses_recipient: addrAccount(req.sendExcessesTo),
      query_id: req.queryId,
    };
    return cocoonBlock('cocoon_proxy_payout', data, [block, ...otherBlocks], payoutMsg.transaction.aborted);
  }
}

/** The proxy's signed ChargePayload -> excesses + a client proxy request (usually aborted; not the action's outcome). */
export class CocoonProxyChargeMatcher extends BlockMatcher {
  constructor() {
    super({
      optional: false,
      childrenMatchers: [labeled('excesses', contract(CocoonReturnExcessesBack.opcode)), labeled('client_request', contract(CocoonClientProxyRequest.opcode))],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonChargePayload.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let charge: CocoonChargePayload;
    try {
      charge = new CocoonChargePayload(block.getBody());
    } catch {
      return [];
    }
    const clientRequest = getLabeled('client_request', otherBlocks, CallContractBlock);
    if (clientRequest === null) return [];
    const start = block.getMessage();
    const data: CocoonChargeData = {
      proxy_contract: accountId(start.destination),
      client_contract: accountId(clientRequest.getMessage().destination),
      query_id: charge.queryId,
      new_tokens_used: charge.tokens,
      expected_address: expectedAddress(charge.expectedMyAddress),
    };
    return cocoonBlock('cocoon_proxy_charge', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/** ExtClientTopUp -> client proxy request (client -> proxy) -> excesses. */
export class CocoonClientTopUpMatcher extends BlockMatcher {
  constructor() {
    super({
      optional: false,
      childMatcher: labeled('proxy_request', new ContractMatcher(CocoonClientProxyRequest.opcode, {
        optional: false,
        childrenMatchers: [labeled('excesses', contract(CocoonReturnExcessesBack.opcode))],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonExtClientTopUp.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let topUp: CocoonExtClientTopUp;
    try {
      topUp = new CocoonExtClientTopUp(block.getBody());
    } catch {
      return [];
    }
    const proxyRequest = getLabeled('proxy_request', otherBlocks, CallContractBlock);
    if (proxyRequest === null) return [];
    const start = block.getMessage();
    const data: CocoonClientTopUpData = {
      client_contract: accountId(start.destination),
      proxy_contract: accountId(proxyRequest.getMessage().destination),
      sender: addrAccount(topUp.sendExcessesTo),
      query_id: topUp.queryId,
      top_up_amount: topUp.topUpAmount,
    };
    return cocoonBlock('cocoon_client_top_up', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/** RegisterProxy -> excesses. */
export class CocoonRegisterProxyMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childMatcher: labeled('excesses', contract(CocoonReturnExcessesBack.opcode)) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonRegisterProxy.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let reg: CocoonRegisterProxy;
    try {
      reg = new CocoonRegisterProxy(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonRegisterProxyData = { root_contract: accountId(start.destination), query_id: reg.queryId };
    return cocoonBlock('cocoon_register_proxy', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/** UnregisterProxy -> excesses. */
export class CocoonUnregisterProxyMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childMatcher: labeled('excesses', contract(CocoonReturnExcessesBack.opcode)) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonUnregisterProxy.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let unreg: CocoonUnregisterProxy;
    try {
      unreg = new CocoonUnregisterProxy(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonRegisterProxyData = { root_contract: accountId(start.destination), query_id: unreg.queryId, seqno: unreg.seqno };
    return cocoonBlock('cocoon_unregister_proxy', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/** An owner message to a client contract answered with excesses and a client proxy request. */
const ownerChildren = () => [labeled('excesses', contract(CocoonReturnExcessesBack.opcode)), labeled('client_request', contract(CocoonClientProxyRequest.opcode))];

export class CocoonClientRegisterMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childrenMatchers: ownerChildren() });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonOwnerClientRegister.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let reg: CocoonOwnerClientRegister;
    try {
      reg = new CocoonOwnerClientRegister(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonClientRegisterData = { client_contract: accountId(start.destination), owner: addrAccount(reg.sendExcessesTo), query_id: reg.queryId, nonce: reg.nonce };
    return cocoonBlock('cocoon_client_register', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

export class CocoonClientChangeSecretHashMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childrenMatchers: ownerChildren() });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonOwnerClientChangeSecretHash.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let chg: CocoonOwnerClientChangeSecretHash;
    try {
      chg = new CocoonOwnerClientChangeSecretHash(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonClientChangeSecretHashData = {
      client_contract: accountId(start.destination), owner: addrAccount(chg.sendExcessesTo), query_id: chg.queryId, new_secret_hash: chg.newSecretHash,
    };
    return cocoonBlock('cocoon_client_change_secret_hash', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/**
 * OwnerClientRequestRefund (directly, or sent by the owner's wallet contract: `via_wallet`) -> excesses + client
 * proxy request. Upstream also anchors on the wallet's message itself, which can never have those children (its
 * only child is the refund call): that arm is dead, and is kept so.
 */
export class CocoonClientRequestRefundMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, parentMatcher: labeled('wallet_wrapper', contract(CocoonOwnerWalletSendMessage.opcode, true)), childrenMatchers: ownerChildren() });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonOwnerWalletSendMessage.opcode) || isCall(block, CocoonOwnerClientRequestRefund.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const viaWallet = getLabeled('wallet_wrapper', otherBlocks, CallContractBlock) !== null;
    let refund: CocoonOwnerClientRequestRefund;
    try {
      refund = new CocoonOwnerClientRequestRefund(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonClientRequestRefundData = {
      client_contract: accountId(start.destination), owner: addrAccount(refund.sendExcessesTo), query_id: refund.queryId, via_wallet: viaWallet,
    };
    return cocoonBlock('cocoon_client_request_refund', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/** The proxy's signed GrantRefundPayload -> client proxy request -> payout of the refund + excesses. */
export class CocoonGrantRefundMatcher extends BlockMatcher {
  constructor() {
    super({
      optional: false,
      childMatcher: labeled('client_request', new ContractMatcher(CocoonClientProxyRequest.opcode, {
        optional: false,
        childrenMatchers: [labeled('payout', contract(CocoonPayout.opcode)), labeled('excesses', contract(CocoonReturnExcessesBack.opcode))],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonGrantRefundPayload.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let grant: CocoonGrantRefundPayload;
    try {
      grant = new CocoonGrantRefundPayload(block.getBody());
    } catch {
      return [];
    }
    const clientRequest = getLabeled('client_request', otherBlocks, CallContractBlock);
    const payout = getLabeled('payout', otherBlocks, CallContractBlock);
    if (clientRequest === null || payout === null) return [];
    const payoutMsg = payout.getMessage();
    const data: CocoonGrantRefundData = {
      proxy_contract: accountId(block.getMessage().destination),
      client_contract: accountId(clientRequest.getMessage().destination),
      refund_recipient: accountId(payoutMsg.destination),
      query_id: grant.queryId,
      new_tokens_used: grant.tokens,
      expected_address: expectedAddress(grant.expectedMyAddress),
      payout_amount: payoutMsg.value,
    };
    return cocoonBlock('cocoon_grant_refund', data, [block, ...otherBlocks], payoutMsg.transaction.aborted);
  }
}

/** OwnerClientIncreaseStake -> excesses + client proxy request. */
export class CocoonClientIncreaseStakeMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childrenMatchers: ownerChildren() });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonOwnerClientIncreaseStake.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let inc: CocoonOwnerClientIncreaseStake;
    try {
      inc = new CocoonOwnerClientIncreaseStake(block.getBody());
    } catch {
      return [];
    }
    const start = block.getMessage();
    const data: CocoonClientIncreaseStakeData = {
      owner: addrAccount(inc.sendExcessesTo), client_contract: accountId(start.destination), query_id: inc.queryId, new_stake: inc.newStake,
    };
    return cocoonBlock('cocoon_client_increase_stake', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

/**
 * The coins a withdrawal paid: the ClientProxyRefundGranted in the client proxy request's payload. Any read failure
 * (either opcode, a missing payload) gives none; the action then says 0.
 */
export function cocoonWithdrawAmount(clientRequest: Block): bigint | null {
  try {
    const req = new CocoonClientProxyRequest(clientRequest.getBody());
    if (req.payload === null) return null;
    return new CocoonClientProxyRefundGranted(req.payload.beginParse()).coins;
  } catch {
    return null;
  }
}

/** OwnerClientWithdraw -> client proxy request -> payout (required) + excesses (optional). */
export class CocoonClientWithdrawMatcher extends BlockMatcher {
  constructor() {
    super({
      optional: false,
      childMatcher: labeled('client_request', new ContractMatcher(CocoonClientProxyRequest.opcode, {
        optional: false,
        childrenMatchers: [labeled('excesses', contract(CocoonReturnExcessesBack.opcode, true)), labeled('payout', contract(CocoonPayout.opcode))],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CocoonOwnerClientWithdraw.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let wd: CocoonOwnerClientWithdraw;
    try {
      wd = new CocoonOwnerClientWithdraw(block.getBody());
    } catch {
      return [];
    }
    const clientRequest = getLabeled('client_request', otherBlocks, CallContractBlock);
    if (clientRequest === null) return [];
    const start = block.getMessage();
    const data: CocoonClientWithdrawData = {
      owner: addrAccount(wd.sendExcessesTo), client_contract: accountId(start.destination), query_id: wd.queryId,
      withdraw_amount: cocoonWithdrawAmount(clientRequest) ?? 0n,
    };
    return cocoonBlock('cocoon_client_withdraw', data, [block, ...otherBlocks], start.transaction.aborted);
  }
}

export const MATCHERS = {
  CocoonWorkerPayoutMatcher: new CocoonWorkerPayoutMatcher(),
  CocoonProxyPayoutMatcher: new CocoonProxyPayoutMatcher(),
  CocoonProxyChargeMatcher: new CocoonProxyChargeMatcher(),
  CocoonClientTopUpMatcher: new CocoonClientTopUpMatcher(),
  CocoonRegisterProxyMatcher: new CocoonRegisterProxyMatcher(),
  CocoonUnregisterProxyMatcher: new CocoonUnregisterProxyMatcher(),
  CocoonClientRegisterMatcher: new CocoonClientRegisterMatcher(),
  CocoonClientChangeSecretHashMatcher: new CocoonClientChangeSecretHashMatcher(),
  CocoonClientRequestRefundMatcher: new CocoonClientRequestRefundMatcher(),
  CocoonGrantRefundMatcher: new CocoonGrantRefundMatcher(),
  CocoonClientIncreaseStakeMatcher: new CocoonClientIncreaseStakeMatcher(),
  CocoonClientWithdrawMatcher: new CocoonClientWithdrawMatcher(),
};
