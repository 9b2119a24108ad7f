// Newer upstream's Telegram wallet key rotation (tgwallet.py at the "Tg wallet actions + w5 gasless" change) and
// gasless requests (basic_blocks.py's GaslessRequestBlock, event_processing.py's unwind_gasless_requests, the
// serializer's parent_gasless_action, as upstream's own C++ port of them states). toncenter's tg-wallet.yaml and
// gasless.yaml (whose traces we do not have) are the spec: change_wallet_key with no source for an external and the
// relayer and its value for a relayed one; a gasless_request action beside what the wallet then sent, that action
// untouched. Requests follow the contracts' layouts: the Telegram wallet's SignedRequest (signature first, then the
// opcode, subwallet, valid_until, seqno) and W5's signed internal request ('sint', then wallet_id, valid_until,
// seqno); the Telegram wallet's key change is signed with real Ed25519 keys.
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { ActionRow, Trace } from '../../src/actions/model.ts';
import { bodyOf } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

// the wallet and the relayer of toncenter's cases
const WALLET = '0:E55E63B850B71B8FF5AD44E1B8271237AFAF31900B2B6D41233707BB585B8091';
const RELAYER = '0:E15488B65F7E904F1D14C84AC6F603CCC4A404B03BEFB568D5F5CC8ED6866887';
const PAYEE = '0:274BBBC78DFA3093C1BDA033A0B7F649B6268E61C53E9E019CCFC4B17CACC251';
const NOW = 1_700_000_000;

function keyPair(): { pub: Buffer; priv: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { pub: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32), priv: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })) };
}
const OLD = keyPair(), NEW = keyPair();

/** SignedRequest<ChangePublicKeyRequest{I,E}>: the request signed by the old key, the rotation proof by the new one. */
function changeKey(opcode: number): Cell {
  const a = Address.parseRaw(WALLET);
  const proof = beginCell().storeUint(0x4b45595f524f544154494f4en, 96).storeInt(a.workChain, 8).storeBuffer(a.hash).endCell();
  const req = beginCell().storeUint(opcode, 32).storeUint(698983191, 32).storeUint(NOW + 60, 32).storeUint(4, 32).storeBuffer(NEW.pub)
    .storeRef(beginCell().storeBuffer(sign(null, proof.hash(), NEW.priv))).storeRef(beginCell().storeBuffer(Buffer.alloc(32, 7))).endCell();
  return beginCell().storeBuffer(sign(null, req.hash(), OLD.priv)).storeSlice(req.beginParse()).endCell();
}
/** A Telegram wallet request with its header (signature, opcode, subwallet, valid_until, seqno) and the rest. */
const tgRequest = (opcode: number) => beginCell().storeBuffer(Buffer.alloc(64, 0x5a)).storeUint(opcode, 32).storeUint(698983191, 32).storeUint(NOW + 60, 32)
  .storeUint(4, 32).storeUint(3, 8).endCell();
/** W5's signed request as an internal message: 'sint' wallet_id valid_until seqno ... (the opcode in the clear). */
const w5Request = () => beginCell().storeUint(0x73696e74, 32).storeUint(2147483409, 32).storeUint(NOW + 60, 32).storeUint(9, 32).storeBit(0).storeBit(0)
  .storeBuffer(Buffer.alloc(64, 0x33)).endCell();

const only = (t: Trace, type: string): ActionRow => {
  const all = classifyTrace(t).actions.filter((a) => a.type === type);
  expect(all, type).toHaveLength(1);
  return all[0];
};
const relayedBy = (body: Cell, out: TxSpec[] = [], aborted = false): Trace =>
  buildTrace({ account: RELAYER, from: null, out: [{ account: WALLET, from: RELAYER, body, value: 5_000_000n, aborted, out }] });

describe('change_wallet_key (tg-wallet.yaml)', () => {
  it('requested by an external: no source; the opcode read from behind the signature (the stored one is signature bits)', () => {
    const t = buildTrace({ account: WALLET, from: null, body: changeKey(0xfbba99c8) });
    expect(t.transactions[0].inMsg!.opcode).not.toBe(0xfbba99c8);
    const a = only(t, 'change_wallet_key');
    expect(a).toMatchObject({ success: true, source: null, destination: WALLET, accounts: [WALLET], parent_gasless_action: null });
    expect(a.tx_hashes).toHaveLength(1);
    // an external is no gasless request
    expect(classifyTrace(t).actions.map((x) => x.type)).toEqual(['change_wallet_key']);
  });

  it('requested by an internal message: the relayer and its value; no interface, no storage proof needed', () => {
    const t = relayedBy(changeKey(0xfbba99c7));
    const a = only(t, 'change_wallet_key');
    expect(a).toMatchObject({ success: true, source: RELAYER, destination: WALLET, value: 5_000_000n });
    expect([...a.accounts].sort()).toEqual([RELAYER, WALLET].sort());
    expect(a.tx_hashes).toHaveLength(2);
    // a v1 op: the request's marker is not its child action, it is unwound to the top and names nothing itself
    const marker = only(t, 'gasless_request');
    expect(marker).toMatchObject({ source: RELAYER, destination: WALLET, value: 5_000_000n, parent_action_id: null, parent_gasless_action: null });
    // the key change is the relayed request itself: it names the marker
    expect(a.parent_gasless_action).toBe(marker.action_id);
  });

  it('either opcode in either kind of message, and the call\'s own failed flag (a valueless external one never fails, as upstream)', () => {
    expect(only(relayedBy(changeKey(0xfbba99c8)), 'change_wallet_key').source).toBe(RELAYER);
    expect(only(buildTrace({ account: WALLET, from: null, body: changeKey(0xfbba99c7) }), 'change_wallet_key').source).toBeNull();
    expect(only(relayedBy(changeKey(0xfbba99c7), [], true), 'change_wallet_key').success).toBe(false);
    // CallContractBlock clears the flag of a failed call that moved no value: an aborted external rotation reads as done
    expect(only(buildTrace({ account: WALLET, from: null, body: changeKey(0xfbba99c8), aborted: true }), 'change_wallet_key').success).toBe(true);
  });

  it('another Telegram wallet request is no key change', () => {
    expect(classifyTrace(relayedBy(tgRequest(0x73896e74))).actions.map((a) => a.type)).not.toContain('change_wallet_key');
  });
});

