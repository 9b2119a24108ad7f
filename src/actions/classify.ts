/**
 * classifyTrace: one completed trace -> its action rows, as upstream's trace processor
 * (indexer/events/trace_processor.py `TraceProcessor.process_trace`, driving event_processing.py):
 * - a lone tick-tock transaction has no actions;
 * - otherwise the matched, post-processed blocks are serialised (state `ok`, or `broken` when a block is);
 * - no action at all: the unknown-trace fallback (a failed wallet external's intended messages, else `unknown`);
 * - a failure anywhere in matching or serialising: the basic blocks' actions, state `failed`.
 */
import { withTraceContext } from './context.ts';
import type { DedustPoolAssets } from './dedust-pools.ts';
import type { Block } from './core.ts';
import type { ActionRow, Trace } from './model.ts';
import { processEventWithPostprocessing, tryClassifyBasicActions, tryClassifyUnknownTrace } from './processing.ts';
import { serializeBlocks } from './serializer.ts';

export interface Classification {
  /** top-level actions in block order, each followed by the child actions serialised with it */
  actions: ActionRow[];
  /** the post-processed top-level blocks (root excluded), for the conformance runner's expected-blocks */
  blocks: Block[];
  /** upstream's classification_state */
  state: 'ok' | 'broken' | 'failed';
  /** what made the classification fail (state `failed`) */
  error?: Error;
}

/** `opts.dedustPools`: the DeDust pool list (dedust-pools.ts), the fallback for pools the trace's records do not describe. */
export function classifyTrace(trace: Trace, opts: { dedustPools?: ReadonlyMap<string, DedustPoolAssets> } = {}): Classification {
  return withTraceContext(trace, (repository) => {
    const txs = trace.transactions;
    if (txs.length === 1 && txs[0].descr === 'tick_tock') return { actions: [], blocks: [], state: 'ok' };
    try {
      const blocks = processEventWithPostprocessing(trace, repository);
      const res = serializeBlocks(blocks, trace);
      let actions = res.actions;
      if (actions.length === 0 && txs.length > 0) actions = tryClassifyUnknownTrace(trace, repository);
      return { actions, blocks: blocks.filter((b) => b.btype !== 'root'), state: res.state };
    } catch (e) {
      return { actions: tryClassifyBasicActions(trace, repository), blocks: [], state: 'failed', error: e instanceof Error ? e : new Error(String(e)) };
    }
  }, opts.dedustPools);
}
