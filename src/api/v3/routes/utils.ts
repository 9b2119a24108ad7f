/** decode (GET and POST): opcode names and body decoding (reference §2.10). */
import { Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { decodeBody, opcodeName } from '../render.ts';
import { addRoute, type V3Deps } from '../route.ts';

const DecodeResponse = z.object({ opcodes: z.array(z.string()), bodies: z.array(z.record(z.string(), z.unknown())) });
const DecodeBody = z.object({ opcodes: z.array(z.string()).optional(), bodies: z.array(z.string()).optional() }).strict();

function parseOp(s: string, i: number): number {
  const t = s.trim().replace(/^0[xX]/, '');
  if (/^[0-9a-fA-F]{1,8}$/.test(t)) return parseInt(t, 16) | 0;
  if (/^-?\d{1,10}$/.test(t)) {
    const n = Number(t);
    if (n >= -0x80000000 && n <= 0xffffffff) return n | 0;
  }
  throw new ApiError(422, `invalid opcode format at index ${i}: ${s.slice(0, 40)}`);
}

function decodeOne(s: string): Record<string, unknown> {
  let cell: Cell;
  try {
    const t = s.trim();
    cell = Cell.fromBoc(/^[0-9a-fA-F]+$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64'))[0];
  } catch {
    return { error: 'unknown: not a BoC (base64 or hex)' };
  }
  const sl = cell.beginParse();
  if (sl.remainingBits < 32) return { error: 'unknown: body shorter than 32 bits' };
  const op = sl.preloadUint(32);
  const text = decodeBody(cell.toBoc().toString('base64'), op === 0 ? 0 : null);
  if (text) return text;
  const name = opcodeName(op);
  if (name) return { '@type': name, opcode: '0x' + (op >>> 0).toString(16).padStart(8, '0') };
  return { error: `unknown: opcode 0x${(op >>> 0).toString(16).padStart(8, '0')}` };
}

function decode(opcodes: string[], bodies: string[]) {
  if (opcodes.length > 1000) throw new ApiError(422, 'opcodes list exceeds maximum length of 1000');
  if (bodies.length > 1000) throw new ApiError(422, 'bodies list exceeds maximum length of 1000');
  return { opcodes: opcodes.map((o, i) => opcodeName(parseOp(o, i)) ?? 'unknown'), bodies: bodies.map(decodeOne) };
}

export function utilityRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['utils'];
  addRoute(app, deps, {
    url: '/decode',
    tags,
    summary: 'Decode opcodes and message bodies',
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
