/** decode (GET and POST): opcode names and body decoding by TL-B (reference §2.10, ton-marker). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { constructorName, decodeBoc } from '../decode/index.ts';
import { opcodeName } from '../render.ts';
import { addRoute, type V3Deps } from '../route.ts';

const DecodeResponse = z.object({ opcodes: z.array(z.string()), bodies: z.array(z.record(z.string(), z.unknown())) });
const DecodeBody = z.object({ opcodes: z.array(z.string()).optional(), bodies: z.array(z.string()).optional() }).strict();

const DECODE_DOC = [
  'opcodes: each 0x-hex, hex or (signed) decimal 32-bit value -> the TL-B constructor name of that internal message body, or "unknown".',
  'bodies: each a base64 (or hex) BoC of a message body -> the body decoded by TL-B, or {"error": "unknown: ..."} (not a BoC, shorter than',
  '32 bits, no scheme matches). Shape (toncenter ton-marker): {"@type": "<constructor>", "<field>": value, ...} with the field names of',
  'ton-marker\'s schemes.tlb; integers of any width (uint64 query_id, VarUInteger amounts, Coins) are decimal strings; addresses are raw',
  '"wc:HEX" strings (null for addr_none); bits are upper-case hex; Bool is true/false; Maybe X is X or null; Either X ^X is X; a Cell',
  'field (payloads, custom_payload, forward_payload, ^Cell) is its base64 BoC, or its own decoded object when one of the schemes matches it',
  '(recursively, depth <= 10); anonymous `_:` fields are named ""; an empty cell is {"empty_cell": ""}. Text comments are',
  '{"@type": "text_comment", "text": "..."}. Known schemes: TEP-74 jettons (jetton_transfer, jetton_internal_transfer, jetton_notify,',
  'excess, jetton_burn, jetton_burn_notification, jetton_mint, minter_jetton_mint, jetton_change_admin, jetton_set_status), TEP-62 NFTs',
  '(nft_transfer, nft_ownership_assigned, get_static_data, report_static_data, get_royalty_params, report_royalty_params), text_comment,',
  'encrypted_text_comment, bounce, elector stakes, change_dns_record / delete_dns_record, Tonstakers pool, STON.fi v1/v2 and DeDust',
  'messages and forward payloads, subscriptions / wallet plugins, multisig v2, W5 signed requests (w5_external_signed_request,',
  'w5_internal_signed_request, w5_extension_action_request: out_actions and extended_actions as arrays, oldest first, each out message a',
  '{"@type": "message", info, init, body} record) and signature-first wallet v3 / v4 external bodies (wallet_signed_v3,',
  'wallet_signed_v4: {signature, subwallet_id, valid_until, seqno, payload: [{mode, message}]}). At most 1000 opcodes and 1000 bodies.',
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

function decode(opcodes: string[], bodies: string[]) {
  if (opcodes.length > 1000) throw new ApiError(422, 'opcodes list exceeds maximum length of 1000');
  if (bodies.length > 1000) throw new ApiError(422, 'bodies list exceeds maximum length of 1000');
  return {
    opcodes: opcodes.map((o, i) => {
      const op = parseOp(o, i);
      return constructorName(op) ?? opcodeName(op) ?? 'unknown';
    }),
    bodies: bodies.map(decodeBoc),
  };
}

export function utilityRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['utils'];
  addRoute(app, deps, {
    url: '/decode',
    tags,
    summary: 'Decode opcodes and message bodies',
    description: DECODE_DOC,
    params: { opcodes: { kind: 'string[]' }, bodies: { kind: 'string[]' } },
    response: DecodeResponse,
    async handler({ q }) {
      return decode((q.opcodes as string[] | undefined) ?? [], (q.bodies as string[] | undefined) ?? []);
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
