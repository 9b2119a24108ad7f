// tgwallet.py (newer upstream): Telegram wallet key rotation. toncenter's tg-wallet.yaml (whose traces we do not
// have) is the spec of the external and the relayed (internal) cases: change_wallet_key, source null for the
// external, the relayer and its value for the internal one. The requests are built from the contract's messages.tolk
// layout and signed with real Ed25519 keys, so the signature checks run for real.
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace } from '../../src/actions/index.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { buildTrace } from './trace-builder.ts';

const WALLET = '0:E55E63B850B71B8FF5AD44E1B8271237AFAF31900B2B6D41233707BB585B8091';
const RELAYER = '0:E15488B65F7E904F1D14C84AC6F603CCC4A404B03BEFB568D5F5CC8ED6866887';
const NOW = 1_700_000_000;

function keyPair(): { pub: Buffer; priv: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { pub: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32), priv: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })) };
}
const OLD = keyPair(), NEW = keyPair();

/** SignedRequest<ChangePublicKeyRequest{I,E}>: the request signed by `signer`, the rotation proof by the new key. */
function request(opcode: number, opts: { seqno?: number; validUntil?: number; signer?: KeyObject; proofSigner?: KeyObject } = {}): Cell {
  const a = Address.parseRaw(WALLET);
  const proof = beginCell().storeUint(0x4b45595f524f544154494f4en, 96).storeInt(a.workChain, 8).storeBuffer(a.hash).endCell();
  const rotationSig = sign(null, proof.hash(), opts.proofSigner ?? NEW.priv);
  const req = beginCell().storeUint(opcode, 32).storeUint(698983191, 32).storeUint(opts.validUntil ?? NOW + 60, 32).storeUint(opts.seqno ?? 4, 32).storeBuffer(NEW.pub)
    .storeRef(beginCell().storeBuffer(rotationSig)).storeRef(beginCell().storeBuffer(Buffer.alloc(32, 7))).endCell();
  const sig = sign(null, req.hash(), opts.signer ?? OLD.priv);
  return beginCell().storeBuffer(sig).storeSlice(req.beginParse()).endCell();
}
/** WalletTg storage: revision:uint8 seqno:uint32 subwalletId:uint32 publicKey:uint256 */
const storage = (seqno: number, pub: Buffer) => beginCell().storeUint(0, 8).storeUint(seqno, 32).storeUint(698983191, 32).storeBuffer(pub).endCell().toBoc().toString('base64');

const tgWallet = (extra: Record<string, unknown> = {}): Record<string, AccountInterfaces> => ({ [WALLET]: { raw: { TgWallet: {}, ...extra } } });
const types = (t: Trace) => classifyTrace(t).actions.map((x) => x.type);
const withNow = (t: Trace): Trace => ({ ...t, transactions: t.transactions.map((x) => ({ ...x, now: NOW })) });

describe('change_wallet_key', () => {
  const external = (interfaces: Record<string, AccountInterfaces>, aborted = false) => withNow(buildTrace({ account: WALLET, from: null, body: request(0xfbba99c8), aborted }, { interfaces }));
  const relayed = (interfaces: Record<string, AccountInterfaces>, body = request(0xfbba99c7)) =>
    withNow(buildTrace({ account: RELAYER, from: null, out: [{ account: WALLET, from: RELAYER, body, value: 5_000_000n }] }, { interfaces }));

  it('requested by an external: no source (toncenter\'s case "requested by external message")', () => {
    const [a, ...rest] = classifyTrace(external(tgWallet())).actions;
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ type: 'change_wallet_key', success: true, source: null, destination: WALLET, accounts: [WALLET] });
    expect(a.tx_hashes).toHaveLength(1);
  });

  it('not a Telegram wallet, or the external failed: no key change', () => {
    expect(types(external({}))).not.toContain('change_wallet_key');
    expect(types(external(tgWallet(), true))).not.toContain('change_wallet_key');
  });

  it('relayed (internal), confirmed by the latest storage holding the new key with a later seqno (toncenter\'s "requested by internal message")', () => {
    const [a] = classifyTrace(relayed(tgWallet({ data_boc: storage(5, NEW.pub) }))).actions;
    expect(a).toMatchObject({ type: 'change_wallet_key', success: true, source: RELAYER, destination: WALLET, value: 5_000_000n });
    expect(a.accounts.sort()).toEqual([RELAYER, WALLET].sort());
    expect(a.tx_hashes).toHaveLength(2);
  });

  it('relayed, the storage still before the rotation: the old key must have signed the request at its seqno', () => {
    expect(types(relayed(tgWallet({ data_boc: storage(4, OLD.pub) })))).toContain('change_wallet_key');
    // signed by another key: the contract ignores it (its transaction succeeds all the same)
    expect(types(relayed(tgWallet({ data_boc: storage(4, OLD.pub) }), request(0xfbba99c7, { signer: keyPair().priv })))).not.toContain('change_wallet_key');
    expect(types(relayed(tgWallet({ data_boc: storage(3, OLD.pub) })))).not.toContain('change_wallet_key');
  });

  it('relayed, refused: a proof not by the new key, an expired request, no storage at all', () => {
    expect(types(relayed(tgWallet({ data_boc: storage(5, NEW.pub) }), request(0xfbba99c7, { proofSigner: OLD.priv })))).not.toContain('change_wallet_key');
    expect(types(relayed(tgWallet({ data_boc: storage(5, NEW.pub) }), request(0xfbba99c7, { validUntil: NOW })))).not.toContain('change_wallet_key');
    expect(types(relayed(tgWallet()))).not.toContain('change_wallet_key');
  });

  it('relayed, confirmed by the account states before and after (their data hashes differ)', () => {
    const t = relayed(tgWallet({ account_states: { states: { h1: { data_hash: 'aa' }, h2: { data_hash: 'bb' } } } }));
    const tx = t.transactions.find((x) => x.account === WALLET)! as unknown as Record<string, unknown>;
    tx.accountStateHashBefore = 'h1';
    tx.accountStateHashAfter = 'h2';
    expect(types(t)).toContain('change_wallet_key');
    tx.accountStateHashAfter = 'h1';
    expect(types(t)).not.toContain('change_wallet_key');
  });

  it('the external opcode sent as an internal message (or the reverse) is no rotation', () => {
    expect(types(relayed(tgWallet({ data_boc: storage(5, NEW.pub) }), request(0xfbba99c8)))).not.toContain('change_wallet_key');
    expect(types(withNow(buildTrace({ account: WALLET, from: null, body: request(0xfbba99c7) }, { interfaces: tgWallet() })))).not.toContain('change_wallet_key');
  });
});

