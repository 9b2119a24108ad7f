/**
 * Contract layouts: cells in, typed records out (message bodies, account data, code -> get-method ids and
 * interfaces, TEP-64 content, opcodes). Pure, no I/O: actions, entities, traces and the store read contracts
 * through this file. See README.md.
 */
export * from './cells.ts';
export * from './opcodes.ts';
export * from './jetton.ts';
export * from './nft.ts';
export * from './data-layouts.ts';
export * from './item-layouts.ts';
export * from './code-methods.ts';
export * from './interfaces.ts';
export * from './content.ts';
export * from './layout.ts';
export * from './order-actions.ts';
export * from './multisig.ts';
export * from './vesting.ts';
export * from './dns.ts';
export * from './validators.ts';
export * from './nominator-pool.ts';
