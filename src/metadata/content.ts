/**
 * TEP-64 token content (jettons, NFT collections and items), pure:
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   keys are sha256 of the attribute name
 *   offchain#01 uri:Text = FullContent;                          a snake string, the URI of a JSON document
 *   snake#00 data:(SnakeData ~n) = ContentData;  chunks#01 data:ChunkedData = ContentData;
 * Semi-chain: an on-chain dictionary that also holds `uri`; its on-chain values take precedence over the
 * JSON's. Also accepted: the content as the store keeps it (a JSON object of the parsed content, as the
 * reference's jsonb columns, or a base64 BoC of the content cell, or a bare URI).
 */
import { createHash } from 'node:crypto';
import { Cell, Dictionary, type Slice } from '@ton/core';

export interface TokenContent {
  /** where the off-chain JSON lives (offchain, or the `uri` key of semi-chain content) */
  uri: string | null;
  /** on-chain attributes (name, symbol, ...), values as text */
  onchain: Record<string, string>;
}

/** Attribute names of TEP-64 and common extensions, by sha256 (keys of the on-chain dictionary). */
const KNOWN_KEYS = [
  'uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type', 'social_links', 'marketplace',
  'content_url', 'lottie', 'attributes', 'cover_image', 'websites', 'external_url', 'external_link',
];
const KEY_BY_HASH = new Map(KNOWN_KEYS.map((k) => [createHash('sha256').update(k).digest('hex'), k]));

function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  for (let i = 0; cur; i++) {
    if (i > 1024) throw new Error('snake data longer than 1024 cells');
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** ContentData: snake#00 or chunks#01 (HashmapE 32 ^(SnakeData ~0)), as UTF-8 text. */
function contentData(c: Cell): string {
  const s = c.beginParse();
  const tag = s.remainingBits >= 8 ? s.loadUint(8) : 0;
  if (tag === 0x01) {
    const chunks = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return [...chunks].sort((a, b) => a[0] - b[0]).map(([, v]) => snakeBytes(v.beginParse()).toString('utf8')).join('');
  }
  return snakeBytes(s).toString('utf8');
}

/** Parses a TEP-64 content cell; null when it is neither layout. */
export function parseContentCell(cell: Cell): TokenContent | null {
  try {
    const s = cell.beginParse();
    if (s.remainingBits < 8) return null;
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const uri = snakeBytes(s).toString('utf8').trim();
      return uri ? { uri, onchain: {} } : null;
    }
    if (tag !== 0x00) return null;
    const dict = s.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const onchain: Record<string, string> = {};
    for (const [k, v] of dict) {
      const name = KEY_BY_HASH.get(k.toString('hex')) ?? k.toString('hex');
      try {
        onchain[name] = contentData(v);
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
