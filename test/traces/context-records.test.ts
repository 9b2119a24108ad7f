// The interface records the traces stage builds beyond a trace's own accounts' data layouts (src/traces/context-*.ts),
// on real chain data through the real stage and a real chdb store:
// - DeDust pools: assets from the pool's state (get_assets in the TVM emulator on the real mainnet state before block
//   71398501) and from the pool's swap events (real mainnet events of toncenter's traces); the block's two DeDust
//   swaps classify in the pipeline once the store holds the pool's state;
// - Telegram items: content from the real gift mint of block 71398501 (the deploy message and the item's data), and,
//   from the store alone, a Telegram item auction start (the real start_auction body of block 40484416, sent to that
//   item) classifies as toncenter's teleitem_start_auction;
// - GetGems auctions: the auction's NFT item record (toncenter's repository reads it with the auction).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell, Cell, loadShardAccount, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { classifyTrace } from '../../src/actions/classify.ts';
import { DedustPoolList } from '../../src/actions/dedust-pools.ts';
import { blockToRows } from '../../src/decode/index.ts';
import { encodeJsonLines, type StoreClient, fillKvFromStore } from '../../src/store/client/index.ts';
import { StoreWriter } from '../../src/store/write/index.ts';
import { type Row } from '../../src/util/index.ts';
import { decodeBlock, type AccountStateRow } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { poolAssetsFromState, poolAssetsFromSwapEvent, DEDUST_SWAP_EVENT_OPCODE } from '../../src/traces/context-dedust.ts';
import { contentFromDeploy, deploysAccount } from '../../src/contracts/index.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { assembleBatch } from '../../src/traces/step.ts';
import { createTracesContext } from '../../src/traces/stage-context.ts';
import { rowAddresses, rowMessages, traceAddresses, traceMessages } from '../../src/traces/addresses.ts';
import { loadTraceContext } from '../../src/traces/read-context.ts';
import { traceContext } from '../../src/traces/records.ts';
import { addr, buildTrace } from '../actions/trace-builder.ts';
import { getMethod, prunedBranch } from '../entities/helpers.ts';
import { recordQueries, tempStore } from '../helpers/store.ts';

const FIX = join(import.meta.dirname, '../fixtures');
const block = (f: string) => decodeBlock(readFileSync(join(FIX, 'blocks/mainnet', f)));
const B71398501 = 'mainnet-wc0-8000000000000000-71398501.boc';

/** Rows written by SQL; they reach the key-value store (src/kv, where the context reads states) as an upgraded store's do. */
async function insert(store: StoreClient, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertFormatted(table, encodeJsonLines(rows), 'JSONEachRow');
  if (store.kv) await fillKvFromStore(store, store.kv, { tables: [table] });
}

/** DeDust's Asset, read with @ton/core: native$0000 | jetton$0001 workchain_id:int8 address:bits256. */
function asset(s: Slice): { is_ton: boolean; address: string | null } {
  const kind = s.loadUint(4);
  if (kind === 0) return { is_ton: true, address: null };
  expect(kind).toBe(1);
  return { is_ton: false, address: `${s.loadInt(8)}:${s.loadBuffer(32).toString('hex').toUpperCase()}` };
}

// ---------------------------------------------------------------- DeDust

const POOL = '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588';
/** the pool's state before block 71398501 (its data is the same after: the block's swaps were refunded) */
function poolState(): { code: Cell; data: Cell; balance: bigint; lastLt: bigint } {
  const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(FIX, 'accounts/mainnet-shardaccount-before-block-wc0-71398501-dedust-pool.mainnet-state-3e5ffca8.boc')))[0].beginParse());
  const st = sa.account!.storage.state;
  if (st.type !== 'active') throw new Error('pool not active');
  return { code: st.state.code!, data: st.state.data!, balance: sa.account!.storage.balance.coins, lastLt: sa.lastTransactionLt };
}

