/**
 * ↔ indexer/events/blocks/messages/multisig.py: multisig v2 (ton-blockchain/multisig-contract-v2) messages, with
 * upstream's widths (order_seqno read as uint256 everywhere).
 */
import { Dictionary, type Cell, type Slice } from '@ton/core';
import { loadAddress } from './common.ts';

/** new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48 order:^Order */
export class MultisigNewOrder {
  static readonly opcode = 0xf718510f;
  queryId: bigint;
  orderSeqno: bigint;
  isSigner: boolean;
  signerIndex: number;
  expirationDate: number;
  order: Cell;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.orderSeqno = s.loadUintBig(256);
    this.isSigner = s.loadBit();
    this.signerIndex = s.loadUint(8);
    this.expirationDate = s.loadUint(48);
    this.order = s.loadRef();
  }
}

/**
 * init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48 order:^Order
 *   approve_on_init:(## 1) signer_index:approve_on_init?uint8, read as upstream reads it: the signers with pytoniq's
 * `load_dict`, i.e. as a HashmapE (a presence bit, then a ref). The contract stores the dictionary as a plain ref, so
 * the bit taken is the expiration date's first one, the "order" is the signers cell and the later fields are
 * shifted by a bit (upstream's `order_boc` of a created order is the signers dictionary, and `approve_on_init` is
 * the top bit of what follows).
 */
export class MultisigInitOrder {
  static readonly opcode = 0x9c73fba2;
  queryId: bigint;
  threshold: number;
  signers: Map<number, unknown>;
  expirationDate: number;
  order: Cell;
  approveOnInit: boolean;
  signerIndex: number;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.threshold = s.loadUint(8);
    this.signers = new Map();
    if (s.loadBit()) {
      const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), { serialize: () => { throw new Error('read only'); }, parse: (v) => loadAddress(v) }, s.loadRef());
      for (const [k, v] of dict) this.signers.set(k, v);
    }
    this.expirationDate = s.loadUint(48);
    this.order = s.loadRef();
    this.approveOnInit = s.loadBit();
    this.signerIndex = this.approveOnInit ? s.loadUint(8) : -1;
  }
}

/** approve#a762230f query_id:uint64 signer_index:uint8; or the text comment "approve". */
export class MultisigApprove {
  static readonly opcode = 0xa762230f;
  static readonly comment = 'approve';
  queryId: bigint;
  signerIndex: number;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.signerIndex = s.loadUint(8);
  }
}

/** approve_accepted#82609bf6 query_id:uint64 */
export const MultisigApproveAccepted = { opcode: 0x82609bf6 } as const;

/** approve_rejected#afaf283e query_id:uint64 exit_code:uint32 */
export class MultisigApproveRejected {
  static readonly opcode = 0xafaf283e;
  exitCode: number;
  constructor(s: Slice) {
    s.loadUint(32);
    s.loadUintBig(64);
    this.exitCode = s.loadUint(32);
  }
}

/** execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order */
export class MultisigExecute {
  static readonly opcode = 0x75097f5d;
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: Cell;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.orderSeqno = s.loadUintBig(256);
    this.expirationDate = s.loadUint(48);
    this.approvalsNum = s.loadUint(8);
    this.signersHash = s.loadBuffer(32);
    this.order = s.loadRef();
  }
}
