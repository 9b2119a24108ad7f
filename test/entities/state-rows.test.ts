// Entity-state rows from real blocks of the fixtures. Every value is checked against an independent reading:
// the data cell parsed with @ton/core by the contract's own source layout, the item index the DNS collection
// derives from the domain, the supply arithmetic of the block's own mint and burn messages, or the contract's
// get-method on the full state before the block.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, loadShardAccount, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseTokenContent } from '../../src/contracts/index.ts';
import { entityStateRows } from '../../src/entities/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { cellOfItem, code, FIX, fixtureCodes, getMethod, int, memoryLookup, raw, stateOf } from './helpers.ts';

const codes = fixtureCodes();
const block = (f: string) => decodeBlock(readFileSync(join(FIX, 'blocks', f)));
const stateIn = (f: string, prefix: string) => block(f).account_states.find((s) => s.account.startsWith(prefix))!;
const addr = (s: Slice) => {
  const a = s.loadAddressAny();
  return a instanceof Address ? raw(a) : null;
};
const addrOf = addr;

describe('DNS item (testnet block 36993301, dns-contract nft-item code from the fixtures)', () => {
  it('domain, owner, no records: from the item data and the collection index rule', async () => {
    const f = 'testnet/testnet-wc0-a000000000000000-36993301.boc';
    const { tables, stats } = await entityStateRows(block(f).account_states, memoryLookup(codes));
    expect(stats).toMatchObject({ rows: 1, failed: 0, incomplete: 0 });
    const row = tables.dns_entries[0];
    // nft-item data: index:uint256 collection_address owner_address content:^Cell domain:^Cell ...
    const st = stateIn(f, '0:AA923AB5');
    const d = Cell.fromBase64(st.data_boc!);
    const s = d.beginParse();
    const index = s.loadUintBig(256);
    const collection = addr(s);
    const owner = addr(s);
    const domainCell = d.refs[1];
    const label = domainCell.beginParse().loadBuffer(domainCell.bits.length / 8).toString('utf8');
    // the .ton collection numbers items by slice_hash(domain): the label is the one the item was minted for
    expect(beginCell().storeBuffer(Buffer.from(label)).endCell().hash().toString('hex')).toBe(index.toString(16).padStart(64, '0'));
    expect(collection).toBe('0:E33ED33A42EB2032059F97D90C706F8400BB256D32139CA707F1564AD699C7DD'); // testnet .ton root
    expect(row).toMatchObject({ nft_item_address: st.account, nft_item_owner: owner, domain: `${label}.ton`, last_transaction_lt: st.last_trans_lt });
    // content: `#00` and an empty record dictionary -> no records
    const c = d.refs[0].beginParse();
    expect([c.loadUint(8), c.loadBit()]).toEqual([0, false]);
    expect(row).toMatchObject({ dns_wallet: null, dns_next_resolver: null, dns_site_adnl: null, dns_storage_bag_id: null });
    // auction and fill-up (issue 35): ... content:^Cell domain:^Cell auction:(Maybe ^Cell) last_fill_up_time:uint64
    const hasAuction = s.loadRef() && s.loadRef() && s.loadBit();
    const fillUp = s.loadUintBig(64);
    expect(hasAuction).toBe(false);
    expect(row).toMatchObject({ max_bid_address: null, max_bid_amount: null, auction_end_time: null, last_fill_up_time: fillUp });
  });
});

