/**
 * Public API of the TON decoding core (pure: bytes in, typed rows out). Other stages import only from here.
 *
 * - decodeBlock(boc)            full Block BoC -> DecodedBlock (id, info, transactions + messages, account states,
 *                               shard descriptors and key-block config for masterchain blocks)
 * - decodeBlockHeader(boc)      id + global_id + BlockInfo only
 * - blockRootHash(boc)          root cell representation hash (lower-case hex); fileHash(boc): sha256 of the bytes
 * - decodeTransaction(boc, wc)  one Transaction cell BoC -> TransactionRow (with in/out messages)
 * - decodeMessage(boc)          one Message cell BoC -> MessageRow
 * - decodeAccount(boc)          one Account cell BoC (a liteserver's account state) -> status, code / data hashes and BoCs
 * - parseBoc / cellHash / bocOfCell: BoC parsing, cell hashing and subtree serialization in the node's cell order
 * - computeValidatorSubset / validatorSetHashShort / checkBlockSignatures: validator groups and block
 *                               signatures as the node computes and checks them (validators.ts)
 *
 * Every function throws DecodeError (one clear message) on input that is not what it expects.
 */
import { parseBoc } from './cell/boc.ts';
import { serializeBoc, type BocMode } from './cell/std-boc.ts';
import { DecodeError } from './errors.ts';
import { readAccount, type AccountInfo } from './tlb/account.ts';
import { readMessage, type MessageRow } from './tlb/message.ts';
import { readTransaction, type TransactionRow } from './tlb/transaction.ts';

export * from './block/types.ts';
export type { BlockId, BlockInfo, BlockRef, BlockRefFull, ExtBlkRef, GlobalVersion } from './tlb/block-info.ts';
export type { AccountStatus, AccStatusChange, ExtraCurrencies, MsgSize } from './tlb/common.ts';
export type { BlockConfig, ConfigParamCell, FutureSplitMerge, ShardDescr, ValidatorSetSummary } from './tlb/mc-extra.ts';
export type { MessageRow, MessageType } from './tlb/message.ts';
export type { ActionPhase, BouncePhase, ComputePhase, CreditPhase, SplitMergeInfo, StoragePhase, TransactionDescr, TransactionRow } from './tlb/transaction.ts';
export { DecodeError } from './errors.ts';
export { decodeBlock, decodeBlockHeader, blockRootHash, fileHash, ACCOUNT_NONE_HASH } from './block/decode.ts';
export { parseBoc, Cells, CELL_ORDINARY, CELL_PRUNED, CELL_LIBRARY, CELL_MERKLE_PROOF, CELL_MERKLE_UPDATE } from './cell/boc.ts';
export { Slice } from './cell/slice.ts';
export { serializeBoc, serializeCellTree, type BocMode, type CellTreeView } from './cell/std-boc.ts';
export type { AccountInfo } from './tlb/account.ts';
export { blockInfoCell, extBlkRefCell, loadExtBlkRef, readBlockInfo, readBlockInfoCell, storeExtBlkRef, storeGlobalVersion, storeShardIdent } from './tlb/block-info.ts';
export { loadShardDescr, mcBlockExtraCell, storeShardDescr, storeShardHashes, type McBlockExtra } from './tlb/mc-extra.ts';
export { currencyAug, storeCurrencyCollection } from './tlb/common.ts';
export { buildHashmapAug, hashmapAugECell, storeHashmapAug, storeHashmapAugE, storeHmLabel, type AugEntry, type AugKind } from './tlb/hashmap.ts';
export {
  depthBalanceAug,
  mcStateExtraCell,
  outMsgQueueInfoCell,
  shardAccountsCell,
  shardStateCell,
  splitStateCell,
  type McStateInfo,
  type QueuedMsg,
  type ShardStateInfo,
  type StateAccount,
} from './tlb/account.ts';
export {
  blockCell,
  blockExtraCell,
  inMsgDescrCell,
  msgEnvelopeCell,
  outMsgDescrCell,
  shardAccountBlocksCell,
  valueFlowCell,
  type AccountBlock,
  type AccountBlockTx,
  type ImportFees,
  type InMsg,
  type OutMsg,
  type ValueFlow,
} from './block/encode.ts';
export { collectHashes, merkleUpdate, prunedBranch, sharedCells } from './cell/merkle.ts';
export {
  computeValidatorSubset,
  validatorSetHashShort,
  nodeIdShort,
  blockSignedData,
  checkBlockSignatures,
  ed25519Verify,
  crc32c,
  ValidatorSetError,
  type ValidatorDescr,
  type ValidatorSet,
  type CatchainConfig,
  type BlockSignature,
  type ShardId,
} from './validators.ts';

function single(boc: Uint8Array, what: string) {
  if (!(boc instanceof Uint8Array)) throw new DecodeError(`${what} BoC must be bytes`);
  const cells = parseBoc(boc);
  return { cells, root: cells.roots[0] };
}

/**
 * Decode a BoC whose root is a Transaction cell. `workchain` renders the account (the cell holds only its 256 bits);
 * `globalVersion` (of the block that holds it; 0 when unknown) names the messages' `extra_flags` / `ihr_fee` field.
 */
export function decodeTransaction(boc: Uint8Array, workchain = 0, globalVersion = 0): TransactionRow {
  const { cells, root } = single(boc, 'transaction');
  return readTransaction(cells, root, workchain, globalVersion);
}

/** Decode a BoC whose root is a Message cell (`globalVersion` as for decodeTransaction). */
export function decodeMessage(boc: Uint8Array, globalVersion = 0): MessageRow {
  const { cells, root } = single(boc, 'message');
  return readMessage(cells, root, globalVersion);
}

/**
 * Decode a BoC whose root is an Account cell (liteServer.accountState `state`), as the block decoder reads account
 * states: status, balance, code / data hashes, and their BoCs when the cell carries them unpruned.
 */
export function decodeAccount(boc: Uint8Array): AccountInfo {
  const { cells, root } = single(boc, 'account');
  return readAccount(cells, root);
}

/**
 * A cell of another library (a @ton/core `Cell`: anything with `toBoc`) serialized as the node does: API v2 renders
 * cells as tonlib does (`to_bytes`: `std_boc_serialize(cell, WithCRC32C)`), and @ton/core orders some trees otherwise.
 */
export function nodeBoc(cell: { toBoc(opts?: { idx?: boolean; crc32?: boolean }): Buffer }, mode: BocMode = {}): Buffer {
  return bocOfCell(cell.toBoc({ idx: false, crc32: false }), mode);
}

/** Representation hash (lower-case hex) of the first root of a BoC. */
export function cellHash(boc: Uint8Array): string {
  const { cells, root } = single(boc, 'cell');
  return cells.hashHex(root);
}

/**
 * Re-serialize the first root of a BoC as the node's `vm::std_boc_serialize` does (its cell order, no index;
 * `mode.crc`: with the CRC32-C, as tonlib and toncenter's indexer serialize bodies, init states and stack cells).
 * Byte-identical to the node's output for the same cell tree, whatever serializer wrote the input.
 */
export function bocOfCell(boc: Uint8Array, mode: BocMode = {}): Buffer {
  const { cells, root } = single(boc, 'cell');
  return serializeBoc(cells, root, mode);
}
