/**
 * The decode stage's bus message to the store stage (ton.blocks.decoded, schemas/bus): a block's rows per table. In
 * one process the rows cross by reference; over Kafka as JSON (bigints as decimal strings, which the store's
 * encoders take as they are).
 */
import type { DecodedBlockMessage } from '../../schemas/bus/index.ts';
import { BLOCK_TABLES, type BlockTable, type StoreRows } from './rows.ts';

const KNOWN = new Set<string>(BLOCK_TABLES);

/**
 * A message's rows as the rows of the block tables: every table the message names must be one of them (a message of
 * another version fails here, by name, rather than in an insert); the tables it leaves out are empty.
 */
export function rowsOfMessage(msg: Pick<DecodedBlockMessage, 'rows' | 'id'>): StoreRows {
  for (const t of Object.keys(msg.rows)) {
    if (!KNOWN.has(t)) throw new Error(`decoded block ${msg.id.workchain}:${msg.id.shard}:${msg.id.seqno}: rows of an unknown table "${t}"`);
  }
  const out = {} as StoreRows;
  for (const t of BLOCK_TABLES) out[t as BlockTable] = msg.rows[t] ?? [];
  return out;
}
