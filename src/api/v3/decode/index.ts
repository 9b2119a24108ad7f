/**
 * Message body decoding for API v3 (`/decode`, `message_content.decoded`, `decoded_forward_payload`,
 * `decoded_custom_payload`), byte-compatible with toncenter's ton-marker: see ./README.md.
 */
import { decodeBocRecursive, decodeOpcode, processBocBatch } from './marker.ts';

export { MAX_ENCODED_BOC_BYTES, MarkerBatchError, decodeBoc as decodeBocText, decodeBocRecursive, decodeOpcode } from './marker.ts';
export { stdBocSerialize } from './std-boc.ts';

/** ton-marker's text as a JSON object; null for "unknown..." and for text that is not one (see ./README.md). */
function jsonObject(text: string): Record<string, unknown> | null {
  if (text.startsWith('unknown')) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // the printer's text after a failed special parse is not JSON
  }
  return null;
}

/**
 * ton-marker's text as the Go API's `/decode` answers it (processDecode): "unknown..." as `{"error": text}`, text
 * that is not a JSON object as `{"failed_to_decode_json": text}`, else the object as Go re-encodes the map it
 * unmarshalled it into: every object's keys in sorted order.
 */
function toDecodeAnswer(text: string): Record<string, unknown> {
  if (text.startsWith('unknown')) return { error: text };
  const v = jsonObject(text);
  return v === null ? { failed_to_decode_json: text } : (sortKeys(v) as Record<string, unknown>);
}

/** encoding/json's map order: keys sorted (byte order; the keys are ASCII), at every level. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => [k, sortKeys(o[k])]));
}

/** `/decode` bodies, decoded as one batch (shared recursion budget and output cap, as upstream's process_batch). */
export function decodeBodies(bodies: string[]): Record<string, unknown>[] {
  return processBocBatch(bodies).map(toDecodeAnswer);
}

/** One body, as `/decode` prints it. */
export function decodeBoc(text: string): Record<string, unknown> {
  return toDecodeAnswer(decodeBocRecursive(text));
}

/** `decoded_opcode`: the constructor name ton-marker gives an opcode, null when it knows none. */
export function constructorName(op: number): string | null {
  const n = decodeOpcode(op);
  return n === 'unknown' ? null : n;
}

/**
 * `message_content.decoded` of a stored body (base64 BoC), as the Go API's markWithRefs fills it: null when
 * nothing decodes (or the text is not a JSON object), else the object in ton-marker's own key order (Go keeps the
 * raw text). A top-level text comment takes the reference's back-compatible shape, which Go marshals from a map,
 * so its keys come sorted: `{"@type":"text_comment","comment":…,"type":"text_comment"}`; inside a tree it stays
 * `{"@type":"text_comment","text":…}`.
 */
export function decodeMessageBody(boc: string): Record<string, unknown> | null {
  const v = jsonObject(decodeBocRecursive(boc));
  if (v === null) return null;
  if (v['@type'] === 'text_comment' && typeof v.text === 'string') return { '@type': 'text_comment', comment: v.text, type: 'text_comment' };
  return v;
}