describe('getgems sale and auction contracts (mainnet blocks 27159537, 34703989)', () => {
  it('fix-price sale v2: every field equals the data read by nft-fixprice-sale-v2.fc load_data / load_fees', async () => {
    const f = 'mainnet/mainnet-wc0-8000000000000000-27159537.boc';
    const { tables } = await entityStateRows(block(f).account_states, memoryLookup(codes));
    const st = stateIn(f, '0:56755BEB');
    const row = tables.nft_sales.find((r) => r.address === st.account)!;
    const s = Cell.fromBase64(st.data_boc!).beginParse();
    const isComplete = s.loadUint(1);
    const createdAt = s.loadUint(32);
    const marketplace = addr(s);
    const nft = addr(s);
    const owner = addr(s);
    const price = s.loadCoins();
    const fees = s.loadRef().beginParse();
    expect(row).toMatchObject({ type: 'getgems_sale', nft_address: nft, nft_owner_address: owner, marketplace_address: marketplace, created_at: createdAt, last_transaction_lt: st.last_trans_lt, code_hash: st.code_hash });
    expect(JSON.parse(row.details as string)).toEqual({
      is_complete: isComplete === 1,
      full_price: price.toString(),
      marketplace_fee_address: addr(fees),
      marketplace_fee: fees.loadCoins().toString(),
      royalty_address: addr(fees),
      royalty_amount: fees.loadCoins().toString(),
    });
  });

  it('auction v3r2: every field equals the data read by the auction storage layout (init_data, get_fees)', async () => {
    const f = 'mainnet/mainnet-wc0-8000000000000000-34703989.boc';
    const { tables } = await entityStateRows(block(f).account_states, memoryLookup(codes));
    const st = stateIn(f, '0:2DDB657D');
    const row = tables.nft_sales.find((r) => r.address === st.account)!;
    const d = Cell.fromBase64(st.data_boc!);
    const s = d.beginParse();
    const end = s.loadBit();
    s.loadBit(); // activated?
    const canceled = s.loadBit();
    const lastMember = addr(s);
    const lastBid = s.loadCoins();
    const lastBidAt = s.loadUint(32);
    const endTime = s.loadUint(32);
    const owner = addr(s);
    const fees = s.loadRef().beginParse();
    const k = s.loadRef().beginParse();
    k.loadInt(32); // sub_gas_price_from_bid
    const marketplace = addr(k);
    const minBid = k.loadCoins();
    const maxBid = k.loadCoins();
    const minStep = k.loadCoins();
    k.loadUint(32); // step_time
    const nft = addr(k);
    const createdAt = k.loadUint(32);
    expect(row).toMatchObject({ type: 'getgems_auction', nft_address: nft, nft_owner_address: owner, marketplace_address: marketplace, created_at: createdAt });
    const mpFee = addr(fees);
    const mpFactor = fees.loadUint(32);
    const mpBase = fees.loadUint(32);
    const royalty = addr(fees);
    const expected: Record<string, unknown> = {
      end_flag: end, end_time: endTime, last_bid: lastBid.toString(), min_step: Number(minStep), mp_fee_address: mpFee, mp_fee_factor: mpFactor,
      mp_fee_base: mpBase, royalty_fee_address: royalty, royalty_fee_factor: fees.loadUint(32), royalty_fee_base: fees.loadUint(32),
      max_bid: maxBid.toString(), min_bid: minBid.toString(), last_bid_at: lastBidAt, is_canceled: canceled,
    };
    if (lastMember) expected.last_member = lastMember; // addr_none: left out, like the reference's omitempty
    expect(JSON.parse(row.details as string)).toEqual(expected);
  });
});

describe('jetton masters', () => {
  it('TEP-74 minter (localnet block 212538, content in the block, wallet code pruned)', async () => {
    const f = 'localnet/localnet-ton4j-wc0-8000000000000000-212538.boc';
    const b = block(f);
    const { tables } = await entityStateRows(b.account_states, memoryLookup(codes));
    const st = stateIn(f, '0:F929EB20');
    const row = tables.jetton_masters.find((r) => r.address === st.account)!;
    // jetton-minter.fc: total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell
    const d = Cell.fromBase64(st.data_root_boc!);
    const s = d.beginParse(true);
    const supply = s.loadCoins();
    const admin = addr(s);
    const content = s.loadRef().beginParse();
    expect(content.loadUint(8)).toBe(0x01); // off-chain
    const uri = content.loadBuffer(content.remainingBits / 8).toString('utf8');
    const walletCode = s.loadRef(); // a pruned branch: its hash is the code's
    expect(row).toMatchObject({ total_supply: supply, mintable: true, admin_address: admin, last_transaction_lt: st.last_trans_lt });
    expect(JSON.parse(row.jetton_content as string)).toEqual({ uri });
    expect(row.jetton_wallet_code_hash).toBe(walletCode.hash(0).toString('hex'));
    // ... and that is the code of this master's wallets in the same block (token-contract jetton-wallet)
    expect(row.jetton_wallet_code_hash).toBe(code('jetton-wallet-standard.token-contract.boc').hash().toString('hex'));
    expect(b.account_states.some((w) => w.code_hash === row.jetton_wallet_code_hash)).toBe(true);
  });

  it('tsTON minter (mainnet block 71398501): supply = supply before the block + minted - burned', async () => {
    const f = 'mainnet/mainnet-wc0-8000000000000000-71398501.boc';
    const b = block(f);
    const minterCode = code('mainnet-state-tsTON-jetton-minter-tonstakers.inferred.boc');
    const { tables, stats } = await entityStateRows(b.account_states, memoryLookup(codes));
    expect(stats.failed).toBe(0);
    const st = stateIn(f, '0:BDF3FA80');
    const row = tables.jetton_masters.find((r) => r.address === st.account)!;

    // the full state before the block (MANIFEST: ShardAccount before block 71398501), read by its own get-method
    const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(FIX, 'accounts/mainnet-shardaccount-before-block-wc0-71398501-tsTON-jetton-minter-tonstakers.inferred-bdf3fa80.boc')))[0].beginParse());
    const before = sa.account!.storage.state;
    if (before.type !== 'active') throw new Error('minter not active before the block');
    const got = await getMethod(minterCode, before.state.data!, st.account, 'get_jetton_data');
    // the block's mint (internal_transfer#178d4519 sent by the minter) and burn (burn_notification#7bdd97de received)
    const txs = b.transactions.filter((t) => t.account === st.account);
    let minted = 0n;
    let burned = 0n;
    for (const t of txs) {
      for (const m of t.out_msgs) {
        const body = Cell.fromBase64(m.body_boc!).beginParse();
        if (body.loadUint(32) === 0x178d4519) minted += (body.skip(64), body.loadCoins());
      }
      const inBody = Cell.fromBase64(t.in_msg!.body_boc!).beginParse();
      if (inBody.loadUint(32) === 0x7bdd97de) burned += (inBody.skip(64), inBody.loadCoins());
    }
    expect(minted).toBeGreaterThan(0n);
    expect(burned).toBeGreaterThan(0n);
    expect(row.total_supply).toBe(int(got[0]) + minted - burned);
    expect(row.admin_address).toBe(raw(cellOfItem(got[2]).beginParse().loadAddress()));
    // the wallet code (a library cell in this minter's data) is unchanged by the block
    expect(row.jetton_wallet_code_hash).toBe(cellOfItem(got[4]).hash().toString('hex'));
    // the content is pruned from the block and nothing earlier knows it: written empty ...
    expect(row.jetton_content).toBe('');
    // ... the content the state before the block holds: tsTON's published metadata
    expect(parseTokenContent(cellOfItem(got[3]))).toEqual({ uri: 'https://tonstakers.com/jetton/meta.json', name: 'Tonstakers TON', symbol: 'tsTON', decimals: '9' });
    // with an earlier row, the pruned content is carried over
    const prev = { address: st.account, jetton_content: '{"symbol":"tsTON"}' };
    const again = await entityStateRows(b.account_states, memoryLookup(codes, { jetton_masters: [prev] }));
    expect(again.tables.jetton_masters.find((r) => r.address === st.account)!.jetton_content).toBe(prev.jetton_content);
  });
});

