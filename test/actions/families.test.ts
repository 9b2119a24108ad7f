// Families without a real trace in the fixtures (DNS records, elections, wallet-v4 subscriptions, nominator pools,
// auction bids): the fixtures hold no such transaction (their masterchain blocks carry only tick-tocks and the
// elector's fee collection), so each trace here is BUILT from the contracts' message layouts: every body below is
// written from the TL-B / FunC source named next to it, and the identifying code hashes are computed from the
// real contract code in test/fixtures/codes. Expected details follow API v3 §4.3.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction, type ActionRow } from '../../src/actions/index.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const FIX = new URL('../fixtures/', import.meta.url).pathname;
const codeHash = (f: string) => Cell.fromBoc(readFileSync(join(FIX, 'codes', f)))[0].hash().toString('hex');
const A = (raw: string) => Address.parseRaw(raw);
const TON = 1_000_000_000n;
const ext = (account: string, out: TxSpec[]): TxSpec => ({ account, from: null, body: beginCell().storeUint(0, 32).endCell(), out });
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const only = (rows: ActionRow[], type: string) => {
  const r = rows.filter((a) => a.type === type);
  expect(r, `${type} in ${rows.map((a) => a.type).join(',')}`).toHaveLength(1);
  return r[0];
};

describe('DNS records (change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:^DNSRecord?)', () => {
  const OWNER = addr(0, 'a1'), ITEM = addr(0, 'd1'), COLLECTION = addr(0, 'c1'), WALLET = addr(0, 'e1');
  const key = createHash('sha256').update('wallet').digest(); // TEP-81: a category is sha256 of its name
  const change = (value: Cell | null, k: Buffer = key) => {
    const b = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(7, 64).storeBuffer(k);
    return (value ? b.storeRef(value) : b).endCell();
  };
  const interfaces = { [ITEM]: { nftItem: { index: 1n, collection: COLLECTION, owner: OWNER } } };
  const classify = (body: Cell, opts: Partial<TxSpec> = {}) =>
    classifyTrace(buildTrace(ext(OWNER, [{ account: ITEM, from: OWNER, value: TON / 20n, body, ...opts }]), { interfaces })).actions;

  it('dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8): change_dns with the wallet record', () => {
    const rec = beginCell().storeUint(0x9fd3, 16).storeAddress(A(WALLET)).storeUint(0, 8).endCell();
    const a = only(classify(change(rec)), 'change_dns');
    expect(a.success).toBe(true);
    expect(toApiAction(a).details).toEqual({
      key: key.toString('hex'),
      value: { sum_type: 'DNSSmcAddress', dns_smc_address: WALLET, dns_adnl_address: null, dns_text: null, dns_next_resolver_address: null, dns_storage_address: null, flags: 0 },
      source: OWNER, asset: ITEM, nft_collection: COLLECTION,
    });
  });
  it('dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) and dns_text#1eda (chunks, len, data)', () => {
    const adnl = Buffer.alloc(32, 0x5a);
    const a = only(classify(change(beginCell().storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8).endCell())), 'change_dns');
    expect(toApiAction(a).details).toMatchObject({ value: { sum_type: 'DNSAdnlAddress', dns_adnl_address: adnl.toString('hex'), flags: 0 } });
    const text = beginCell().storeUint(0x1eda, 16).storeUint(1, 8).storeUint(5, 8).storeBuffer(Buffer.from('hello')).endCell();
    const t = only(classify(change(text)), 'change_dns');
    // the reference renders a DNSText value in dns_storage_address (Go parse/actions.go)
    expect(toApiAction(t).details).toMatchObject({ value: { sum_type: 'DNSText', dns_storage_address: 'hello', dns_text: null } });
  });
  it('no value: a zero key renews the domain, another key deletes the record', () => {
    const r = only(classify(change(null, Buffer.alloc(32))), 'renew_dns');
    expect(toApiAction(r).details).toEqual({ source: OWNER, asset: ITEM, nft_collection: COLLECTION });
    const d = only(classify(change(null)), 'delete_dns');
    expect(toApiAction(d).details).toEqual({ hash: key.toString('hex'), source: OWNER, asset: ITEM, nft_collection: COLLECTION });
  });
  it('a request the item refuses (aborted, bounced back) is a failed change_dns owning its bounce', () => {
    const rec = beginCell().storeUint(0xba93, 16).storeAddress(A(WALLET)).endCell();
    const bounce: TxSpec = { account: OWNER, from: ITEM, bounced: true, body: beginCell().storeUint(0xffffffff, 32).storeUint(0x4eb1f0f9, 32).endCell() };
    const rows = classify(change(rec), { aborted: true, out: [bounce] });
    const a = only(rows, 'change_dns');
    expect(a.success).toBe(false);
    expect(a.tx_hashes).toHaveLength(3); // wallet (initiating), item, bounce back to the wallet
    expect(rows.map((x) => x.type)).not.toContain('call_contract');
  });
});

