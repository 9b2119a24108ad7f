/**
 * ↔ indexer/events/context.py: what a matcher reads besides the blocks, for the trace being classified.
 * Upstream keeps it in context variables; classification here is synchronous, so the classifier sets it for the
 * duration of one trace (`withTraceContext`) and matchers read it with `interfaceRepository()`.
 */
import type { DedustPoolAssets } from './dedust-pools.ts';
import { InterfaceRepository } from './interfaces.ts';
import type { Trace } from './model.ts';

// The trace being classified, set and restored around one synchronous classification: nothing outlives it.
let current: InterfaceRepository | null = null;

/** `pools`: the classifier's DeDust pool list (dedust-pools.ts), for pools the trace's records do not describe. */
export function withTraceContext<T>(trace: Pick<Trace, 'interfaces' | 'transactions'>, fn: () => T, pools?: ReadonlyMap<string, DedustPoolAssets>): T {
  const saved = current;
  current = new InterfaceRepository(trace, pools);
  try {
    return fn();
  } finally {
    current = saved;
  }
}

/** The interface repository of the trace being classified (an empty one outside classification). */
export function interfaceRepository(): InterfaceRepository {
  return current ?? new InterfaceRepository({});
}
