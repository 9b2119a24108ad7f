// Multisig v2, multisig orders, vesting and DNS records: no fixture block carries such a state with its data, so
// the data is built here by each contract's source layout and run through the real contract code of the fixtures.
// The rows (read by layout, without the code) must equal what the contracts' own get-methods return on the same
// data; pruned variants (as later blocks carry them) take the pruned values from the previous row.
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, internal, storeMessageRelaxed } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseOrderActions } from '../../src/contracts/index.ts';
import { entityStateRows } from '../../src/entities/index.ts';
import { addrOfItem, cellOfItem, code, getMethod, int, memoryLookup, prunedBranch, raw, stateOf } from './helpers.ts';

const A = (n: number, wc = 0) => new Address(wc, Buffer.alloc(32, n));
const RAW = (n: number, wc = 0) => raw(A(n, wc));

function addressDict(list: Address[]): Cell {
  const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  list.forEach((a, i) => d.set(i, a));
  return beginCell().storeDictDirect(d).endCell();
}

function dictAddresses(c: Cell | null): string[] {
  if (!c) return [];
  return [...Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), c)].sort((a, b) => a[0] - b[0]).map(([, a]) => raw(a));
}

// The released multisig v2 (the fixture's code, as deployed on mainnet) numbers orders with 256 bits
// (wrappers' Params.bitsize.orderSeqno); a 32-bit seqno makes its get-methods fail with a cell underflow.
const SEQNO = 256;

describe('multisig v2 (multisig.func layout, real code)', () => {
  const msCode = code('multisig-v2-wallet.boc');
  const signers = addressDict([A(1), A(2), A(3)]);
  const proposers = addressDict([A(9)]);
  const data = beginCell().storeUint(17, SEQNO).storeUint(2, 8).storeRef(signers).storeUint(3, 8).storeMaybeRef(proposers).storeBit(false).endCell();
  const account = RAW(0x77);

  it('row = get_multisig_data of the real code; no code needed', async () => {
    const { tables, stats } = await entityStateRows([stateOf(account, msCode, data)], memoryLookup(new Map()));
    expect(stats).toMatchObject({ rows: 1, no_code: 0, failed: 0 });
    const got = await getMethod(msCode, data, account, 'get_multisig_data');
    expect(tables.multisig[0]).toMatchObject({
      address: account,
      next_order_seqno: int(got[0]),
      threshold: Number(int(got[1])),
      signers: dictAddresses(cellOfItem(got[2])),
      proposers: dictAddresses(cellOfItem(got[3])),
      code_hash: msCode.hash().toString('hex'),
      data_hash: data.hash().toString('hex'),
    });
    expect(tables.multisig[0].signers).toEqual([RAW(1), RAW(2), RAW(3)]);
  });

  it('a later block prunes the unchanged signers: taken from the previous row, or the row is not written', async () => {
    const later = beginCell().storeUint(18, SEQNO).storeUint(2, 8).storeRef(prunedBranch(signers)).storeUint(3, 8).storeMaybeRef(proposers).storeBit(false).endCell();
    const st = stateOf(account, msCode, later, { lt: 2000n });
    const none = await entityStateRows([st], memoryLookup(new Map()));
    expect(none.tables.multisig).toEqual([]);
    expect(none.stats.incomplete).toBe(1);
    const prev = { address: account, signers: [RAW(1), RAW(2), RAW(3)] };
    const { tables } = await entityStateRows([st], memoryLookup(new Map(), { multisig: [prev] }));
    expect(tables.multisig[0]).toMatchObject({ next_order_seqno: 18n, signers: prev.signers, proposers: [RAW(9)], last_transaction_lt: 2000n });
  });

  it('arbitrary order seqnos: get_multisig_data answers -1, stored as NULL', async () => {
    const arb = beginCell().storeUint(5, SEQNO).storeUint(1, 8).storeRef(signers).storeUint(3, 8).storeMaybeRef(null).storeBit(true).endCell();
    const got = await getMethod(msCode, arb, account, 'get_multisig_data');
    expect(int(got[0])).toBe(-1n);
    const { tables } = await entityStateRows([stateOf(account, msCode, arb)], memoryLookup(new Map()));
    expect(tables.multisig[0]).toMatchObject({ next_order_seqno: null, proposers: [] });
  });
});

