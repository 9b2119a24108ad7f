/**
 * The API's caches of one network it serves: made when the network's routes are mounted (index.ts `v3Routes`) and
 * held by its `Db` (each request's, db.ts), so two networks, or two servers in one process (tests), share none. Each
 * holds values that never change for their key, so an entry is never stale: only the bound pushes it out.
 */
import { TxDocCache } from '../../decode/index.ts';
import { BoundedMap } from '../../util/index.ts';

export interface ApiCaches {
  /** parsed transaction documents (src/decode/docs.ts) */
  docs: TxDocCache;
  /**
   * `message_content.decoded` by body hash (render.ts decodeBody): bodies are immutable per hash and repeat a lot
   * (excesses, comments, notifications)
   */
  bodies: BoundedMap<string, Record<string, unknown> | null>;
  /** user-friendly forms by flags and raw address (address-book.ts) */
  friendly: BoundedMap<string, string | null>;
}

export function createApiCaches(): ApiCaches {
  return { docs: new TxDocCache(), bodies: new BoundedMap(20_000), friendly: new BoundedMap(50_000) };
}