describe('elections (elector-code.fc: new_stake 0x4e73744b / recover_stake 0x47657424 and the elector\'s answers)', () => {
  const VALIDATOR = addr(-1, 'a2'), ELECTOR = addr(-1, '33');
  // new_stake query_id:uint64 validator_pubkey:bits256 stake_at:uint32 max_factor:uint32 adnl_addr:bits256 ^signature
  const newStake = beginCell().storeUint(0x4e73744b, 32).storeUint(1700000000, 64).storeBuffer(Buffer.alloc(32, 1)).storeUint(1700001000, 32)
    .storeUint(3 << 16, 32).storeBuffer(Buffer.alloc(32, 2)).storeRef(beginCell().storeBuffer(Buffer.alloc(64, 3))).endCell();
  // send_message_back: ans_tag:uint32 query_id:uint64 [body:uint32]
  const answer = (tag: number, value: bigint): TxSpec => ({ account: VALIDATOR, from: ELECTOR, value, body: beginCell().storeUint(tag, 32).storeUint(1700000000, 64).storeUint(0, 32).endCell() });
  const stake = 300_000n * TON;

  it('new_stake confirmed (0xf374484c) is a successful election_deposit of the stake sent', () => {
    const rows = classifyTrace(buildTrace(ext(VALIDATOR, [{ account: ELECTOR, from: VALIDATOR, value: stake, body: newStake, out: [answer(0xf374484c, TON)] }]))).actions;
    const a = only(rows, 'election_deposit');
    expect(a.success).toBe(true);
    expect(toApiAction(a).details).toEqual({ stake_holder: VALIDATOR, amount: stake.toString() });
  });
  it('new_stake answered with return_stake (0xee6f454c) is a failed deposit', () => {
    const rows = classifyTrace(buildTrace(ext(VALIDATOR, [{ account: ELECTOR, from: VALIDATOR, value: stake, body: newStake, out: [answer(0xee6f454c, stake)] }]))).actions;
    expect(only(rows, 'election_deposit').success).toBe(false);
  });
  it('recover_stake paid (0xf96f7324): the amount is what the elector paid back; refused (0xfffffffe): failed, no amount', () => {
    const recover = beginCell().storeUint(0x47657424, 32).storeUint(5, 64).endCell();
    const paid = 301_234n * TON;
    const ok = only(classifyTrace(buildTrace(ext(VALIDATOR, [{ account: ELECTOR, from: VALIDATOR, value: TON, body: recover, out: [answer(0xf96f7324, paid)] }]))).actions, 'election_recover');
    expect(ok.success).toBe(true);
    expect(toApiAction(ok).details).toEqual({ stake_holder: VALIDATOR, amount: paid.toString() });
    const no = only(classifyTrace(buildTrace(ext(VALIDATOR, [{ account: ELECTOR, from: VALIDATOR, value: TON, body: recover, out: [answer(0xfffffffe, TON)] }]))).actions, 'election_recover');
    expect(no.success).toBe(false);
    expect(toApiAction(no).details).toEqual({ stake_holder: VALIDATOR });
  });
  it('without an elector answer, or to a basechain account, new_stake is just a call', () => {
    const silent = classifyTrace(buildTrace(ext(VALIDATOR, [{ account: ELECTOR, from: VALIDATOR, value: stake, body: newStake }]))).actions;
    expect(silent.map((a) => a.type)).toEqual(['call_contract']);
    const wc0 = addr(0, '33');
    const other = classifyTrace(buildTrace(ext(VALIDATOR, [{ account: wc0, from: VALIDATOR, value: stake, body: newStake, out: [{ ...answer(0xf374484c, TON), from: wc0 }] }]))).actions;
    expect(other.map((a) => a.type)).not.toContain('election_deposit');
  });
});

