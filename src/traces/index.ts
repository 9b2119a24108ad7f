/**
 * The traces stage: per masterchain batch, assemble traces, classify them (src/actions), derive entities
 * (src/entities) and write the rows; pipelines/traces.ts wires it to the bus. See README.md.
 */
export { loadAssembler, mergeMcBatches, prefetchForBatches, processMcBatch, rememberEntities, writeMcBatch, type McBatchOutput, type UnwrittenEntities } from './stage.ts';
