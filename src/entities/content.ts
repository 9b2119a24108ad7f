/**
 * TEP-64 token content (jetton masters, NFT collections and items), decoded as toncenter's worker does
 * (`parse_token_data.cpp`):
 *
 *   offchain#01 uri:Text = FullContent;   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;
 *   snake#00 data:(SnakeData ~n) = ContentData;   chunks#01 data:ChunkedData = ContentData;
 *   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
 *
 * Off-chain content becomes `{uri}`; on-chain content the standard attributes found in the dictionary (keys are
 * sha256 of the attribute name; values either `^ContentData` as the TEP says or a direct ContentData, as some
 * contracts store them). `image_data` is base64; other values must be UTF-8 text or they are left out.
 */
import { createHash } from 'node:crypto';
import { Cell, Dictionary, type DictionaryValue, type Slice } from '@ton/core';

const ATTRIBUTES = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'] as const;
const KEYS = new Map(ATTRIBUTES.map((a) => [createHash('sha256').update(a).digest('hex'), a]));
const MAX_BYTES = 1024 * 8; // the reference's buffer: longer values are cut there too

/** A dictionary leaf as it is (bits and refs), read later: values may be `^ContentData` or a direct ContentData. */
const LEAF: DictionaryValue<Cell> = {
  serialize() {
    throw new Error('read-only');
  },
  parse: (s) => s.asCell(),
};

function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let cur: Slice | null = s;
  while (cur) {
    if (cur.remainingBits % 8 !== 0) throw new Error('snake data not byte aligned');
    const b = cur.loadBuffer(cur.remainingBits / 8);
    if (total + b.length > MAX_BYTES) break;
    parts.push(b);
    total += b.length;
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

function chunkedBytes(s: Slice): Buffer {
  const dict = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  const parts: Buffer[] = [];
  for (let i = 0; dict.has(i); i++) {
    const c = dict.get(i)!.beginParse();
    if (c.remainingBits % 8 !== 0) throw new Error('chunk not byte aligned');
    parts.push(c.loadBuffer(c.remainingBits / 8));
  }
  return Buffer.concat(parts);
}

function contentData(s: Slice): Buffer {
  const tag = s.loadUint(8);
  if (tag === 0x00) return snakeBytes(s);
  if (tag === 0x01) return chunkedBytes(s);
  throw new Error(`unknown ContentData tag ${tag}`);
}

function utf8(b: Buffer): string | null {
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : null;
}

/** Decoded content, or null when the cell is not TEP-64 content (or cannot be read whole). */
export function parseTokenContent(cell: Cell): Record<string, string> | null {
  try {
    const s = cell.beginParse();
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const uri = utf8(snakeBytes(s));
      return uri === null ? null : { uri };
    }
    if (tag !== 0x00) return null;
    const dict = s.loadDict(Dictionary.Keys.BigUint(256), LEAF);
    const out: Record<string, string> = {};
    for (const [key, value] of dict) {
      const attr = KEYS.get(key.toString(16).padStart(64, '0'));
      if (!attr) continue;
      try {
        // the value cell is `^ContentData` (the key's leaf holds one ref) or the ContentData itself
        let v = value.beginParse();
        if (v.remainingBits === 0 && v.remainingRefs === 1) v = v.loadRef().beginParse();
        const bytes = contentData(v);
        if (attr === 'image_data') out[attr] = bytes.toString('base64');
        else {
          const text = utf8(bytes);
          if (text !== null) out[attr] = text;
        }
      } catch {
        // an attribute that does not decode is left out, the others kept (as the reference does)
      }
    }
    return out;
  } catch {
    return null;
  }
}
