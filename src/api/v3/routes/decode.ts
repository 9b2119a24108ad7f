/** decode (GET and POST): opcode names and body decoding by TL-B (reference §2.10, ton-marker). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { MarkerBatchError, decodeBodies, decodeOpcode } from '../decode/index.ts';
import { addRoute, type V3Deps } from '../route.ts';

const DecodeResponse = z.object({ opcodes: z.array(z.string()), bodies: z.array(z.record(z.string(), z.unknown())) });
const DecodeBody = z.object({ opcodes: z.array(z.string()).optional(), bodies: z.array(z.string()).optional() }).strict();

const DECODE_DOC = [
  'opcodes: each 0x-hex, hex or (signed) decimal 32-bit value -> the name toncenter\'s ton-marker gives it (the first constructor of',
  'its schemes with that tag), or "unknown". bodies: each a base64 BoC (starting "te6") or a hex BoC -> the body as ton-marker decodes it,',
  'or {"error": "unknown: <reason>"}. The decoding is ton-marker\'s TL-B tree, key for key: a constructor is {"@type": "<name>", <fields>},',
  'anonymous constructors have no "@type" and anonymous fields the key ""; integers of any width are decimal strings; bits are',
  'upper-case hex; 1-bit Bool-like fields are true/false; VarUInteger / Coins are {"@type": "var_uint", "len", "value"} (Coins and',
  'Grams wrapped in "nanocoins" / "nanograms"); addresses are {"@type": "addr_std", "anycast", "workchain_id", "address"} (or addr_none,',
  'addr_external, addr_var); Maybe is nothing_from_maybe / something_from_maybe {value}, Either first_from_either / second_from_either',
  '{value}; dictionaries print their hashmap tree; a Cell or ^Cell is the base64 BoC of that cell, replaced by its own decoding when it',
  'decodes (depth <= 10); a ref type given as a type argument (a message body in a ref, Either X ^X) is {"cell_reference": ...}.',
  'Wallet externals (v1-v4, highload v1-v3, preprocessed v2, W5, Telegram wallet) are decoded too. An empty cell is',
  '{"@type": "empty_cell"}. Every object\'s keys are sorted, as toncenter\'s Go API re-encodes them; text it cannot parse as a JSON',
  'object is {"failed_to_decode_json": "<text>"}. At most 1000 opcodes and 1000 bodies.',
].join(' ');

function parseOp(s: string, i: number): number {
  const t = s.trim().replace(/^0[xX]/, '');
  if (/^[0-9a-fA-F]{1,8}$/.test(t)) return parseInt(t, 16) | 0;
  if (/^-?\d{1,10}$/.test(t)) {
    const n = Number(t);
    if (n >= -0x80000000 && n <= 0xffffffff) return n | 0;
  }
  throw new ApiError(422, `invalid opcode format at index ${i}: ${s.slice(0, 40)}`);
}

/** ton-marker's batch; a batch it refuses (over 16 MiB of BoCs) is the reference's 500. */
function decodeMarkerBodies(bodies: string[]): Record<string, unknown>[] {
  try {
    return decodeBodies(bodies);
  } catch (e) {
    if (e instanceof MarkerBatchError) throw new ApiError(500, 'marker request failed: ton_marker_process_batch failed or returned nil');
    throw e;
  }
}

function decode(opcodes: string[], bodies: string[]) {
  if (opcodes.length > 1000) throw new ApiError(422, 'opcodes list exceeds maximum length of 1000');
  if (bodies.length > 1000) throw new ApiError(422, 'bodies list exceeds maximum length of 1000');
  return {
    opcodes: opcodes.map((o, i) => decodeOpcode(parseOp(o, i))),
    bodies: decodeMarkerBodies(bodies),
  };
}

export function decodeRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['utils'];
  addRoute(app, deps, {
    url: '/decode',
    tags,
    summary: 'Decode opcodes and message bodies',
    description: DECODE_DOC,
    params: { opcodes: { kind: 'string[]' }, bodies: { kind: 'string[]' } },
    response: DecodeResponse,
    async handler({ q }) {
      return decode(q.opcodes ?? [], q.bodies ?? []);
    },
  });
  addRoute(app, deps, {
    method: 'POST',
    url: '/decode',
    tags,
    summary: 'Decode opcodes and message bodies (JSON body)',
    description: `POST form of GET /decode for long lists: {"opcodes": [...], "bodies": [...]}. ${DECODE_DOC}`,
    body: DecodeBody,
    response: DecodeResponse,
    async handler({ request }) {
      const r = DecodeBody.safeParse(request.body ?? {});
      if (!r.success) {
        const i = r.error.issues[0];
        throw new ApiError(422, `invalid request body${i.path.length ? ` field ${i.path.join('.')}` : ''}: ${i.message}`);
      }
      return decode(r.data.opcodes ?? [], r.data.bodies ?? []);
    },
  });
}
