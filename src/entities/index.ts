/**
 * Entities: jetton / NFT events (events.ts) and the state of jetton masters, NFT collections, DNS entries,
 * multisig wallets and orders, vesting wallets and NFT sales (state-rows.ts). See README.md.
 */
export { candidates, ENTITY_TABLES, entityEvents, EVENT_TABLES, type BatchTx, type EntityTables, type EventTables, type KnownEntities } from './events.ts';
export { addStateStats, completeEntityStates, emptyStateStats, emptyStateTables, entityStateRows, entityStateTotals, planStats, readEntityCodes, type EntityLookup, type EntityStateRows, type StateStats, type StateTables } from './state-rows.ts';
export { deriveEntityStates, planEntityStates, type CodeBocs, type DerivedEntityStates, type EntityStatePlan } from './derive.ts';
export { storeEntityLookup, withFetchedCodes } from './store-lookup.ts';
export { blockIdExtOf, LiteserverCodeFetcher, type AccountStateSource, type CodeFetchOptions, type CodeFetchResult, type CodeFetchStats, type CodeWanted } from './liteserver-codes.ts';
export { STATE_TABLES, type StateTable } from './family.ts';
export { ContractReader } from './contract-reader.ts';
export { blockConfigParam, electorOf, validatorCycleRows, validatorEventOf, validatorEventRows } from './validators.ts';
export { NominatorPoolReplayer, addPoolStats, emptyPoolStats, type PoolChainSource, type PoolReplayStats, type PoolTables } from './nominator-pool-replay.ts';
export { activeElection, complaintElectionId, configDictCell, electorDataChanged, configParamReader, cycleComplaints, ELECTOR_TABLES, electorCycles, electorSnapshot, electorTriggers, pastElectionsByVsetHash, type ElectorGetMethod, type ElectorSnapshot, type ElectorTables, type ElectorTriggers } from './elector.ts';
export { ElectorReader, electorGetMethod, emptyElectorStats, type ElectorChainSource, type ElectorReadStats } from './elector-reader.ts';
