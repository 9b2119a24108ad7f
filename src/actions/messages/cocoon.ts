/**
 * ↔ indexer/events/blocks/messages/cocoon.py: the Cocoon (TON AI network) message layouts the matchers read. Every
 * constructor asserts its opcode first, as upstream's do, so a body of another kind fails to read.
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

function expectOp(s: Slice, opcode: number): void {
  const op = s.loadUint(32) >>> 0;
  if (op !== opcode) throw new Error(`AssertionError: opcode 0x${op.toString(16)} is not 0x${opcode.toString(16)}`);
}

export class CocoonReturnExcessesBack {
  static readonly opcode = 0x2565934c;
  queryId: bigint;
  constructor(s: Slice) {
    expectOp(s, CocoonReturnExcessesBack.opcode);
    this.queryId = s.loadUintBig(64);
  }
}

export class CocoonPayout {
  static readonly opcode = 0xc59a7cd3;
  queryId: bigint;
  constructor(s: Slice) {
    expectOp(s, CocoonPayout.opcode);
    this.queryId = s.loadUintBig(64);
  }
}

/** WorkerProxyRequest { queryId: uint64 ownerAddress: address state: uint2 tokens: uint64 payload: cell? } */
export class CocoonWorkerProxyRequest {
  static readonly opcode = 0x4d725d2c;
  queryId: bigint;
  ownerAddress: Addr;
  state: number;
  tokens: bigint;
  payload: Cell | null;
  constructor(s: Slice) {
    expectOp(s, CocoonWorkerProxyRequest.opcode);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.state = s.loadUint(2);
    this.tokens = s.loadUintBig(64);
    this.payload = s.loadMaybeRef();
  }
}

/** ClientProxyRequest { queryId: uint64 ownerAddress: address stateData: Cell<ClientStateData> payload: cell? } */
export class CocoonClientProxyRequest {
  static readonly opcode = 0x65448ff4;
  queryId: bigint;
  ownerAddress: Addr;
  stateData: Cell;
  payload: Cell | null;
  constructor(s: Slice) {
    expectOp(s, CocoonClientProxyRequest.opcode);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.stateData = s.loadRef();
    this.payload = s.loadMaybeRef();
  }
}

/** ClientProxyRefundGranted { coins: coins sendExcessesTo: address } (carried in a ClientProxyRequest's payload) */
export class CocoonClientProxyRefundGranted {
  static readonly opcode = 0xc68ebc7b;
  coins: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice) {
    expectOp(s, CocoonClientProxyRefundGranted.opcode);
    this.coins = s.loadCoins();
    this.sendExcessesTo = loadAddress(s);
  }
}

/** PayoutPayload / LastPayoutPayload / ChargePayload / GrantRefundPayload { queryId: uint64 tokens: uint64 expectedMyAddress: address } */
class SignedPayloadLayout {
  queryId: bigint;
  tokens: bigint;
  expectedMyAddress: Addr;
  constructor(s: Slice, opcode: number) {
    expectOp(s, opcode);
    this.queryId = s.loadUintBig(64);
    this.tokens = s.loadUintBig(64);
    this.expectedMyAddress = loadAddress(s);
  }
}
export class CocoonPayoutPayload extends SignedPayloadLayout {
  static readonly opcode = 0xa040ad28;
  constructor(s: Slice) {
    super(s, CocoonPayoutPayload.opcode);
  }
}
export class CocoonLastPayoutPayload extends SignedPayloadLayout {
  static readonly opcode = 0xf5f26a36;
  constructor(s: Slice) {
    super(s, CocoonLastPayoutPayload.opcode);
  }
}
export class CocoonChargePayload extends SignedPayloadLayout {
  static readonly opcode = 0xbb63ff93;
  constructor(s: Slice) {
    super(s, CocoonChargePayload.opcode);
  }
}
export class CocoonGrantRefundPayload extends SignedPayloadLayout {
  static readonly opcode = 0xefd711e1;
  constructor(s: Slice) {
    super(s, CocoonGrantRefundPayload.opcode);
  }
}

