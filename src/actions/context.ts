/**
 * ↔ indexer/events/context.py: what a matcher reads besides the blocks, for the trace being classified. Upstream
 * keeps it in context variables set around a trace; here it travels with the trace: `toTree` gives every event node
 * the trace's interface repository, so a matcher reads it from the block it is handed (`interfaceRepository(block)`)
 * and nothing is kept between two classifications.
 */
import type { Block } from './core.ts';
import type { DedustPoolAssets } from './dedust-pools.ts';
import { InterfaceRepository } from './interfaces.ts';
import type { Trace } from './model.ts';

/**
 * The trace's interface repository: its records, and `pools` (the classifier's DeDust pool list, dedust-pools.ts)
 * for pools they do not describe.
 */
export function traceRepository(trace: Pick<Trace, 'interfaces' | 'transactions'>, pools?: ReadonlyMap<string, DedustPoolAssets>): InterfaceRepository {
  return new InterfaceRepository(trace, pools);
}

/** `fn` given the trace's repository (`traceRepository`), to build the trace's event tree with (`toTree`). */
export function withTraceContext<T>(trace: Pick<Trace, 'interfaces' | 'transactions'>, fn: (repository: InterfaceRepository) => T, pools?: ReadonlyMap<string, DedustPoolAssets>): T {
  return fn(traceRepository(trace, pools));
}

/**
 * The interface repository of the trace a block was built from (its event nodes carry it). A block of no event node
 * (the root, a block before its merge) has none: asking it is a matcher's mistake, and fails the classification.
 */
export function interfaceRepository(block: Block): InterfaceRepository {
  const node = block.eventNodes[0];
  if (!node) throw new Error(`a ${block.btype} block has no event node to read the trace's records from`);
  return node.repository;
}
