/**
 * TEP-64 token content (jettons, NFT collections and items), pure:
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   keys are sha256 of the attribute name
 *   offchain#01 uri:Text = FullContent;                          a snake string, the URI of a JSON document
 *   snake#00 data:(SnakeData ~n) = ContentData;  chunks#01 data:ChunkedData = ContentData;
 * Semi-chain: an on-chain dictionary that also holds `uri`; its on-chain values take precedence over the
 * JSON's. Also accepted: the content as the store keeps it (a JSON object of the parsed content, as the
 * reference's jsonb columns, or a base64 BoC of the content cell, or a bare URI).
 */
import { Cell } from '@ton/core';
import { readFullContent, tep64KeyName } from '../format/index.ts';

export interface TokenContent {
  /** where the off-chain JSON lives (offchain, or the `uri` key of semi-chain content) */
  uri: string | null;
  /** on-chain attributes (name, symbol, ...), values as text */
  onchain: Record<string, string>;
}

/** Parses a TEP-64 content cell; null when it is neither layout. */
export function parseContentCell(cell: Cell): TokenContent | null {
  try {
    const c = readFullContent(cell);
    if (c.layout === 'offchain') {
      const uri = c.uri.toString('utf8').trim();
      return uri ? { uri, onchain: {} } : null;
    }
    const onchain: Record<string, string> = {};
    for (const e of c.entries) {
      try {
        onchain[tep64KeyName(e.keyHex) ?? e.keyHex] = e.value().toString('utf8');
      } catch {
        // an undecodable value is skipped, the rest of the content stays usable
      }
    }
    const uri = onchain.uri?.trim() || null;
    delete onchain.uri;
    return { uri, onchain };
  } catch {
    return null;
  }
}

/** Content as stored in an entity table column: JSON object, base64 BoC of the content cell, or a bare URI. */
export function parseStoredContent(text: string | null | undefined): TokenContent | null {
  const t = (text ?? '').trim();
  if (!t) return null;
  if (t.startsWith('{')) {
    let o: unknown;
    try {
      o = JSON.parse(t);
    } catch {
      return null;
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
    const onchain: Record<string, string> = {};
    let uri: string | null = null;
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
      if (v === null || v === undefined) continue;
      const s = typeof v === 'string' ? v : JSON.stringify(v);
      if (k === 'uri') uri = s.trim() || null;
      else onchain[k] = s;
    }
    return { uri, onchain };
  }
  if (/^(https?|ipfs):\/\//i.test(t)) return { uri: t, onchain: {} };
  try {
    return parseContentCell(Cell.fromBase64(t));
  } catch {
    return null;
  }
}

/** The columns of an `address_metadata` row, from the fetched JSON and the on-chain attributes. */
export interface MetadataFields {
  name: string | null;
  description: string | null;
  symbol: string | null;
  image: string | null;
  /** every other key, as the reference's `extra` (e.g. decimals, uri, social, websites) */
  extra: Record<string, unknown>;
}

const MAIN = ['name', 'description', 'symbol', 'image'] as const;

/**
 * Merges off-chain JSON and on-chain attributes (on-chain wins, TEP-64 semi-chain) into the row's fields.
 * Non-string main fields are kept in `extra` rather than dropped.
 */
export function metadataFields(offchain: Record<string, unknown> | null, onchain: Record<string, string>, uri: string | null): MetadataFields {
  const all: Record<string, unknown> = { ...(offchain ?? {}), ...onchain };
  if (uri) all.uri = uri;
  const out: MetadataFields = { name: null, description: null, symbol: null, image: null, extra: {} };
  for (const [k, v] of Object.entries(all)) {
    if ((MAIN as readonly string[]).includes(k) && typeof v === 'string') out[k as (typeof MAIN)[number]] = v;
    else out.extra[k] = v;
  }
  return out;
}