/** { queryId: uint64 sendExcessesTo: address } */
class ExcessesToLayout {
  queryId: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice, opcode: number) {
    expectOp(s, opcode);
    this.queryId = s.loadUintBig(64);
    this.sendExcessesTo = loadAddress(s);
  }
}
export class CocoonExtProxyPayoutRequest extends ExcessesToLayout {
  static readonly opcode = 0x7610e6eb;
  constructor(s: Slice) {
    super(s, CocoonExtProxyPayoutRequest.opcode);
  }
}
export class CocoonOwnerClientWithdraw extends ExcessesToLayout {
  static readonly opcode = 0xda068e78;
  constructor(s: Slice) {
    super(s, CocoonOwnerClientWithdraw.opcode);
  }
}
export class CocoonOwnerClientRequestRefund extends ExcessesToLayout {
  static readonly opcode = 0xfafa6cc1;
  constructor(s: Slice) {
    super(s, CocoonOwnerClientRequestRefund.opcode);
  }
}

/** ExtClientTopUp { queryId: uint64 topUpAmount: coins sendExcessesTo: address } */
export class CocoonExtClientTopUp {
  static readonly opcode = 0xf172e6c2;
  queryId: bigint;
  topUpAmount: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice) {
    expectOp(s, CocoonExtClientTopUp.opcode);
    this.queryId = s.loadUintBig(64);
    this.topUpAmount = s.loadCoins();
    this.sendExcessesTo = loadAddress(s);
  }
}

/** RegisterProxy { queryId: uint64 proxyInfo: RemainingBitsAndRefs } */
export class CocoonRegisterProxy {
  static readonly opcode = 0x927c7cb5;
  queryId: bigint;
  constructor(s: Slice) {
    expectOp(s, CocoonRegisterProxy.opcode);
    this.queryId = s.loadUintBig(64);
  }
}

/** UnregisterProxy { queryId: uint64 seqno: uint32 } */
export class CocoonUnregisterProxy {
  static readonly opcode = 0x6d49eaf2;
  queryId: bigint;
  seqno: number;
  constructor(s: Slice) {
    expectOp(s, CocoonUnregisterProxy.opcode);
    this.queryId = s.loadUintBig(64);
    this.seqno = s.loadUint(32);
  }
}

/** OwnerClientRegister { queryId: uint64 nonce: uint64 sendExcessesTo: address } */
export class CocoonOwnerClientRegister {
  static readonly opcode = 0xc45f9f3b;
  queryId: bigint;
  nonce: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice) {
    expectOp(s, CocoonOwnerClientRegister.opcode);
    this.queryId = s.loadUintBig(64);
    this.nonce = s.loadUintBig(64);
    this.sendExcessesTo = loadAddress(s);
  }
}

/** OwnerClientChangeSecretHash { queryId: uint64 newSecretHash: uint256 sendExcessesTo: address } */
export class CocoonOwnerClientChangeSecretHash {
  static readonly opcode = 0xa9357034;
  queryId: bigint;
  newSecretHash: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice) {
    expectOp(s, CocoonOwnerClientChangeSecretHash.opcode);
    this.queryId = s.loadUintBig(64);
    this.newSecretHash = s.loadUintBig(256);
    this.sendExcessesTo = loadAddress(s);
  }
}

/** OwnerClientIncreaseStake { queryId: uint64 newStake: coins sendExcessesTo: address } */
export class CocoonOwnerClientIncreaseStake {
  static readonly opcode = 0x6a1f6a60;
  queryId: bigint;
  newStake: bigint;
  sendExcessesTo: Addr;
  constructor(s: Slice) {
    expectOp(s, CocoonOwnerClientIncreaseStake.opcode);
    this.queryId = s.loadUintBig(64);
    this.newStake = s.loadCoins();
    this.sendExcessesTo = loadAddress(s);
  }
}

/** OwnerWalletSendMessage { queryId: uint64 mode: uint8 body: cell } */
export const CocoonOwnerWalletSendMessage = { opcode: 0x9c69f376 } as const;
