/**
 * Jetton and NFT entities and events of one masterchain batch (pure).
 *
 * An account is a jetton wallet / NFT item when a transaction of the batch is addressed to it with a TEP-74 /
 * TEP-62 opcode and its data (after the block) reads exactly in a standard layout; accounts seen in earlier
 * batches come from `known` (the store's jetton_wallets / nft_items). Events follow the reference indexer:
 * a jetton transfer is the `transfer` a wallet receives from its owner, a burn the `burn` it receives, an NFT
 * transfer the `transfer` an item receives; aborted transactions are kept with `tx_aborted`.
 */
import { parseJettonBurn, parseJettonTransfer, parseNftTransfer, OP, cellOf, parseJettonWalletData, parseNftItemData, type JettonWalletData, type NftItemData } from '../contracts/index.ts';
import type { Row } from '../util/index.ts';
import type { AccountStateRow, MessageRow, TransactionRow } from '../ton/index.ts';
import { STATE_TABLES } from './family.ts';
import { emptyStateTables, type StateTables } from './state-rows.ts';

export interface KnownEntities {
  jettonWallets: ReadonlyMap<string, { owner: string; jetton: string }>;
  nftItems: ReadonlyMap<string, { index: bigint; collection: string | null }>;
}

export interface BatchTx {
  tx: TransactionRow;
  mcSeqno: number;
  traceId: string | null;
}

export interface EventTables {
  jetton_wallets: Row[];
  nft_items: Row[];
  jetton_transfers: Row[];
  jetton_burns: Row[];
  nft_transfers: Row[];
  /** validators.ts: filled by the traces step, which knows the elector's address */
  validator_events: Row[];
  validator_cycles: Row[];
  validator_cycle_members: Row[];
  /** nominator-pool-replay.ts: filled by the traces stage from a liteserver's states and the emulator */
  nominator_pools: Row[];
  nominator_pool_events: Row[];
  nominator_pool_validator_events: Row[];
  /** elector.ts / elector-reader.ts: filled by the traces stage from the elector's get-methods */
  validator_elections: Row[];
  validator_election_participants: Row[];
  validator_complaints: Row[];
}

export const EVENT_TABLES = ['jetton_wallets', 'nft_items', 'jetton_transfers', 'jetton_burns', 'nft_transfers', 'validator_events', 'validator_cycles', 'validator_cycle_members', 'nominator_pools', 'nominator_pool_events', 'nominator_pool_validator_events',
  'validator_elections', 'validator_election_participants', 'validator_complaints'] as const;

/** Everything the traces stage writes for entities: these events and the entity-state rows (state-rows.ts). */
export type EntityTables = EventTables & StateTables;

export const ENTITY_TABLES = [...EVENT_TABLES, ...STATE_TABLES] as const;

const JETTON_OPS = new Set<number>([OP.jettonTransfer, OP.jettonInternalTransfer, OP.jettonBurn]);
const NFT_OPS = new Set<number>([OP.nftTransfer, OP.nftGetStaticData]);

function inOp(tx: TransactionRow): number | null {
  const op = tx.in_msg?.message_type === 'int' ? tx.in_msg.opcode : null;
  return op === null ? null : op >>> 0;
}

/** Accounts of the batch whose transactions suggest a jetton wallet / NFT item. */
export function candidates(txs: readonly BatchTx[]): { jetton: Set<string>; nft: Set<string> } {
  const jetton = new Set<string>();
  const nft = new Set<string>();
  for (const { tx } of txs) {
    const op = inOp(tx);
    if (op === null) continue;
    if (JETTON_OPS.has(op)) jetton.add(tx.account);
    if (NFT_OPS.has(op)) nft.add(tx.account);
  }
  return { jetton, nft };
}

type WalletEntity = { owner: string; jetton: string };
type ItemEntity = { index: bigint; collection: string | null };

/** The event tables filled; the entity-state tables empty (state-rows.ts fills them). */
export function entityEvents(txs: readonly BatchTx[], states: readonly AccountStateRow[], known: KnownEntities): EntityTables {
  const out: EntityTables = {
    jetton_wallets: [], nft_items: [], jetton_transfers: [], jetton_burns: [], nft_transfers: [], validator_events: [], validator_cycles: [], validator_cycle_members: [],
    nominator_pools: [], nominator_pool_events: [], nominator_pool_validator_events: [],
    validator_elections: [], validator_election_participants: [], validator_complaints: [],
    ...emptyStateTables(),
  };
  const cand = candidates(txs);
  const wallets = new Map<string, WalletEntity>(known.jettonWallets);
  const items = new Map<string, ItemEntity>(known.nftItems);
  pushEntities(out, states, cand, wallets, items);
  for (const btx of txs) pushEvent(out, btx, wallets, items);
  return out;
}

/**
 * The candidates whose data (after the block) reads as a jetton wallet (tried first) or an NFT item: their
 * `jetton_wallets` / `nft_items` rows, and each added to `wallets` / `items` for the batch's events.
 */