describe('multisig v2 orders (order.func layout, real code) and their actions', () => {
  const orderCode = code('multisig-v2-order.boc');
  const signers = addressDict([A(1), A(2)]);
  const jettonTransfer = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(1234n).storeAddress(A(5)).storeAddress(A(6)).storeMaybeRef(null)
    .storeCoins(1n).storeBit(false).endCell();
  const msg = beginCell().store(storeMessageRelaxed(internal({ to: A(4), value: 50_000_000n, bounce: true, body: jettonTransfer }))).endCell();
  const actions = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.set(0, beginCell().storeUint(0xf1381e5b, 32).storeUint(3, 8).storeRef(msg).endCell());
  actions.set(1, beginCell().storeUint(0x1d0cfbd3, 32).storeUint(1, 8).storeRef(addressDict([A(1)])).storeMaybeRef(null).endCell());
  const order = beginCell().storeDictDirect(actions).endCell();
  const multisig = RAW(0x77);
  const data = beginCell().storeAddress(A(0x77)).storeUint(4, SEQNO).storeUint(2, 8).storeBit(false).storeRef(signers).storeUint(0b10, 256).storeUint(1, 8)
    .storeUint(1_800_000_000, 48).storeRef(order).endCell();
  const account = RAW(0x44);

  it('row = get_order_data of the real code', async () => {
    const { tables } = await entityStateRows([stateOf(account, orderCode, data)], memoryLookup(new Map()));
    const got = await getMethod(orderCode, data, account, 'get_order_data');
    expect(tables.multisig_orders[0]).toMatchObject({
      address: account,
      multisig_address: addrOfItem(got[0]),
      order_seqno: int(got[1]),
      threshold: Number(int(got[2])),
      sent_for_execution: int(got[3]) !== 0n,
      signers: dictAddresses(cellOfItem(got[4])),
      approvals_mask: int(got[5]),
      approvals_num: Number(int(got[6])),
      expiration_date: Number(int(got[7])),
      order_boc: cellOfItem(got[8]).toBoc().toString('base64'),
    });
    expect(tables.multisig_orders[0].multisig_address).toBe(multisig);
  });

  it('an order the multisig has not initialised yet: only its multisig and seqno', async () => {
    const fresh = beginCell().storeAddress(A(0x77)).storeUint(9, SEQNO).endCell();
    const { tables } = await entityStateRows([stateOf(account, orderCode, fresh)], memoryLookup(new Map()));
    expect(tables.multisig_orders[0]).toMatchObject({ multisig_address: multisig, order_seqno: 9n, threshold: null, sent_for_execution: null, order_boc: null, signers: [] });
  });

  it('actions of the order: the message (destination, value, decoded jetton transfer) and the new parameters', () => {
    const acts = parseOrderActions(order.toBoc().toString('base64'));
    expect(acts).toHaveLength(2);
    expect(acts[0]).toMatchObject({
      destination: RAW(4), value: '50000000', parsed: true, error: null, send_mode: 3, parsed_body_type: 'jetton_transfer',
      body_raw: jettonTransfer.toBoc().toString('base64'),
      parsed_body: { query_id: '7', amount: '1234', destination: RAW(5), response: RAW(6), custom_payload: null, forward_amount: '1', forward_payload: null },
    });
    expect(acts[1]).toMatchObject({ parsed: true, parsed_body_type: 'multisig_update_params', parsed_body: { new_threshold: 1, new_signers: [RAW(1)], new_proposers: [] } });
    // not an order dictionary: one unparsed entry saying why, never a throw
    expect(parseOrderActions(beginCell().storeUint(1, 3).endCell().toBoc().toString('base64'))[0]).toMatchObject({ parsed: false, parsed_body_type: 'unknown' });
  });
});