describe('wallet v4 subscriptions (wallet-v4-code.fc plugin requests)', () => {
  const WALLET = addr(0, 'a3'), PLUGIN = addr(0, 'b3'), BENEFICIARY = addr(0, 'c3');
  const amount = 5n * TON;

  it('request#706c7567 -> answer 0xf06c7567 -> payment 0x73756273 is a subscribe of the amount asked for', () => {
    const request = beginCell().storeUint(0x706c7567, 32).storeUint(42, 64).storeCoins(amount).storeBit(0).endCell();
    const response = beginCell().storeUint(0xf06c7567, 32).storeUint(42, 64).endCell();
    const payment = beginCell().storeUint(0x73756273, 32).endCell();
    const t = buildTrace(ext(PLUGIN, [{ account: WALLET, from: PLUGIN, value: TON / 10n, body: request, out: [
      { account: PLUGIN, from: WALLET, value: amount + 1n, body: response, out: [{ account: BENEFICIARY, from: PLUGIN, value: amount, body: payment }] },
    ] }]));
    const a = only(classifyTrace(t).actions, 'subscribe');
    expect(a.success).toBe(true);
    expect(toApiAction(a).details).toEqual({ subscriber: WALLET, beneficiary: BENEFICIARY, subscription: PLUGIN, amount: amount.toString() });
    expect(a.tx_hashes).toHaveLength(4); // plugin (initiating), wallet, plugin, beneficiary
  });
  it('destruct 0x64737472 to the plugin and its destruct to the beneficiary is an unsubscribe', () => {
    const destruct = beginCell().storeUint(0x64737472, 32).storeUint(1, 64).endCell();
    const t = buildTrace(ext(WALLET, [{ account: PLUGIN, from: WALLET, value: TON / 10n, body: destruct, out: [
      { account: BENEFICIARY, from: PLUGIN, value: TON, body: beginCell().storeUint(0x64737472, 32).endCell() },
    ] }]));
    const a = only(classifyTrace(t).actions, 'unsubscribe');
    expect(toApiAction(a).details).toEqual({ subscriber: WALLET, beneficiary: BENEFICIARY, subscription: PLUGIN });
  });
});

