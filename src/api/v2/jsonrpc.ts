/**
 * POST /api/v2/jsonRPC: `{jsonrpc: "2.0", id, method, params}` with method = endpoint name, or a batch
 * (array) of them. Replies keep the toncenter envelope (`ok`, `result` / `code`, `error`) and add
 * `jsonrpc` and the request's `id` (string, number or null, echoed as given). A single call answers
 * with its HTTP status; a batch answers 200 with one reply per call, in order.
 */
import { ApiError } from '../errors.ts';
import type { V2Context, V2Method } from './method.ts';
import { callMethod, extraOf } from './dispatch.ts';

type Id = string | number | null;

export const MAX_BATCH = 100;

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function errorReply(id: Id, err: ApiError): Reply {
  const body: Record<string, unknown> = { ok: false, code: err.status, error: err.message, jsonrpc: '2.0', id };
  if (err.status === 429) body.result = err.message;
  return { status: err.status, body };
}

async function one(methods: Map<string, V2Method>, ctx: V2Context, call: unknown): Promise<Reply> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return errorReply(null, new ApiError(422, 'failed to parse request: expected a JSON-RPC object'));
  const c = call as Record<string, unknown>;
  const rawId = c.id;
  const id: Id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (rawId !== undefined && rawId !== null && typeof rawId !== 'string' && typeof rawId !== 'number') {
    return errorReply(null, new ApiError(422, 'failed to parse id: expected a string, a number or null'));
  }
  if (c.jsonrpc !== undefined && c.jsonrpc !== '2.0') return errorReply(id, new ApiError(422, 'failed to parse jsonrpc: expected "2.0"'));
  const extra = Object.keys(c).filter((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k));
  if (extra.length) return errorReply(id, new ApiError(422, `unknown parameter${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}`));
  if (typeof c.method !== 'string') return errorReply(id, new ApiError(422, 'failed to parse method: expected a method name'));
  const method = methods.get(c.method);
  if (!method) return errorReply(id, new ApiError(422, `failed to parse method: unknown method "${c.method.slice(0, 60)}"`));
  const params = c.params ?? {};
  if (Array.isArray(params)) return errorReply(id, new ApiError(422, 'failed to parse params: params must contain an object'));
  const started = performance.now();
  try {
    const result = await callMethod(method, ctx, params);
    return { status: 200, body: { ok: true, result, '@extra': extraOf(started), jsonrpc: '2.0', id } };
  } catch (err) {
    if (err instanceof ApiError) return errorReply(id, err);
    throw err;
  }
}

export async function handleJsonRpc(methods: Map<string, V2Method>, ctx: V2Context, body: unknown, chargeMore: (n: number) => Promise<void>): Promise<{ status: number; body: unknown }> {
  if (Array.isArray(body)) {
    if (body.length === 0) return errorReply(null, new ApiError(422, 'failed to parse request: empty batch'));
    if (body.length > MAX_BATCH) return errorReply(null, new ApiError(422, `failed to parse request: batch of ${body.length} calls exceeds ${MAX_BATCH}`));
    // A batch costs one request per call (the first was charged by the server shell).
    await chargeMore(body.length - 1);
    const replies = [];
    for (const call of body) replies.push((await one(methods, ctx, call)).body);
    return { status: 200, body: replies };
  }
  return one(methods, ctx, body);
}
