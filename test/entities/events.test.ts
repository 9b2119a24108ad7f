import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/ton/index.ts';
import { entityEvents, type BatchTx } from '../../src/entities/events.ts';

const FIX = join(import.meta.dirname, '../fixtures');
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const none = { jettonWallets: new Map(), nftItems: new Map() };

function batch(file: string): { txs: BatchTx[]; states: ReturnType<typeof decodeBlock>['account_states'] } {
  const b = decodeBlock(readFileSync(join(FIX, file)));
  return { txs: b.transactions.map((tx) => ({ tx, mcSeqno: 42, traceId: tx.hash })), states: b.account_states };
}

// The USDT jetton master (mainnet EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs).
const USDT_MASTER = raw(Address.parse('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'));

describe('jetton and NFT events from real mainnet blocks', () => {
  it('USDT transfer in block 71398501: fields equal the transfer message read independently', () => {
    const { txs, states } = batch('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc');
    const ev = entityEvents(txs, states, none);
    const t = ev.jetton_transfers.find((r) => r.tx_hash === '92c59e9957a0484e273df28293ad18947f71876ca4524415d842cbc5b5357187');
    expect(t).toBeDefined();
    // independent reading of the in_msg with @ton/core (TEP-74 transfer#0f8a7ea5)
    const msg = loadMessage(Cell.fromBoc(readFileSync(join(FIX, 'msgs/mainnet-jetton-transfer-in-msg-lt76734069000003-2a587123.boc')))[0].beginParse());
    const s = msg.body.beginParse();
    expect(s.loadUint(32)).toBe(0x0f8a7ea5);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const destination = s.loadAddress();
    expect(t).toMatchObject({
      tx_lt: 76734069000003n,
      mc_seqno: 42,
      tx_aborted: false,
      query_id: queryId,
      amount,
      source: raw(msg.info.src as Address),
      destination: raw(destination),
      jetton_wallet_address: '0:2A5871238E9DB350E00D02F34BE8891EB7A404220BEA7001B7E17CDE5FA9B247',
      jetton_master_address: USDT_MASTER,
    });
    // the wallet itself: owner = the transfer's sender, jetton = USDT
    const w = ev.jetton_wallets.find((r) => r.address === t!.jetton_wallet_address)!;
    expect(w).toMatchObject({ owner: t!.source, jetton: USDT_MASTER });
    expect(typeof w.balance).toBe('bigint');
  });

  it('a wallet known from an earlier batch still yields its events', () => {
    const { txs, states } = batch('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc');
    const first = entityEvents(txs, states, none);
    const known = new Map(first.jetton_wallets.map((w) => [w.address as string, { owner: w.owner as string, jetton: w.jetton as string }]));
    const again = entityEvents(txs, [], { jettonWallets: known, nftItems: new Map() });
    expect(again.jetton_transfers).toEqual(first.jetton_transfers);
    expect(entityEvents(txs, [], none).jetton_transfers).toEqual([]);
  });

  it('NFT transfer in block 27159537: item, index, collection, old and new owner', () => {
    const { txs, states } = batch('blocks/mainnet/mainnet-wc0-8000000000000000-27159537.boc');
    const ev = entityEvents(txs, states, none);
    const t = ev.nft_transfers.find((r) => r.tx_hash === '95d064c52fe072f82d0c090b348b231451d39a91e2ee51e83aaf84a68132760c')!;
    expect(t).toBeDefined();
    const msg = loadMessage(Cell.fromBoc(readFileSync(join(FIX, 'msgs/mainnet-nft-transfer-in-msg-lt29369739000008-66ab4f74.boc')))[0].beginParse());
    const s = msg.body.beginParse();
    expect(s.loadUint(32)).toBe(0x5fcc3d14);
    expect(t.query_id).toBe(s.loadUintBig(64));
    expect(t.new_owner).toBe(raw(s.loadAddress()));
    expect(t.old_owner).toBe(raw(msg.info.src as Address));
    expect(t.nft_item_address).toBe('0:66AB4F7458C9C6A61B3DA831A674A54A1CF365314C318812B76622788E64B267');
    const item = ev.nft_items.find((r) => r.address === t.nft_item_address)!;
    expect(item.init).toBe(true);
    expect(item.index).toBe(t.nft_item_index);
    expect(item.collection_address).toBe(t.nft_collection_address);
    // after the transfer the item belongs to the new owner
    expect(item.owner_address).toBe(t.new_owner);
  });
});
