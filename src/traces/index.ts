/**
 * The traces stage: per masterchain batch, assemble traces, classify them (src/actions), derive entities
 * (src/entities) and write the rows; pipelines/traces.ts wires it to the bus. See README.md.
 */
export { loadAssembler, mergeMcBatches, prefetchForBatches, processMcBatch, rememberEntities, startMcBatch, writeMcBatch, type McBatchOutput, type StartedMcBatch, type UnwrittenEntities } from './stage.ts';
export { createClassifier, type Classifier, type ClassifierStats } from './classify-pool.ts';
