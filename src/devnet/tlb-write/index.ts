/** TL-B writers for devnet blocks and states (crypto/block/block.tlb of ton-blockchain/ton). */
export * from './common.ts';
export * from './hashmap-aug.ts';
export * from './merkle.ts';
export * from './shard-hashes.ts';
export * from './state.ts';
export * from './block.ts';
export * from './validators.ts';
