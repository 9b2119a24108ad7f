/** TEP-62 NFT message bodies. */
import { bocB64, loadAddr, parseBody } from './cells.ts';
import { tryForwardPayload, type ForwardPayload } from './jetton.ts';
import { OP } from './opcodes.ts';

// transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
//   custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface NftTransferMsg {
  queryId: bigint;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: ForwardPayload | null;
}
export function parseNftTransfer(body: string | null | undefined): NftTransferMsg | null {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.nftTransfer) throw new Error('not an nft transfer');
    const queryId = s.loadUintBig(64);
    const newOwner = loadAddr(s);
    const responseDestination = loadAddr(s);
    const cp = s.loadMaybeRef();
    const forwardAmount = s.loadCoins();
    const fp = tryForwardPayload(s);
    return { queryId, newOwner, responseDestination, customPayload: cp ? bocB64(cp) : null, forwardAmount, forwardPayload: fp };
  });
}

// ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface NftOwnershipAssignedMsg {
  queryId: bigint;
  prevOwner: string | null;
  forwardPayload: ForwardPayload | null;
}
export function parseNftOwnershipAssigned(body: string | null | undefined): NftOwnershipAssignedMsg | null {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.nftOwnershipAssigned) throw new Error('not ownership_assigned');
    const queryId = s.loadUintBig(64);
    const prevOwner = loadAddr(s);
    const fp = tryForwardPayload(s);
    return { queryId, prevOwner, forwardPayload: fp };
  });
}
