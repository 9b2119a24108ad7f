export {
  parseBlock,
  blockKey,
  shardHex,
  shardOverlaps,
  SHARD_ALL,
  BlockParseError,
  type BlockIdExt,
  type BlockHeader,
  type BlockTx,
  type ParsedBlock,
  type ShardDescr,
} from './block.ts';
export {
  MemoryChain,
  ChainMessageError,
  type ChainSource,
  type ChainBlock,
  type ChainTx,
  type ZeroStateId,
  type MemoryChainOptions,
} from './source.ts';
export { loadChainDir, loadRecordedChain, blockFileName, ChainLoadError, APPENDED_BLOCKS, type LoadDirOptions, type ChainJson, type ChainJsonBlock } from './load.ts';
export { LiveChain, type BlockProducer } from './live.ts';
