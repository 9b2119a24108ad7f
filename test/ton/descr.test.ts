/**
 * TransactionDescr constructors that no fixture block contains (storage, split/merge prepare/install):
 * phases taken from real fixture transactions, re-assembled into each constructor with @ton/core's writer
 * (the independent implementation of the same schema), then read back with our reader.
 */
import {
  beginCell,
  Cell,
  loadTransaction,
  storeSplitMergeInfo,
  storeTransaction,
  storeTransactionActionPhase,
  storeTransactionComputePhase,
  storeTransactionCreditPhase,
  storeTransactionDescription,
  storeTransactionsStoragePhase,
  type TransactionDescription,
} from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseBoc, Slice } from '../../src/ton/index.ts';
import { loadTransactionDescr } from '../../src/ton/tlb/transaction.ts';
import { read } from './fixtures.ts';

// a real ordinary transaction with storage, credit, compute (vm) and action phases
const txCell = Cell.fromBoc(read('txs/mainnet-jetton-transfer-wc0-71398501-lt76734069000003-2a587123.boc'))[0];
const tx = loadTransaction(txCell.beginParse());
const ord = tx.description;
if (ord.type !== 'generic') throw new Error('fixture is not an ordinary transaction');

function roundTrip(d: TransactionDescription | Cell) {
  const cell = d instanceof Cell ? d : beginCell().store(storeTransactionDescription(d)).endCell();
  const cells = parseBoc(cell.toBoc());
  return { ours: loadTransactionDescr(new Slice(cells, cells.roots[0], 'TransactionDescr')), cells };
}

const splitInfo = { currentShardPrefixLength: 3, accountSplitDepth: 4, thisAddress: 0x2a58n << 240n, siblingAddress: 0xaa58n << 240n };
const splitInfoRow = {
  cur_shard_pfx_len: 3,
  acc_split_depth: 4,
  this_addr: '2A58' + '0'.repeat(60),
  sibling_addr: 'AA58' + '0'.repeat(60),
};

describe('TransactionDescr constructors absent from the fixtures', () => {
  it('the fixture transaction has every phase', () => {
    expect(ord.storagePhase).toBeTruthy();
    expect(ord.computePhase.type).toBe('vm');
    expect(ord.actionPhase).toBeTruthy();
  });

  it('trans_storage$0001', () => {
    const { ours } = roundTrip({ type: 'storage', storagePhase: ord.storagePhase! });
    expect(ours.type).toBe('storage');
    expect(ours.storage_ph).toEqual({
      storage_fees_collected: ord.storagePhase!.storageFeesCollected,
      storage_fees_due: ord.storagePhase!.storageFeesDue ?? null,
      status_change: ord.storagePhase!.statusChange,
    });
  });

  it('trans_split_prepare$0100', () => {
    // @ton/core's writer stores this constructor's action phase inline (the schema has Maybe ^TrActionPhase),
    // so the action phase is written here by hand, as a ref
    const cell = beginCell()
      .storeUint(0b0100, 4)
      .store(storeSplitMergeInfo(splitInfo))
      .storeBit(true)
      .store(storeTransactionsStoragePhase(ord.storagePhase!))
      .store(storeTransactionComputePhase(ord.computePhase))
      .storeMaybeRef(beginCell().store(storeTransactionActionPhase(ord.actionPhase!)).endCell())
      .storeBit(false)
      .storeBit(true)
      .endCell();
    const { ours } = roundTrip(cell);
    expect(ours.type).toBe('split_prepare');
    expect(ours.split_info).toEqual(splitInfoRow);
    expect(ours.storage_ph?.storage_fees_collected).toBe(ord.storagePhase!.storageFeesCollected);
    expect(ours.compute_ph?.gas_used).toBe(ord.computePhase.type === 'vm' ? ord.computePhase.gasUsed : -1n);
    expect(ours.action?.tot_actions).toBe(ord.actionPhase!.totalActions);
    expect(ours.aborted).toBe(false);
    expect(ours.destroyed).toBe(true);
  });

  it('trans_split_install$0101 (prepare transaction by reference)', () => {
    const { ours } = roundTrip({ type: 'split-install', splitInfo, prepareTransaction: tx, installed: true });
    expect(ours.type).toBe('split_install');
    expect(ours.split_info).toEqual(splitInfoRow);
    expect(ours.installed).toBe(true);
    const re = beginCell().store(storeTransaction(tx)).endCell();
    expect(ours.prepare_transaction_hash).toBe(re.hash().toString('hex'));
  });

  it('trans_merge_prepare$0110', () => {
    // (@ton/core has no writer for the merge constructors: assembled from its phase writers per the schema)
    const cell = beginCell()
      .storeUint(0b0110, 4)
      .store(storeSplitMergeInfo(splitInfo))
      .store(storeTransactionsStoragePhase(ord.storagePhase!))
      .storeBit(true)
      .endCell();
    const { ours } = roundTrip(cell);
    expect(ours).toEqual({
      type: 'merge_prepare',
      split_info: splitInfoRow,
      storage_ph: {
        storage_fees_collected: ord.storagePhase!.storageFeesCollected,
        storage_fees_due: ord.storagePhase!.storageFeesDue ?? null,
        status_change: ord.storagePhase!.statusChange,
      },
      aborted: true,
    });
  });

  it('trans_merge_install$0111', () => {
    const cell = beginCell()
      .storeUint(0b0111, 4)
      .store(storeSplitMergeInfo(splitInfo))
      .storeRef(txCell)
      .storeBit(true)
      .store(storeTransactionsStoragePhase(ord.storagePhase!))
      .storeBit(true)
      .store(storeTransactionCreditPhase(ord.creditPhase!))
      .store(storeTransactionComputePhase(ord.computePhase))
      .storeMaybeRef(beginCell().store(storeTransactionActionPhase(ord.actionPhase!)).endCell())
      .storeBit(false)
      .storeBit(false)
      .endCell();
    const { ours } = roundTrip(cell);
    expect(ours.prepare_transaction_hash).toBe(txCell.hash().toString('hex'));
    expect(ours.type).toBe('merge_install');
    expect(ours.split_info).toEqual(splitInfoRow);
    expect(ours.credit_ph?.credit).toBe(ord.creditPhase?.credit.coins);
    expect(ours.compute_ph?.skipped).toBe(false);
    expect(ours.action?.action_list_hash).toBe(ord.actionPhase!.actionListHash.toString(16).padStart(64, '0'));
    expect(ours.destroyed).toBe(false);
  });
});