function pushEntities(
  out: EntityTables,
  states: readonly AccountStateRow[],
  cand: { jetton: Set<string>; nft: Set<string> },
  wallets: Map<string, WalletEntity>,
  items: Map<string, ItemEntity>,
): void {
  for (const st of states) {
    if (st.account_status !== 'active' || !(cand.jetton.has(st.account) || cand.nft.has(st.account))) continue;
    const data = cellOf(st.data_root_boc);
    if (!data) continue;
    const jw: JettonWalletData | null = cand.jetton.has(st.account) ? parseJettonWalletData(data) : null;
    const ni: NftItemData | null = !jw && cand.nft.has(st.account) ? parseNftItemData(data) : null;
    if (jw) {
      wallets.set(st.account, { owner: jw.owner, jetton: jw.jetton });
      out.jetton_wallets.push({
        address: st.account,
        balance: jw.balance,
        owner: jw.owner,
        jetton: jw.jetton,
        last_transaction_lt: st.last_trans_lt,
        code_hash: st.code_hash,
        data_hash: st.data_hash,
      });
    } else if (ni) {
      items.set(st.account, { index: ni.index, collection: ni.collection });
      out.nft_items.push({
        address: st.account,
        init: ni.init,
        index: ni.index,
        collection_address: ni.collection,
        owner_address: ni.owner,
        real_owner: ni.owner,
        content: '',
        last_transaction_lt: st.last_trans_lt,
        code_hash: st.code_hash ?? '0'.repeat(64),
        data_hash: st.data_hash ?? '0'.repeat(64),
      });
    }
  }
}

/** The event of one transaction, if any: a jetton transfer or burn a known wallet receives, an NFT transfer a known item receives. */
function pushEvent(out: EntityTables, { tx, mcSeqno, traceId }: BatchTx, wallets: ReadonlyMap<string, WalletEntity>, items: ReadonlyMap<string, ItemEntity>): void {
  const op = inOp(tx);
  const msg = tx.in_msg;
  if (op === null || !msg) return;
  const base = {
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    tx_now: tx.now,
    tx_aborted: tx.description.aborted ?? false,
    mc_seqno: mcSeqno,
    trace_id: traceId,
  };
  if (op === OP.jettonTransfer && wallets.has(tx.account)) {
    const row = jettonTransferRow(base, tx, msg, wallets.get(tx.account)!);
    if (row) out.jetton_transfers.push(row);
  } else if (op === OP.jettonBurn && wallets.has(tx.account)) {
    const row = jettonBurnRow(base, tx, msg, wallets.get(tx.account)!);
    if (row) out.jetton_burns.push(row);
  } else if (op === OP.nftTransfer && items.has(tx.account)) {
    const row = nftTransferRow(base, tx, msg, items.get(tx.account)!);
    if (row) out.nft_transfers.push(row);
  }
}

/** The columns every event row starts with: its transaction and trace. */
type EventBase = { tx_hash: string; tx_lt: bigint; tx_now: number; tx_aborted: boolean; mc_seqno: number; trace_id: string | null };

/** A wallet's `transfer` from its owner; null when the body or an address does not read. */
function jettonTransferRow(base: EventBase, tx: TransactionRow, msg: MessageRow, w: WalletEntity): Row | null {
  const t = parseJettonTransfer(msg.body_boc);
  if (!t || !t.destination || !msg.source) return null;
  return {
    ...base,
    query_id: t.queryId,
    amount: t.amount,
    source: msg.source,
    destination: t.destination,
    jetton_wallet_address: tx.account,
    jetton_master_address: w.jetton,
    response_destination: t.responseDestination,
    custom_payload: t.customPayload,
    forward_ton_amount: t.forwardAmount,
    forward_payload: t.forwardPayload.boc,
  };
}

/** A wallet's `burn`; null when the body or the sender does not read. */
function jettonBurnRow(base: EventBase, tx: TransactionRow, msg: MessageRow, w: WalletEntity): Row | null {
  const b = parseJettonBurn(msg.body_boc);
  if (!b || !msg.source) return null;
  return {
    ...base,
    query_id: b.queryId,
    owner: msg.source,
    jetton_wallet_address: tx.account,
    jetton_master_address: w.jetton,
    amount: b.amount,
    response_destination: b.responseDestination,
    custom_payload: b.customPayload,
  };
}

/** An item's `transfer`; null when the body or an address does not read. */
function nftTransferRow(base: EventBase, tx: TransactionRow, msg: MessageRow, it: ItemEntity): Row | null {
  const t = parseNftTransfer(msg.body_boc);
  if (!t || !t.newOwner || !msg.source) return null;
  return {
    ...base,
    query_id: t.queryId,
    nft_item_address: tx.account,
    nft_item_index: it.index,
    nft_collection_address: it.collection,
    old_owner: msg.source,
    new_owner: t.newOwner,
    response_destination: t.responseDestination,
    custom_payload: t.customPayload,
    forward_amount: t.forwardAmount,
    forward_payload: t.forwardPayload?.boc ?? null,
  };
}