/** The store rows a deploy of the pool leaves: its code in contract_code, its whole data in latest_account_states. */
async function storePoolState(store: StoreClient, withData: boolean): Promise<void> {
  const p = poolState();
  const zero = '0'.repeat(64);
  await insert(store, 'contract_code', [{ code_hash: p.code.hash().toString('hex'), code_boc: p.code.toBoc().toString('base64') }]);
  await insert(store, 'latest_account_states', [{
    account: POOL, hash: zero, balance: p.balance.toString(), account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: p.lastLt.toString(),
    code_hash: p.code.hash().toString('hex'), data_hash: p.data.hash().toString('hex'), data_boc: withData ? p.data.toBoc().toString('base64') : null,
  }]);
}

describe('DeDust pools: assets from the chain', () => {
  it('get_assets of the real pool state: TON and a jetton, as the pool answers it run independently', async () => {
    const p = poolState();
    const got = await poolAssetsFromState(p.code, p.data.toBoc().toString('base64'), { account: POOL, balance: p.balance, timestamp: 1 });
    const stack = await getMethod(p.code, p.data, POOL, 'get_assets');
    const want = stack.map((it) => asset((it as { cell: Cell }).cell.beginParse()));
    expect(got?.assets).toEqual(want);
    expect(want[0]).toEqual({ is_ton: true, address: null });
    expect(want[1].is_ton).toBe(false);
    // the assets sit in a subtree of the data a block prunes: without it the run fails, it never guesses
    const pruned = beginCell().storeBits(p.data.bits).storeRef(prunedBranch(p.data.refs[0])).storeRef(p.data.refs[1]).storeRef(p.data.refs[2]).storeRef(p.data.refs[3]).endCell();
    expect(await poolAssetsFromState(p.code, pruned.toBoc().toString('base64'), { account: POOL, balance: p.balance, timestamp: 1 })).toBeNull();
  });

  const withState = tempStore('tg-ctx-dedust-');

  it('the block’s two DeDust swaps classify once the store holds the pool’s state as its deploy left it', async () => {
    const b = block(B71398501);
    await storePoolState(withState.store, true);
    const out = await processMcBatch(withState.traces, new TraceAssembler(), 700, [b]);
    const swaps = out.actions.filter((a) => a.type === 'jetton_swap' && (a.jetton_swap_data as { dex: string }).dex === 'dedust');
    expect(swaps).toHaveLength(2);
    const jetton = (await poolAssetsFromState(poolState().code, poolState().data.toBoc().toString('base64'), { account: POOL, balance: 0n, timestamp: 1 }))!.assets[1].address;
    // the pool refunded both (its transactions' exit code 304): failed swaps whose intended output is the pool's
    // other asset
    const poolTxs = b.transactions.filter((t) => t.account === POOL);
    expect(poolTxs.map((t) => t.description.compute_ph?.exit_code)).toEqual([304, 304]);
    for (const s of swaps) {
      const d = s.jetton_swap_data as { dex_incoming_transfer: { asset: string }; dex_outgoing_transfer: { asset: string; destination: string } };
      expect(s.success).toBe(false);
      expect(s.tx_hashes.some((h) => poolTxs.some((t) => t.hash === h))).toBe(true);
      // asked: the jetton for the pool's other asset, TON (null in the API); paid: the jetton back to the sender
      expect(d.dex_incoming_transfer.asset).toBe(jetton);
      expect(s.asset).toBe(jetton);
      expect(s.asset2).toBeNull();
      expect(d.dex_outgoing_transfer).toMatchObject({ asset: jetton, destination: s.source });
    }
    // written, and read back as the API reads them
    await writeMcBatch(withState.traces, new TraceAssembler(), 700, out);
    const rows = await withState.store.query<{ asset: string; details: string }>("SELECT asset, details FROM actions FINAL WHERE type = 'jetton_swap' AND trace_id IN {t:Array(String)}", { t: swaps.map((x) => x.trace_id) });
    expect(rows.map((r) => [r.asset, (JSON.parse(r.details) as { dex: string }).dex])).toEqual([[jetton, 'dedust'], [jetton, 'dedust']]);
  });
});

