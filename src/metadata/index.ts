/** Off-chain token metadata (TEP-64): content parsing, the fetcher and its background loop. */
export { parseContentCell, parseStoredContent, metadataFields, type TokenContent, type MetadataFields } from './content.ts';
export { FetchError, HostRateLimiter, fetchJsonObject, realClock, resolveUri, type Clock } from './fetch.ts';
export { MetadataFetcher, type Candidate, type MetadataFetcherOptions, type MetadataType, type RoundStats } from './fetcher.ts';
