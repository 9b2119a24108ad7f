/**
 * ↔ indexer/events/context.py: what a matcher reads besides the blocks, for the trace being classified.
 * Upstream keeps it in context variables; classification here is synchronous, so the classifier sets it for the
 * duration of one trace (`withTraceContext`) and matchers read it with `interfaceRepository()`.
 */
import { InterfaceRepository } from './interfaces.ts';
import type { Trace } from './model.ts';

let current: InterfaceRepository | null = null;

export function withTraceContext<T>(trace: Pick<Trace, 'interfaces' | 'transactions'>, fn: () => T): T {
  const saved = current;
  current = new InterfaceRepository(trace);
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
