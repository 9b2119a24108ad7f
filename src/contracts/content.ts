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
import type { Cell } from '@ton/core';
import { readFullContent, tep64KeyName } from '../format/index.ts';

/** The attributes the reference keeps (parse_token_data.cpp); other keys are left out. */
const ATTRIBUTES: ReadonlySet<string> = new Set(['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type']);
const MAX_BYTES = 1024 * 8; // the reference's buffer: longer values are cut there too

function utf8(b: Buffer): string | null {
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : null;
}

/** Decoded content, or null when the cell is not TEP-64 content (or cannot be read whole). */
export function parseTokenContent(cell: Cell): Record<string, string> | null {
  try {
    const c = readFullContent(cell, { maxBytes: MAX_BYTES, aligned: true });
    if (c.layout === 'offchain') {
      const uri = utf8(c.uri);
      return uri === null ? null : { uri };
    }
    const out: Record<string, string> = {};
    for (const e of c.entries) {
      const attr = tep64KeyName(e.keyHex);
      if (!attr || !ATTRIBUTES.has(attr)) continue;
      try {
        const bytes = e.value();
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