describe('what cannot be read is counted, never thrown', () => {
  it('codes the store has not seen: no rows, counted as no_code', async () => {
    const f = 'mainnet/mainnet-wc0-8000000000000000-71398501.boc';
    const { tables, stats } = await entityStateRows(block(f).account_states, memoryLookup(new Map()));
    expect(tables.jetton_masters).toEqual([]);
    expect(stats.no_code).toBeGreaterThan(0);
    expect(stats.rows).toBe(0);
  });

  it('states without a data root (data unchanged by the block) give no rows; wallets are skipped by code hash', async () => {
    // mainnet 52111590: a multisig v2 whose data the block does not carry (only its balance changed)
    const b = block('mainnet/mainnet-wc0-6000000000000000-52111590.boc');
    const ms = b.account_states.find((s) => s.code_hash === code('multisig-v2-wallet.boc').hash().toString('hex'))!;
    expect(ms.data_root_boc).toBeNull();
    const { tables, stats } = await entityStateRows(b.account_states, memoryLookup(codes));
    expect(tables.multisig).toEqual([]);
    expect(stats.failed).toBe(0);
  });
});

describe('NFT collections', () => {
  it('telemint collection (full state before block 71398501, real code): content from its data, index -1 stored as 0', async () => {
    const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(FIX, 'accounts/mainnet-shardaccount-before-block-wc0-71398501-telegram-telemint-nft-collection.inferred-f5605a75.boc')))[0].beginParse());
    const st = sa.account!.storage.state;
    if (st.type !== 'active') throw new Error('collection not active');
    const account = raw(sa.account!.addr);
    const { tables } = await entityStateRows([stateOf(account, st.state.code!, st.state.data!, { withCode: true })], memoryLookup(new Map()));
    const row = tables.nft_collections[0];
    // telemint nft-collection.fc data: touched:Bool subwallet_id:uint32 public_key:uint256 collection_content:^Cell ...
    const content = st.state.data!.refs[0].beginParse();
    expect(content.loadUint(8)).toBe(0x01);
    expect(JSON.parse(row.collection_content as string)).toEqual({ uri: content.loadBuffer(content.remainingBits / 8).toString('utf8') });
    const got = await getMethod(st.state.code!, st.state.data!, account, 'get_collection_data');
    expect(int(got[0])).toBe(-1n); // telemint items are not numbered in order
    expect(row).toMatchObject({ address: account, next_item_index: 0n, owner_address: got[2].type === 'null' ? null : addrOf(cellOfItem(got[2]).beginParse()) });
  });
});
