/**
 * The traces stage: per masterchain batch, read its context (read-context.ts), fold it (step.ts: assemble traces,
 * classify them with src/actions, derive entities with src/entities), write the rows (stage.ts, src/store);
 * pipelines/traces.ts wires it to the bus. See README.md.
 */
export { assembleBatch, mergeMcBatches, rememberEntities, startBatch, type BatchContext, type McBatchOutput, type StartedBatch, type TraceBatch, type TracedRows, type UnwrittenEntities } from './step.ts';
export { loadKnownEntities, prefetchForBatches, readBatchContext } from './read-context.ts';
export { loadAssembler, processMcBatch, startMcBatch, writeMcBatch, type McBatchOptions, type StartedMcBatch } from './stage.ts';
export { createClassifier, type Classifier, type ClassifierStats, type DeriveInput } from './classify-pool.ts';
export { createTracesContext, type TracesContext, type TracesContextOptions } from './stage-context.ts';
// the emulated traces of src/emulate: folded, given their context and classified as indexed ones
export { TraceAssembler, type TraceRow } from './assembler.ts';
export { loadTraceContext } from './read-context.ts';
export type { AccountSnapshot, TraceContextSource } from './records.ts';