describe('vesting (vesting_wallet.fc layout, real code)', () => {
  const vCode = code('vesting-wallet.boc');
  const key = (a: Address) => (BigInt(a.workChain & 0xff) << 256n) | BigInt('0x' + a.hash.toString('hex'));
  const wl = Dictionary.empty(Dictionary.Keys.BigUint(264), Dictionary.Values.Bool());
  wl.set(key(A(0x31, -1)), true);
  wl.set(key(A(0x32, -1)), true);
  const params = beginCell().storeUint(1_700_000_000, 64).storeUint(86400 * 360, 32).storeUint(86400 * 30, 32).storeUint(86400 * 60, 32).storeCoins(10n ** 12n)
    .storeAddress(A(0x21)).storeAddress(A(0x22)).endCell();
  const data = beginCell().storeUint(3, 32).storeUint(698983191, 32).storeUint(0xabcdefn, 256).storeDict(wl).storeRef(params).endCell();
  const account = RAW(0x55);

  it('row = get_vesting_data and get_whitelist of the real code', async () => {
    const { tables } = await entityStateRows([stateOf(account, vCode, data)], memoryLookup(new Map()));
    const got = await getMethod(vCode, data, account, 'get_vesting_data');
    const list = await getMethod(vCode, data, account, 'get_whitelist');
    // get_whitelist: a lisp list of (wc, hash) pairs
    const whitelist: string[] = [];
    let it = list[0];
    while (it.type === 'tuple') {
      const [pair, next] = it.items;
      if (pair.type !== 'tuple') throw new Error('pair expected');
      whitelist.push(`${int(pair.items[0])}:${int(pair.items[1]).toString(16).padStart(64, '0').toUpperCase()}`);
      it = next;
    }
    expect(whitelist).toHaveLength(2);
    expect(tables.vesting_contracts[0]).toMatchObject({
      address: account,
      vesting_start_time: Number(int(got[0])),
      vesting_total_duration: Number(int(got[1])),
      unlock_period: Number(int(got[2])),
      cliff_duration: Number(int(got[3])),
      vesting_total_amount: int(got[4]),
      vesting_sender_address: addrOfItem(got[5]),
      owner_address: addrOfItem(got[6]),
      whitelist: whitelist.sort(),
    });
  });

  it('later blocks prune the parameters (from the previous row) and the unchanged part of the whitelist (merged with it)', async () => {
    const wl3 = Dictionary.empty(Dictionary.Keys.BigUint(264), Dictionary.Values.Bool());
    for (const [k, v] of wl) wl3.set(k, v);
    wl3.set(key(A(0x33)), true);
    const full = beginCell().storeDictDirect(wl3).endCell();
    // the keys split at their first bit: workchain 0 (the new entry) left, workchain -1 (the old ones) right;
    // the block carries the path to the new entry, the unchanged right subtree is pruned
    expect(full.refs).toHaveLength(2);
    const partial = beginCell().storeBits(full.bits).storeRef(full.refs[0]).storeRef(prunedBranch(full.refs[1])).endCell();
    const later = beginCell().storeUint(4, 32).storeUint(698983191, 32).storeUint(0xabcdefn, 256).storeMaybeRef(partial).storeRef(prunedBranch(params)).endCell();
    const st = stateOf(account, vCode, later, { lt: 5000n });
    const prev = (await entityStateRows([stateOf(account, vCode, data)], memoryLookup(new Map()))).tables.vesting_contracts[0];
    const { tables } = await entityStateRows([st], memoryLookup(new Map(), { vesting_contracts: [{ ...prev }] }));
    const row = tables.vesting_contracts[0];
    expect(row).toMatchObject({ vesting_start_time: prev.vesting_start_time, owner_address: prev.owner_address, vesting_total_amount: prev.vesting_total_amount, last_transaction_lt: 5000n });
    expect([...(row.whitelist as string[])].sort()).toEqual([...(prev.whitelist as string[]), RAW(0x33)].sort());
    // without a previous row the pruned parameters cannot be known: no row
    const none = await entityStateRows([st], memoryLookup(new Map()));
    expect(none.tables.vesting_contracts).toEqual([]);
    expect(none.stats.incomplete).toBe(1);
  });
});