describe('DeDust pools: the pool’s code alone', () => {
  const without = tempStore('tg-ctx-dedust-none-');

  it('its assets are nowhere in the store or the block: no DeDust swap (the records are what made them)', async () => {
    await storePoolState(without.store, false);
    const bare = await processMcBatch(without.traces, new TraceAssembler(), 700, [block(B71398501)]);
    expect(bare.actions.filter((a) => a.type === 'jetton_swap' && (a.jetton_swap_data as { dex: string }).dex === 'dedust')).toEqual([]);
  });

  it('the DeDust pool list (--dedust-pools-api) stands in: the stage\'s classifier and the emulation\'s assembleBatch both take it', async () => {
    const b = block(B71398501);
    const dedust = (actions: readonly { type: string; jetton_swap_data?: unknown }[]) => actions.filter((a) => a.type === 'jetton_swap' && (a.jetton_swap_data as { dex: string }).dex === 'dedust');
    // the pool's own assets (get_assets on its real state), as the API list would give them
    const assets = (await poolAssetsFromState(poolState().code, poolState().data.toBoc().toString('base64'), { account: POOL, balance: 0n, timestamp: 1 }))!;
    const list = new DedustPoolList();
    list.set(new Map([[POOL, assets]]));
    const out = await processMcBatch(createTracesContext({ store: without.store, dedustPools: list }), new TraceAssembler(), 700, [b]);
    expect(dedust(out.actions)).toHaveLength(2);
    // assembleBatch, as src/emulate/rows.ts calls it: the records of a context of its own, the list given
    const src = await loadTraceContext(createTracesContext({ store: without.store }), { addresses: rowAddresses(b.transactions), states: b.account_states, messages: rowMessages(b.transactions) });
    expect(dedust(assembleBatch(new TraceAssembler(), 700, b.transactions, src, list.pools).actions)).toHaveLength(2);
    expect(dedust(assembleBatch(new TraceAssembler(), 700, b.transactions, src).actions)).toEqual([]);
  });
});

