export * from './address.ts';
export * from './hash.ts';
export * from './opcode.ts';
export * from './shard.ts';
export * from './bounceable.ts';
export * from './wallet-codes.ts';
export * from './tep64.ts';
