/**
 * TEP-64 token content, the cell reading shared by the entity stage, the metadata fetcher and API v2 getTokenData
 * (each shapes the result its own way):
 *
 *   offchain#01 uri:Text = FullContent;   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;
 *   snake#00 data:(SnakeData ~n) = ContentData;   chunks#01 data:ChunkedData = ContentData;
 *   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
 */
import { createHash } from 'node:crypto';
import { Dictionary, type Cell, type DictionaryValue, type Slice } from '@ton/core';

/** Attribute names of TEP-64 and common extensions; on-chain dictionary keys are sha256 of the name. */
export const TEP64_KEYS = [
  'uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type', 'social_links', 'marketplace',
  'content_url', 'lottie', 'attributes', 'cover_image', 'websites', 'external_url', 'external_link',
] as const;

const NAME_BY_HASH = new Map<string, string>(TEP64_KEYS.map((k) => [createHash('sha256').update(k).digest('hex'), k]));

/** The attribute name of a dictionary key (64 hex digits), when it is a known one. */
export function tep64KeyName(keyHex: string): string | undefined {
  return NAME_BY_HASH.get(keyHex.toLowerCase());
}

export interface SnakeOptions {
  /** stop before the bytes would exceed this (the reference cuts long values at its buffer) */
  maxBytes?: number;
  /** throw on a cell whose bits are not whole bytes (default: ignore the trailing bits) */
  aligned?: boolean;
}

const MAX_CELLS = 1024;

/** SnakeData: this cell's bytes, then its first ref's, recursively. */
export function snakeBytes(s: Slice, opts: SnakeOptions = {}): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let cur: Slice | null = s;
  for (let i = 0; cur; i++) {
    if (i >= MAX_CELLS) throw new Error(`snake data longer than ${MAX_CELLS} cells`);
    if (opts.aligned && cur.remainingBits % 8 !== 0) throw new Error('snake data not byte aligned');
    const b = cur.loadBuffer(Math.floor(cur.remainingBits / 8));
    if (opts.maxBytes !== undefined && total + b.length > opts.maxBytes) break;
    parts.push(b);
    total += b.length;
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** ContentData (snake or chunks) as bytes; chunks are joined in index order. */
export function contentDataBytes(s: Slice, opts: SnakeOptions = {}): Buffer {
  const tag = s.loadUint(8);
  if (tag === 0x00) return snakeBytes(s, opts);
  if (tag !== 0x01) throw new Error(`unknown ContentData tag ${tag}`);
  const dict = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  return Buffer.concat([...dict].sort((a, b) => a[0] - b[0]).map(([, v]) => snakeBytes(v.beginParse(), opts)));
}

/** A dictionary leaf as it is: values are `^ContentData` as the TEP says, or a direct ContentData in some contracts. */
const LEAF: DictionaryValue<Cell> = {
  serialize() {
    throw new Error('read-only');
  },
  parse: (s) => s.asCell(),
};

export type FullContent =
  | { layout: 'offchain'; uri: Buffer }
  | { layout: 'onchain'; entries: { keyHex: string; value: () => Buffer }[] };

/**
 * Reads FullContent. On-chain values are read lazily (`value()` throws when one does not decode, so a caller can
 * skip it and keep the rest). Throws when the cell is neither layout.
 */
export function readFullContent(cell: Cell, opts: SnakeOptions = {}): FullContent {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag === 0x01) return { layout: 'offchain', uri: snakeBytes(s, opts) };
  if (tag !== 0x00) throw new Error(`unknown FullContent tag ${tag}`);
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), LEAF);
  return {
    layout: 'onchain',
    entries: [...dict].map(([key, leaf]) => ({
      keyHex: key.toString(16).padStart(64, '0'),
      value: () => {
        let v = leaf.beginParse();
        if (v.remainingBits === 0 && v.remainingRefs === 1) v = v.loadRef().beginParse();
        return contentDataBytes(v, opts);
      },
    })),
  };
}
