/**
 * The traces stage's two lookup caches of its context (stage-context.ts) that readBatchContext (read-context.ts)
 * fills: apart from both so that neither imports the other.
 */
import { BoundedMap } from '../util/index.ts';
import type { AccountSnapshot } from './records.ts';

/**
 * States of the batches the stage has folded, newest last (its context keeps them: stage-context.ts): the stage may
 * process several masterchain seqnos before anything is written, and the store stage writes account states on its
 * own schedule, so a trace that spans seqnos finds its earlier accounts here. Bounded; a state here is never newer
 * than the batch being folded.
 */
const MAX_RECENT_STATES = 50_000;

export function createRecentStates(): BoundedMap<string, AccountSnapshot> {
  return new BoundedMap(MAX_RECENT_STATES);
}

/**
 * Addresses the store has no jetton wallet / NFT item / NFT sale row for (the stage's context keeps them). Such a row
 * only appears after a change of the account's state; a changed account is dropped from these sets and not added
 * back while its rows may still be unwritten (UNWRITTEN_BATCHES), so an address is asked for again whenever it may
 * have a row. Without this every batch asked the three tables for every address it names, most of them plain wallets.
 */
export interface Absent {
  jetton: Set<string>;
  nft: Set<string>;
  sale: Set<string>;
  /** batch counter, and the batch in which each account last changed */
  batch: number;
  changedAt: BoundedMap<string, number>;
}
export const MAX_ABSENT = 200_000;
/**
 * Rows of a changed account may stay unwritten for this many batches (the traces stage writes up to 32 seqnos at
 * once); an account changed that recently is never recorded as absent.
 */
export const UNWRITTEN_BATCHES = 64;

export function createAbsent(): Absent {
  return { jetton: new Set(), nft: new Set(), sale: new Set(), batch: 0, changedAt: new BoundedMap(MAX_ABSENT) };
}
