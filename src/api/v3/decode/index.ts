/**
 * Message body decoding for API v3 (`/decode`, `message_content.decoded`, `decoded_forward_payload`,
 * `decoded_custom_payload`), byte-compatible with toncenter's ton-marker: see ./README.md.
 */
import { decodeBocRecursive, decodeOpcode, processBocBatch } from './marker.ts';

export { MAX_ENCODED_BOC_BYTES, MarkerBatchError, decodeBoc as decodeBocText, decodeBocRecursive, decodeOpcode } from './marker.ts';
export { stdBocSerialize } from './std-boc.ts';

/** ton-marker's text -> the API value: an object, or `{"error": "unknown: ..."}`. */
function toObject(text: string): Record<string, unknown> {
  if (text.startsWith('unknown')) return { error: text };
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // the printer's text after a failed special parse is not JSON (see ./README.md)
  }
  return { error: 'unknown: decoded output is not valid JSON' };
}

/** `/decode` bodies, decoded as one batch (shared recursion budget and output cap, as upstream's process_batch). */
export function decodeBodies(bodies: string[]): Record<string, unknown>[] {
  return processBocBatch(bodies).map(toObject);
}

/** One body, as `/decode` prints it. */
export function decodeBoc(text: string): Record<string, unknown> {
  return toObject(decodeBocRecursive(text));
}

/** `decoded_opcode`: the constructor name ton-marker gives an opcode, null when it knows none. */
export function constructorName(op: number): string | null {
  const n = decodeOpcode(op);
  return n === 'unknown' ? null : n;
}

/**
 * `message_content.decoded` of a stored body (base64 BoC): the decoded object, or null when nothing matches.
 * Text comments take the reference's back-compatible shape `{type, @type, comment}`.
 */
export function decodeMessageBody(boc: string): Record<string, unknown> | null {
  const v = toObject(decodeBocRecursive(boc));
  if ('error' in v && Object.keys(v).length === 1) return null;
  if (v['@type'] === 'text_comment' && typeof v.text === 'string') return { type: 'text_comment', '@type': 'text_comment', comment: v.text };
  return v;
}