describe('DeDust pools: a stored swap event', () => {
  const events = tempStore('tg-ctx-dedust-events-');

  it('a swap event the store holds gives a pool’s assets; the pair toncenter’s record names', async () => {
    // real mainnet swap events: those of toncenter's traces, each from a pool toncenter's records describe
    const dir = join(FIX, 'traces/toncenter-indexer/json');
    const found: Array<{ pool: string; body: string; record: Array<{ is_ton: boolean; address: string | null }>; txHash: string; msgHash: string; lt: bigint }> = [];
    for (const f of readdirSync(dir)) {
      const doc = parseJsonExact(readFileSync(join(dir, f), 'utf8')) as { interfaces?: Record<string, { DedustPool?: { assets: Array<{ is_ton: boolean; address: string | null }> } }> };
      const t = traceFromToncenterJson(doc);
      for (const [a, rec] of Object.entries(doc.interfaces ?? {})) {
        if (!rec.DedustPool) continue;
        for (const tx of t.transactions) {
          for (const m of tx.outMsgs) {
            if (m.source === a.toUpperCase() && m.destination === null && m.opcode === DEDUST_SWAP_EVENT_OPCODE && m.body) {
              found.push({ pool: a.toUpperCase(), body: m.body, record: rec.DedustPool.assets.map((x) => ({ is_ton: x.is_ton, address: x.address?.toUpperCase() ?? null })), txHash: tx.hash, msgHash: m.hash, lt: tx.lt });
            }
          }
        }
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(5);
    const sorted = (x: unknown[]) => x.map((v) => JSON.stringify(v)).sort();
    for (const e of found) expect(sorted(poolAssetsFromSwapEvent(e.body)!.assets)).toEqual(sorted(e.record));

    // the store stage's rows of one event (messages keyed by the pool, message_contents by body hash), the pool's
    // state with DeDust's pool code; the trace being classified names the pool and carries no event of it
    const e = found[0];
    const { store } = events;
    const code = poolState().code;
    const zero = '0'.repeat(64);
    const bodyHash = Cell.fromBase64(e.body).hash().toString('hex');
    await insert(store, 'contract_code', [{ code_hash: code.hash().toString('hex'), code_boc: code.toBoc().toString('base64') }]);
    await insert(store, 'latest_account_states', [{ account: e.pool, hash: zero, balance: '1', account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: '1', code_hash: code.hash().toString('hex'), data_boc: null }]);
    await insert(store, 'messages', [{ tx_account: e.pool, tx_lt: e.lt.toString(), direction: 'out', msg_hash: e.msgHash, tx_hash: e.txHash, message_type: 'ext_out', mc_seqno: 1, source: e.pool, destination: null, opcode: DEDUST_SWAP_EVENT_OPCODE | 0, body_hash: bodyHash }]);
    await insert(store, 'message_contents', [{ hash: bodyHash, boc: e.body }]);
    const other = addr(0, 'dd'); // a pool (same code) with no event anywhere
    await insert(store, 'latest_account_states', [{ account: other, hash: zero, balance: '1', account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: '1', code_hash: code.hash().toString('hex'), data_boc: null }]);

    const src = await loadTraceContext(events.traces, { addresses: new Set([e.pool, other]), states: [], messages: [] });
    expect(src.dedustPools!.get(e.pool)).toEqual(poolAssetsFromSwapEvent(e.body));
    expect(src.dedustPools!.has(other)).toBe(false);
    const trace = buildTrace({ account: e.pool, from: addr(0, 'ee') });
    expect(traceContext(trace, src).interfaces![e.pool].raw!.DedustPool).toEqual({ address: e.pool, ...poolAssetsFromSwapEvent(e.body) });
    // what was read is kept, and a pool found nowhere is not asked again at once
    const rec = recordQueries(store);
    const again = await loadTraceContext(events.traces, { addresses: new Set([e.pool, other]), states: [], messages: [] });
    rec.restore();
    expect(again.dedustPools!.get(e.pool)).toEqual(src.dedustPools!.get(e.pool));
    expect(rec.sql.filter((q) => /FROM messages|data_boc IS NOT NULL/.test(q))).toEqual([]);
  });
});

// ---------------------------------------------------------------- Telegram items

const ITEM = '0:CC4629E3C4BE256F2AF3E7CA22E0CACF9285BE6172FADD6FA7FC3BD5C90F3D4A'; // a gift minted in block 71398501
const COLLECTION = '0:F5605A75D80184817E82DEE89687BE7511C4713D9A3A1AD0661F3898DBD8DC6D';

/** TEP-64 off-chain content read with @ton/core: 0x01 then the URI as a snake string. */
function offchainUri(c: Cell): string {
  const parts: Buffer[] = [];
  let s = c.beginParse();
  expect(s.loadUint(8)).toBe(1);
  for (;;) {
    parts.push(s.loadBuffer(s.remainingBits / 8));
    if (!s.remainingRefs) break;
    s = s.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The item's state as a later block carries it (its owner changed, say): the config and content subtrees pruned. */
function laterItemState(): { state: AccountStateRow; owner: string } {
  const st = block(B71398501).account_states.find((s) => s.account === ITEM)!;
  const data = Cell.fromBase64(st.data_boc!);
  const stateCell = data.refs[1];
  const later = beginCell().storeBits(stateCell.bits).storeRef(prunedBranch(stateCell.refs[0])).storeRef(stateCell.refs[1]).endCell();
  const laterData = beginCell().storeBits(data.bits).storeRef(prunedBranch(data.refs[0])).storeRef(later).endCell();
  return {
    state: { ...st, last_trans_lt: st.last_trans_lt + 1000n, code_boc: null, data_boc: null, data_root_boc: laterData.toBoc().toString('base64') },
    owner: later.beginParse().loadAddress().toRawString().toUpperCase(),
  };
}

/** The item's owner starts an auction: the real start_auction and teleitem_ok bodies of block 40484416 (another item's). */
function startAuctionTrace(owner: string) {
  const b2 = block('mainnet-wc0-8000000000000000-40484416.boc');
  const startBody = Cell.fromBase64(b2.transactions.find((t) => t.hash === '1098e9d822ef6feb1692095ada0c901bb280496cae364fa76c0d75b48ad7ec37')!.in_msg!.body_boc!);
  const okBody = Cell.fromBase64(b2.transactions.find((t) => t.hash === 'e9726b6681db80341f38ebfdfb56e85058b16d312511174be14fac82d8c98cd1')!.in_msg!.body_boc!);
  expect(startBody.beginParse().loadUint(32)).toBe(0x487a8e81);
  return buildTrace({ account: owner, from: null, out: [{ account: ITEM, from: owner, body: startBody, out: [{ account: owner, from: ITEM, body: okBody }] }] });
}

describe('Telegram items: content from the chain (the gift mint of block 71398501)', () => {
  const ref = tempStore('tg-ctx-telemint-');

  it('the deploy the batch carries gives the item’s content; the mint is an nft_mint and a Fragment nft_transfer', async () => {
    const b = block(B71398501);
    const deployTx = b.transactions.find((t) => t.account === ITEM)!;
    const deploy = Cell.fromBase64(deployTx.in_msg!.body_boc!);
    // teleitem_msg_deploy#299a3e15 sender bid ^token_info ^nft_content ^auction_config ^royalty_params
    expect(deploy.beginParse().loadUint(32)).toBe(0x299a3e15);
    const uri = offchainUri(deploy.refs[1]);
    expect(uri).toMatch(/^https:\/\/nft\.fragment\.com\/gift\//);
    const src = await loadTraceContext(ref.traces, { addresses: rowAddresses(b.transactions), states: b.account_states, messages: rowMessages(b.transactions) });
    expect(src.itemContents!.get(ITEM)).toEqual({ uri });

    const out = await processMcBatch(ref.traces, new TraceAssembler(), 700, [b]);
    const mint = out.actions.find((a) => a.type === 'nft_mint' && a.asset_secondary === ITEM)!;
    expect(mint).toBeDefined();
    expect(mint.asset).toBe(COLLECTION);
    // the item's index, as its config cell says (teleitem_config$_ item_index:bits256 collection_address)
    const config = Cell.fromBase64(b.account_states.find((s) => s.account === ITEM)!.data_boc!).refs[0].beginParse();
    expect((mint.nft_mint_data as { nft_item_index: bigint }).nft_item_index).toBe(config.loadUintBig(256));
    expect(config.loadAddress().toRawString().toUpperCase()).toBe(COLLECTION);
    const transfer = out.actions.find((a) => a.type === 'nft_transfer' && a.asset_secondary === ITEM)!;
    expect(transfer.nft_transfer_data).toMatchObject({ marketplace: 'fragment', is_purchase: false });
  });

  it('later, from the store alone: an auction start sent to the item is a teleitem_start_auction', async () => {
    // the store stage's rows of the mint's block (messages, message_contents, account states, codes)
    const b = block(B71398501);
    const writer = new StoreWriter(ref.store);
    await writer.writeRows(blockToRows(b, { mcSeqno: 700 }));
    await writer.flush();
    // a process that never saw the mint (a traces context of its own); the item's later state prunes the content,
    // so it can only come from the stored deploy
    const fresh = createTracesContext({ store: ref.store });
    const { state: laterState, owner } = laterItemState();
    const trace = startAuctionTrace(owner);

    const src = await loadTraceContext(fresh, { addresses: traceAddresses(trace.transactions), states: [laterState], messages: traceMessages(trace.transactions) });
    const ctx = traceContext(trace, src);
    expect((ctx.interfaces![ITEM].raw!.NftItem as { content: unknown }).content).toEqual({ uri: offchainUri(Cell.fromBase64(b.transactions.find((t) => t.account === ITEM)!.in_msg!.body_boc!).refs[1]) });
    const actions = classifyTrace({ ...trace, ...ctx }).actions;
    const start = actions.find((a) => a.type === 'teleitem_start_auction');
    expect(start, JSON.stringify(actions.map((a) => a.type))).toBeDefined();
    expect(start).toMatchObject({ source: owner, asset_secondary: ITEM });
  });

  it('a deploy counts only when it carries the item’s own StateInit', () => {
    const b = block(B71398501);
    const m = b.transactions.find((t) => t.account === ITEM)!.in_msg!;
    expect(deploysAccount(ITEM, Cell.fromBase64(m.init_state_boc!).hash().toString('hex'))).toBe(true);
    expect(deploysAccount(COLLECTION, Cell.fromBase64(m.init_state_boc!).hash().toString('hex'))).toBe(false);
    expect(contentFromDeploy(m.body_boc)).not.toBeNull();
    expect(contentFromDeploy(b.transactions[0].in_msg?.body_boc)).toBeNull();
  });
});

describe('Telegram items: a store that never saw the mint', () => {
  const empty = tempStore('tg-ctx-telemint-none-');

  it('the item is not known as a Telegram item: no auction start (the content is what made it)', async () => {
    const { state, owner } = laterItemState();
    const trace = startAuctionTrace(owner);
    const src = await loadTraceContext(empty.traces, { addresses: traceAddresses(trace.transactions), states: [state], messages: traceMessages(trace.transactions) });
    expect(src.itemContents!.size).toBe(0);
    expect(classifyTrace({ ...trace, ...traceContext(trace, src) }).actions.map((a) => a.type)).not.toContain('teleitem_start_auction');
  });
});

// ---------------------------------------------------------------- GetGems auctions

describe('GetGems auctions: the auction’s NFT item (toncenter reads it with the auction)', () => {
  const ref = tempStore('tg-ctx-auction-');
  const AUCTION = addr(0, 'a1'), NFT = addr(0, 'a2'), NFT_COLLECTION = addr(0, 'a3'), SELLER = addr(0, 'a4'), BIDDER = addr(0, 'a5'), MARKET = addr(0, 'a6');
  const zero = '0'.repeat(64);

  it('a bid names the auction only; its NFT\'s index and collection come from nft_items all the same', async () => {
    // the rows the entities stage writes for an auction (src/entities/nft-sales.ts) and its item
    await insert(ref.store, 'nft_sales', [{
      address: AUCTION, type: 'getgems_auction', nft_address: NFT, nft_owner_address: SELLER, marketplace_address: MARKET, created_at: null,
      details: JSON.stringify({ last_bid: '0', min_bid: '1000000000', max_bid: '0' }), last_transaction_lt: 1, code_hash: zero, data_hash: zero,
    }]);
    await insert(ref.store, 'nft_items', [{
      address: NFT, init: true, index: '42', collection_address: NFT_COLLECTION, owner_address: AUCTION, real_owner: SELLER, content: '', last_transaction_lt: 1, code_hash: zero, data_hash: zero,
    }]);
    const trace = buildTrace({ account: BIDDER, from: null, out: [{ account: AUCTION, from: BIDDER, value: 2_000_000_000n }] });
    expect(traceAddresses(trace.transactions).has(NFT)).toBe(false);
    const src = await loadTraceContext(ref.traces, { addresses: traceAddresses(trace.transactions), states: [], messages: traceMessages(trace.transactions) });
    const ctx = traceContext(trace, src);
    expect(ctx.interfaces![NFT].raw!.NftItem).toMatchObject({ address: NFT, index: '42', collection_address: NFT_COLLECTION });
    const bid = classifyTrace({ ...trace, ...ctx }).actions.find((a) => a.type === 'auction_bid')!;
    expect(bid).toMatchObject({ source: BIDDER, destination: AUCTION, asset_secondary: NFT, asset: NFT_COLLECTION, value: 2_000_000_000n });
    expect(bid.nft_transfer_data).toEqual({ nft_item_index: 42n, marketplace: 'getgems' });
  });
});