describe('nominator pool (ton-blockchain/nominator-pool pool.fc: text commands "d" / "w", op 2)', () => {
  const NOMINATOR = addr(0, 'a4'), POOL = addr(-1, 'b4'), NOMINATOR2 = addr(0, 'c4'), VALIDATOR = addr(-1, 'd4');
  // the pool is the official nominator-pool build: its code hash, computed from the real code
  const states = { [POOL]: { before: { codeHash: codeHash('nominator-pool-v1.boc') } } };

  it('"d" to the pool is stake_deposit (provider nominator); the same comment to another contract stays a transfer', () => {
    const spec = ext(NOMINATOR, [{ account: POOL, from: NOMINATOR, value: 10_001n * TON, body: comment('d') }]);
    const a = only(classifyTrace(buildTrace(spec, { accountStates: states })).actions, 'stake_deposit');
    expect(toApiAction(a).details).toEqual({ provider: 'nominator', stake_holder: NOMINATOR, pool: POOL, amount: (10_001n * TON).toString(), tokens_minted: null, asset: null });
    expect(classifyTrace(buildTrace(spec)).actions.map((x) => x.type)).toEqual(['ton_transfer']);
    // the toncenter NominatorPool interface identifies the pool as well
    const viaIface = classifyTrace(buildTrace(spec, { interfaces: { [POOL]: { raw: { NominatorPool: {} } } } })).actions;
    expect(viaIface.map((x) => x.type)).toEqual(['stake_deposit']);
  });
  it('"w" paid at once (payout then excess, plain transfers) is stake_withdrawal of the payout', () => {
    const payout = 10_000n * TON;
    const spec = ext(NOMINATOR, [{ account: POOL, from: NOMINATOR, value: TON, body: comment('w'), out: [
      { account: NOMINATOR, from: POOL, value: payout, bounce: false },
      { account: NOMINATOR, from: POOL, value: TON - TON / 100n, bounce: false },
    ] }]);
    const a = only(classifyTrace(buildTrace(spec, { accountStates: states })).actions, 'stake_withdrawal');
    expect(toApiAction(a).details).toMatchObject({ provider: 'nominator', stake_holder: NOMINATOR, pool: POOL, amount: payout.toString() });
    expect(a.tx_hashes).toHaveLength(4);
  });
  it('"w" recorded for later (only the excess comes back) is stake_withdrawal_request', () => {
    const spec = ext(NOMINATOR, [{ account: POOL, from: NOMINATOR, value: TON, body: comment('w'), out: [
      { account: NOMINATOR, from: POOL, value: TON - TON / 100n, bounce: false },
    ] }]);
    const a = only(classifyTrace(buildTrace(spec, { accountStates: states })).actions, 'stake_withdrawal_request');
    expect(toApiAction(a).details).toMatchObject({ provider: 'nominator', stake_holder: NOMINATOR, pool: POOL });
  });
  it('op 2 (process_withdraw_requests limit:uint8): each payout is a stake_withdrawal of its receiver', () => {
    const process = beginCell().storeUint(2, 32).storeUint(9, 64).storeUint(10, 8).endCell();
    const spec = ext(VALIDATOR, [{ account: POOL, from: VALIDATOR, value: TON, body: process, out: [
      { account: NOMINATOR, from: POOL, value: 11n * TON, bounce: false },
      { account: NOMINATOR2, from: POOL, value: 22n * TON, bounce: false },
    ] }]);
    const rows = classifyTrace(buildTrace(spec, { accountStates: states })).actions.filter((a) => a.type === 'stake_withdrawal');
    expect(rows.map((a) => [a.source, a.amount])).toEqual([[NOMINATOR, 11n * TON], [NOMINATOR2, 22n * TON]]);
  });
});

describe('auction bids', () => {
  const BIDDER = addr(0, 'a5'), AUCTION = addr(0, 'b5'), NFT = addr(0, 'c5'), COLLECTION = addr(0, 'd5');
  const bid = (body: Cell | null, extra: Parameters<typeof buildTrace>[1]) =>
    classifyTrace(buildTrace(ext(BIDDER, [{ account: AUCTION, from: BIDDER, value: 12n * TON, body }]), extra)).actions;

  it('a plain transfer to a contract with the NftAuction interface is an auction_bid on its NFT', () => {
    const interfaces = {
      [AUCTION]: { raw: { NftAuction: { nft_addr: NFT.toLowerCase() } } },
      [NFT]: { nftItem: { index: 77n, collection: COLLECTION, owner: AUCTION } },
    };
    const a = only(bid(null, { interfaces }), 'auction_bid');
    expect(toApiAction(a).details).toEqual({
      amount: (12n * TON).toString(), bidder: BIDDER, auction: AUCTION, nft_item: NFT, nft_collection: COLLECTION, nft_item_index: '77',
    });
    // the auction's own commands are not bids
    expect(bid(comment('cancel'), { interfaces }).map((x) => x.type)).toEqual(['ton_transfer']);
  });
  it('a GetGems auction recognised by its code hash (v3r3 build from getgems-io/nft-contracts)', () => {
    const accountStates = { [AUCTION]: { before: { codeHash: codeHash('getgems-nft-auction-v3r3.boc') } } };
    const a = only(bid(null, { accountStates }), 'auction_bid');
    expect(toApiAction(a).details).toMatchObject({ bidder: BIDDER, auction: AUCTION, amount: (12n * TON).toString(), nft_item: null });
    // the same transfer to any other contract is a transfer
    const wallet = { [AUCTION]: { before: { codeHash: codeHash('wallet-v4r2.boc') } } };
    expect(bid(null, { accountStates: wallet }).map((x) => x.type)).toEqual(['ton_transfer']);
  });
});
