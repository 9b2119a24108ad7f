/** ↔ indexer/events/blocks/utils/block_utils.py: finding blocks among those a matcher collected. */
import type { Slice } from '@ton/core';
import { CallContractBlock } from './basic-blocks.ts';
import { AccountValueFlow, Block } from './core.ts';
import { LabelBlock } from './labels.ts';

export function findCallContracts(blocks: Block[], opcode: number | ReadonlySet<number>): CallContractBlock[] {
  const has = (op: number | null) => op !== null && (typeof opcode === 'number' ? op === opcode >>> 0 : opcode.has(op));
  return blocks.filter((b): b is CallContractBlock => b instanceof CallContractBlock && has(b.opcode));
}

export function findCallContract(blocks: Block[], opcode: number): CallContractBlock | null {
  return findCallContracts(blocks, opcode)[0] ?? null;
}

/** A message layout class (messages/*.ts): its opcode and a reader of its body. */
export interface MessageClass<T> {
  readonly opcode: number;
  new (s: Slice): T;
}

/** Every call_contract of the layout's opcode with its body read (a body that does not read fails the call). */
export function findMessages<T>(blocks: Block[], cls: MessageClass<T>): Array<[CallContractBlock, T]> {
  return findCallContracts(blocks, cls.opcode).map((b) => [b, new cls(b.getBody())]);
}

export function mergeFlows(blocks: Block[]): AccountValueFlow {
  const flow = new AccountValueFlow();
  for (const b of blocks) flow.merge(b.valueFlow);
  return flow;
}

type BlockClass<T extends Block> = abstract new (...args: never[]) => T;

export function getLabeled<T extends Block = Block>(label: string, blocks: Block[], blockType?: BlockClass<T>): T | null {
  return getMultipleLabeled(label, blocks, blockType)[0] ?? null;
}

export function getMultipleLabeled<T extends Block = Block>(label: string, blocks: Block[], blockType?: BlockClass<T>): T[] {
  const cls = (blockType ?? Block) as BlockClass<T>;
  const out: T[] = [];
  for (const b of blocks) {
    if (b instanceof LabelBlock && b.block instanceof cls && b.label === label) out.push(b.block);
  }
  return out;
}

export function getLabeledSorted<T extends Block = Block>(label: string, blocks: Block[], blockType?: BlockClass<T>): T[] {
  return getMultipleLabeled(label, blocks, blockType).sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
}