describe('DNS records (dns-contract nft-item, real code): wallet, next resolver, site, storage', () => {
  const itemCode = code('dns-item.ton4j-dns-example.boc');
  const h = (s: string) => createHash('sha256').update(s).digest();
  const records = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  const adnl = Buffer.alloc(32, 0xad);
  const bag = Buffer.alloc(32, 0xba);
  records.set(h('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(A(0x61)).storeUint(0, 8).endCell());
  records.set(h('dns_next_resolver'), beginCell().storeUint(0xba93, 16).storeAddress(A(0x62)).endCell());
  records.set(h('site'), beginCell().storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8).endCell());
  records.set(h('storage'), beginCell().storeUint(0x7473, 16).storeBuffer(bag).endCell());
  const content = beginCell().storeUint(0, 8).storeDict(records).endCell();
  const domain = beginCell().storeBuffer(Buffer.from('alice')).endCell();
  const root = Address.parseRaw('0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF'); // mainnet .ton root
  const item = (collection: Address, owner: Address, domainCell: Cell) =>
    beginCell().storeBuffer(domain.hash()).storeAddress(collection).storeAddress(owner).storeRef(content).storeRef(domainCell).storeMaybeRef(null)
      .storeInt(1_700_000_000, 64).endCell();
  const account = RAW(0x66);

  it('records as dnsresolve("\\0", 0) of the real code returns them', async () => {
    const data = item(root, A(0x60), domain);
    const got = await getMethod(itemCode, data, account, 'dnsresolve', [{ type: 'slice', cell: beginCell().storeUint(0, 8).endCell() }, { type: 'int', value: 0n }]);
    expect(int(got[0])).toBe(8n);
    expect(cellOfItem(got[1]).hash()).toEqual(beginCell().storeDictDirect(records).endCell().hash());
    const { tables } = await entityStateRows([stateOf(account, itemCode, data, { withCode: true })], memoryLookup(new Map()));
    expect(tables.dns_entries[0]).toEqual({
      nft_item_address: account, nft_item_owner: RAW(0x60), domain: 'alice.ton', dns_wallet: RAW(0x61), dns_next_resolver: RAW(0x62),
      dns_site_adnl: adnl.toString('hex').toUpperCase(), dns_storage_bag_id: bag.toString('hex').toUpperCase(), last_transaction_lt: 1000n,
      max_bid_address: null, max_bid_amount: null, auction_end_time: null, last_fill_up_time: 1_700_000_000n,
    });
  });

  // nft-item.fc: auction = max_bid_address max_bid_amount:Grams auction_end_time:uint64, a Maybe ^Cell after the domain
  const withAuction = (auction: Cell | null, owner: Address | null = null) =>
    beginCell().storeBuffer(domain.hash()).storeAddress(root).storeAddress(owner).storeRef(content).storeRef(domain).storeMaybeRef(auction)
      .storeUint(1_700_000_500, 64).endCell();
  const auctionCell = beginCell().storeAddress(A(0x70)).storeCoins(123_456_789_000n).storeUint(1_800_000_000, 64).endCell();

  it('auction (issue 35): get_auction_info and get_last_fill_up_time of the real code, a pruned auction from the previous row', async () => {
    const data = withAuction(auctionCell);
    const got = await getMethod(itemCode, data, account, 'get_auction_info');
    expect([addrOfItem(got[0]), int(got[1]), int(got[2])]).toEqual([RAW(0x70), 123_456_789_000n, 1_800_000_000n]);
    expect(int((await getMethod(itemCode, data, account, 'get_last_fill_up_time'))[0])).toBe(1_700_000_500n);
    const { tables } = await entityStateRows([stateOf(account, itemCode, data, { withCode: true })], memoryLookup(new Map()));
    expect(tables.dns_entries[0]).toMatchObject({
      nft_item_owner: null, domain: 'alice.ton', max_bid_address: RAW(0x70), max_bid_amount: 123_456_789_000n, auction_end_time: 1_800_000_000n, last_fill_up_time: 1_700_000_500n,
    });
    // no auction (claimed, or never started): the getter answers addr_none, the columns are NULL
    const none = (await entityStateRows([stateOf(account, itemCode, withAuction(null, A(0x70)), { withCode: true })], memoryLookup(new Map()))).tables.dns_entries[0];
    expect(none).toMatchObject({ nft_item_owner: RAW(0x70), max_bid_address: null, max_bid_amount: null, auction_end_time: null, last_fill_up_time: 1_700_000_500n });
    // a block that changes the item but not its auction prunes the auction cell: the previous row's values, or no row
    const pruned = stateOf(account, itemCode, withAuction(prunedBranch(auctionCell)), { withCode: true, lt: 4000n });
    const alone = await entityStateRows([pruned], memoryLookup(new Map()));
    expect(alone.tables.dns_entries).toEqual([]);
    expect(alone.stats.incomplete).toBe(1);
    const prev = { nft_item_address: account, domain: 'alice.ton', max_bid_address: RAW(0x70), max_bid_amount: '123456789000', auction_end_time: '1800000000' };
    const { tables: t2 } = await entityStateRows([pruned], memoryLookup(new Map(), { dns_entries: [prev] }));
    expect(t2.dns_entries[0]).toMatchObject({ max_bid_address: RAW(0x70), max_bid_amount: '123456789000', auction_end_time: '1800000000', last_fill_up_time: 1_700_000_500n, last_transaction_lt: 4000n });
  });

  it('an item of another collection is not a .ton domain; a pruned domain comes from the previous row', async () => {
    const other = item(A(0x99), A(0x60), domain);
    expect((await entityStateRows([stateOf(account, itemCode, other, { withCode: true })], memoryLookup(new Map()))).tables.dns_entries).toEqual([]);
    const st = stateOf(account, itemCode, item(root, A(0x63), prunedBranch(domain)), { withCode: true, lt: 3000n });
    expect((await entityStateRows([st], memoryLookup(new Map()))).stats.incomplete).toBe(1);
    const { tables } = await entityStateRows([st], memoryLookup(new Map(), { dns_entries: [{ nft_item_address: account, domain: 'alice.ton' }] }));
    expect(tables.dns_entries[0]).toMatchObject({ domain: 'alice.ton', nft_item_owner: RAW(0x63), dns_wallet: RAW(0x61), last_transaction_lt: 3000n });
  });
});

describe('getgems fix-price sale v4r1 (nft-fixprice-sale-v4r1.fc layout, real code)', () => {
  const saleCode = code('getgems-nft-fixprice-sale-v4r1.boc');
  // static data: marketplace_fee_address royalty_address fee_percent:uint17 royalty_percent:uint17 nft_address created_at:uint32
  const staticData = beginCell().storeAddress(A(0x81)).storeAddress(A(0x82)).storeUint(5000, 17).storeUint(10000, 17).storeAddress(A(0x83)).storeUint(1_700_000_123, 32).endCell();
  // is_complete:uint1 marketplace nft_owner full_price:Coins sold_at:uint32 query_id:uint64 ^static jetton_prices:(HashmapE 256 Coins)
  const data = beginCell().storeUint(0, 1).storeAddress(A(0x84)).storeAddress(A(0x85)).storeCoins(3_000_000_000n).storeUint(0, 32).storeUint(0, 64).storeRef(staticData)
    .storeMaybeRef(null).endCell();
  const account = RAW(0x80);

  it('row = get_fix_price_data_v4 of the real code (fee fields are its percents x 100000, as the reference stores them)', async () => {
    const got = await getMethod(saleCode, data, account, 'get_fix_price_data_v4');
    const { tables, stats } = await entityStateRows([stateOf(account, saleCode, data, { withCode: true })], memoryLookup(new Map()));
    expect(stats.failed).toBe(0);
    const row = tables.nft_sales[0];
    expect(row).toMatchObject({
      address: account, type: 'getgems_sale', created_at: Number(int(got[1])), marketplace_address: addrOfItem(got[2]), nft_address: addrOfItem(got[3]),
      nft_owner_address: addrOfItem(got[4]),
    });
    expect(JSON.parse(row.details as string)).toEqual({
      is_complete: int(got[0]) !== 0n, full_price: int(got[5]).toString(), marketplace_fee_address: addrOfItem(got[6]), marketplace_fee: int(got[7]).toString(),
      royalty_address: addrOfItem(got[8]), royalty_amount: int(got[9]).toString(),
    });
    expect(row).toMatchObject({ nft_address: RAW(0x83), created_at: 1_700_000_123 });
    expect(JSON.parse(row.details as string)).toMatchObject({ full_price: '3000000000', marketplace_fee: '5000' });
  });
});
