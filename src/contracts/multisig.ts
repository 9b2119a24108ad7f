/**
 * Multisig v2 wallets and orders (ton-blockchain/multisig-contract-v2), read by their exact data layouts
 * (contracts/multisig.func, contracts/order.func, sizes from contracts/types.func), so that a state whose code is
 * pruned from the block still yields a row. What the get-methods return is the same data:
 *
 *   multisig: next_order_seqno:uintS threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) signers_num:uint8
 *             proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool
 *             get_multisig_data -> (allow_arbitrary ? -1 : next_order_seqno, threshold, signers, proposers)
 *   order:    multisig_address:MsgAddressInt order_seqno:uintS, then (once initialised) threshold:uint8
 *             executed?:Bool signers:^(Hashmap 8 MsgAddressInt) approvals_mask:uint256 approvals_num:uint8
 *             expiration_date:uint48 order:^(Hashmap 8 ^Action)
 *
 * S (ORDER_SEQNO_SIZE) is 256 in the released contract deployed on mainnet (code hash d3d14da9..., wrappers'
 * `Params.bitsize.orderSeqno`) and 32 in later sources (contracts/types.func): the layout that reads exactly wins.
 * A dictionary the block pruned reads as null.
 */
import type { Cell } from '@ton/core';
import { addressList, exactly, loadRawAddress } from './layout.ts';

export interface MultisigData {
  nextOrderSeqno: bigint | null;
  threshold: number;
  signers: string[] | null;
  proposers: string[] | null;
}

const SEQNO_SIZES = [256, 32];

export function parseMultisigData(data: Cell): MultisigData | null {
  for (const size of SEQNO_SIZES) {
    const d = multisigWith(data, size);
    if (d) return d;
  }
  return null;
}

function multisigWith(data: Cell, seqnoSize: number): MultisigData | null {
  return exactly(data, (s) => {
    const next = s.loadUintBig(seqnoSize);
    const threshold = s.loadUint(8);
    const signers = s.loadRef();
    s.loadUint(8); // signers_num
    const proposers = s.loadMaybeRef();
    const arbitrary = s.loadBit();
    return { nextOrderSeqno: arbitrary ? null : next, threshold, signers: addressList(signers), proposers: addressList(proposers) };
  });
}

export interface OrderData {
  multisig: string;
  orderSeqno: bigint;
  /** null until the multisig initialised the order */
  init: { threshold: number; executed: boolean; signers: string[] | null; approvalsMask: bigint; approvalsNum: number; expirationDate: number; order: Cell } | null;
}

export function parseOrderData(data: Cell): OrderData | null {
  for (const size of SEQNO_SIZES) {
    const d = orderWith(data, size);
    if (d) return d;
  }
  return null;
}

function orderWith(data: Cell, seqnoSize: number): OrderData | null {
  return exactly(data, (s) => {
    const multisig = loadRawAddress(s);
    if (!multisig) throw new Error('order without multisig address');
    const orderSeqno = s.loadUintBig(seqnoSize);
    if (s.remainingBits === 0 && s.remainingRefs === 0) return { multisig, orderSeqno, init: null };
    return {
      multisig,
      orderSeqno,
      init: {
        threshold: s.loadUint(8),
        executed: s.loadBit(),
        signers: addressList(s.loadRef()),
        approvalsMask: s.loadUintBig(256),
        approvalsNum: s.loadUint(8),
        expirationDate: s.loadUint(48),
        order: s.loadRef(),
      },
    };
  });
}