describe('gasless requests (gasless.yaml)', () => {
  it('a relayed Telegram wallet bulk send: the marker beside the wallet\'s own transfer, which names it', () => {
    const t = relayedBy(tgRequest(0x73896e74), [{ account: PAYEE, from: WALLET, value: 1_000_000n }]);
    const marker = only(t, 'gasless_request');
    expect(marker).toMatchObject({ success: true, source: RELAYER, destination: WALLET, value: 5_000_000n, opcode: null });
    expect([...marker.accounts].sort()).toEqual([RELAYER, WALLET].sort());
    expect(marker.tx_hashes).toHaveLength(2);
    const transfer = only(t, 'ton_transfer');
    expect(transfer).toMatchObject({ success: true, source: WALLET, destination: PAYEE, value: 1_000_000n, parent_gasless_action: marker.action_id });
    // the request itself stays a call (its opcode the request's): it does not name the marker, the marker is its node's
    const call = classifyTrace(t).actions.find((a) => a.type === 'call_contract' && a.destination === WALLET)!;
    expect(call).toMatchObject({ opcode: 0x73896e74 | 0, parent_gasless_action: null });
    // API v3 serves the marker's id (base64) on the actions that come from it
    expect(toApiAction(transfer).parent_gasless_action).toBe(marker.action_id);
    expect(toApiAction(marker)).not.toHaveProperty('parent_gasless_action');
  });

  it('a relayed W5 request (\'sint\'): the wallet\'s jetton transfer stays its own action, naming the marker; deeper steps do not', () => {
    const F = 'rbzKlyNgAhDnQ15r4tremaPVl_xURNgmSJQSyhGLSX4=.json'; // a real jetton transfer's bodies (Tonstakers deposit trace)
    const JW = addr(0, 'c1'), RJW = addr(0, 'c2'), OWNER = addr(0, 'c3'), MINTER = addr(0, 'c4');
    const t = buildTrace({
      account: RELAYER, from: null, out: [{
        account: WALLET, from: RELAYER, value: 25_583_249n, body: w5Request(), out: [{
          // transfer#0f8a7ea5 query_id amount destination response_destination custom_payload forward_ton_amount forward_payload
          account: JW, from: WALLET, body: beginCell().storeUint(0x0f8a7ea5, 32).storeUint(0, 64).storeCoins(2_093_172n)
            .storeAddress(Address.parseRaw(OWNER)).storeAddress(Address.parseRaw(WALLET)).storeBit(0).storeCoins(1n).storeBit(0).endCell(),
          out: [{ account: RJW, from: JW, body: bodyOf(F, 0x178d4519), out: [{ account: OWNER, from: RJW, body: bodyOf(F, 0x7362d09c), out: [{ account: PAYEE, from: OWNER, value: 1n }] }] }],
        }],
      }],
    }, { interfaces: { [JW]: { raw: { JettonWallet: { owner: WALLET, jetton: MINTER, balance: 0 } } }, [RJW]: { raw: { JettonWallet: { owner: OWNER, jetton: MINTER, balance: 0 } } } } });
    const marker = only(t, 'gasless_request');
    expect(marker).toMatchObject({ source: RELAYER, destination: WALLET, value: 25_583_249n });
    const jt = only(t, 'jetton_transfer');
    expect(jt).toMatchObject({ source: WALLET, source_secondary: JW, destination: OWNER, destination_secondary: RJW, parent_gasless_action: marker.action_id });
    // what the receiver did next is its own step
    expect(only(t, 'ton_transfer').parent_gasless_action).toBeNull();
  });

  it('a request relayed on by a relayed wallet: the inner marker names the outer one', () => {
    const OTHER = addr(0, 'd1');
    const t = relayedBy(w5Request(), [{ account: OTHER, from: WALLET, value: 7n, body: tgRequest(0x63896e74), out: [{ account: PAYEE, from: OTHER, value: 1n }] }]);
    const markers = classifyTrace(t).actions.filter((a) => a.type === 'gasless_request');
    expect(markers).toHaveLength(2);
    const outer = markers.find((m) => m.destination === WALLET)!, inner = markers.find((m) => m.destination === OTHER)!;
    expect(outer.parent_gasless_action).toBeNull();
    expect(inner.parent_gasless_action).toBe(outer.action_id);
    expect(only(t, 'ton_transfer').parent_gasless_action).toBe(inner.action_id);
  });

  it('externals and plain internal calls carry no marker', () => {
    const types = (t: Trace) => classifyTrace(t).actions.map((a) => a.type);
    expect(types(buildTrace({ account: WALLET, from: null, body: tgRequest(0x73896e75), out: [{ account: PAYEE, from: WALLET, value: 1n }] }))).not.toContain('gasless_request');
    expect(types(relayedBy(beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell()))).not.toContain('gasless_request');
    // the external opcode of a Telegram wallet request is no gasless request even when it comes as an internal message
    expect(types(relayedBy(tgRequest(0x73896e75)))).not.toContain('gasless_request');
  });
});
