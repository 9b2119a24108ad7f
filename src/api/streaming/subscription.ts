/**
 * Streaming API v2 subscriptions: the SSE request body and the WebSocket `subscribe` / `unsubscribe` operations,
 * validated as toncenter's streaming server validates them (ton-indexer `ton-streaming-go`, v2 handlers: the same checks
 * in the same order, the same messages), and stricter where it is sloppy: a field of the wrong type or a name it does
 * not know is an error naming it, where Go's decoder drops it or fails with its own text. Pure.
 */
import { toRawUpper, tryParseAddress, tryParseHash } from '../../format/index.ts';
import { supportedTypes } from '../v3/index.ts';

export type Finality = 'pending' | 'confirmed' | 'finalized';
export const FINALITY_RANK: Record<Finality, number> = { pending: 0, confirmed: 1, finalized: 2 };

/**
 * Event types a subscription may name. `trace_invalidated` is listed by the documentation (toncenter's server refuses
 * it as a type: it sends it to whoever got speculative data); accepted here and never sent (nothing here is speculative).
 */
export const EVENT_TYPES = ['transactions', 'actions', 'trace', 'trace_invalidated', 'account_state_change', 'jettons_change'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface Subscription {
  types: ReadonlySet<EventType>;
  /** raw upper-case `wc:HEX` */
  addresses: Set<string>;
  /** trace_external_hash_norms, lower-case hex */
  traces: Set<string>;
  minFinality: Finality;
  includeAddressBook: boolean;
  includeMetadata: boolean;
  /** `action_types`: the actions notifications' filter (empty: every type) */
  actionTypes: ReadonlySet<string>;
  /** `supported_action_types` expanded (v1..v5 / latest and the group shortcuts, as API v3's) */
  supported: ReadonlySet<string>;
}

/** A request the server refuses; `message` is sent to the client as is. */
export class SubscriptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubscriptionError';
  }
}

const SUBSCRIBE_FIELDS = ['types', 'addresses', 'trace_external_hash_norms', 'min_finality', 'include_address_book', 'include_metadata', 'action_types', 'supported_action_types'];
const FIELDS = {
  sse: new Set(['id', ...SUBSCRIBE_FIELDS]),
  subscribe: new Set(['id', 'operation', ...SUBSCRIBE_FIELDS]),
  unsubscribe: new Set(['id', 'operation', 'addresses', 'trace_external_hash_norms']),
  ping: new Set(['id', 'operation']),
};

function asObject(body: unknown, what: string): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SubscriptionError(`invalid ${what}: expected a JSON object`);
  return body as Record<string, unknown>;
}

/** Fields a request may carry; any other is named (toncenter's decoder drops them silently). */
export function checkFields(body: Record<string, unknown>, kind: keyof typeof FIELDS): void {
  const unknown = Object.keys(body).filter((k) => !FIELDS[kind].has(k));
  if (unknown.length) throw new SubscriptionError(`unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (allowed: ${[...FIELDS[kind]].join(', ')})`);
}

/** The request id: a string, echoed in the answers to the request. */
export function requestId(body: Record<string, unknown>): string | undefined {
  const id = body.id;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'string') throw new SubscriptionError('id must be a string');
  return id;
}

function strings(body: Record<string, unknown>, field: string): string[] {
  const v = body[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new SubscriptionError(`${field} must be an array of strings`);
  return v as string[];
}

function bool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new SubscriptionError(`${field} must be true or false`);
  return v;
}

function finality(body: Record<string, unknown>): Finality | undefined {
  const v = body.min_finality;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !(v in FINALITY_RANK)) throw new SubscriptionError(`invalid min_finality: ${JSON.stringify(v)} (one of "pending", "confirmed", "finalized")`);
  return v as Finality;
}

/** Addresses in any form -> unique raw upper-case, in the order given. */
export function parseAddresses(list: string[]): string[] {
  const out = new Set<string>();
  for (const a of list) {
    if (!tryParseAddress(a.trim())) throw new SubscriptionError(`invalid address: ${a}`);
    out.add(toRawUpper(a.trim()));
  }
  return [...out];
}

/** Hashes in hex, base64 or base64url -> unique lower-case hex. */
export function parseTraceHashes(list: string[]): string[] {
  const out = new Set<string>();
  for (const t of list) {
    const s = t.trim();
    if (s === '') throw new SubscriptionError('trace_external_hash_norms contains empty value');
    const h = tryParseHash(s);
    if (!h) throw new SubscriptionError(`trace_external_hash_norms contains an invalid hash: ${JSON.stringify(s.slice(0, 80))} (64 hex digits or 44 characters of base64/base64url)`);
    out.add(h.hex);
  }
  return [...out];
}

function parseTypes(list: string[]): EventType[] {
  for (const t of list) if (!(EVENT_TYPES as readonly string[]).includes(t)) throw new SubscriptionError(`invalid event type: ${t} (one of ${EVENT_TYPES.join(', ')})`);
  return [...new Set(list as EventType[])];
}

function parseActionTypes(list: string[]): string[] {
  for (const t of list) if (!/^[A-Za-z0-9_.]+$/.test(t)) throw new SubscriptionError(`action_types contains invalid characters: ${JSON.stringify(t.slice(0, 80))}`);
  return list;
}

export interface SubscribeContext {
  transport: 'sse' | 'ws';
  /** WebSocket: the connection's subscription so far (options the request leaves out keep their values). */
  previous?: Subscription;
  /** X-Actions-Version header (the supported action types when the request names none) */
  actionsHeader?: string;
  /** Max addresses (and trace hashes) a subscription may hold. */
  maxAddresses: number;
}

/**
 * An SSE request body or a WebSocket `subscribe` operation. A WebSocket subscribe replaces the addresses, trace hashes
 * and types; min_finality, include_address_book, include_metadata, action_types and supported_action_types keep their
 * values when the request leaves them out (as toncenter's server does), starting from finalized / false / any / the
 * X-Actions-Version header or "latest".
 */
export function parseSubscription(raw: unknown, ctx: SubscribeContext): Subscription {
  const body = asObject(raw, 'subscription request');
  checkFields(body, ctx.transport === 'sse' ? 'sse' : 'subscribe');
  const sse = ctx.transport === 'sse';
  const typeList = strings(body, 'types');
  if (typeList.length === 0) throw new SubscriptionError(sse ? 'types are required for subscription' : 'types are required');
  const types = parseTypes(typeList);
  const addresses = parseAddresses(strings(body, 'addresses'));
  const traces = parseTraceHashes(strings(body, 'trace_external_hash_norms'));
  const hasTrace = types.includes('trace');
  const hasAddressTypes = types.some((t) => t !== 'trace');
  if (traces.length > 0 && !hasTrace) throw new SubscriptionError('trace_external_hash_norms requires type "trace"');
  if (hasTrace && traces.length === 0) throw new SubscriptionError('trace_external_hash_norms are required for trace subscription');
  if (hasAddressTypes && addresses.length === 0) throw new SubscriptionError(sse ? 'addresses are required for subscription' : 'addresses are required');
  if (addresses.length > ctx.maxAddresses) {
    throw new SubscriptionError(sse ? `too many addresses: ${addresses.length} > max ${ctx.maxAddresses}` : `address limit exceeded: current 0 + new ${addresses.length} > max ${ctx.maxAddresses}`);
  }
  if (traces.length > ctx.maxAddresses) throw new SubscriptionError(`too many trace_external_hash_norms: ${traces.length} > max ${ctx.maxAddresses}`);
  const minFinality = finality(body);
  const book = bool(body, 'include_address_book');
  const meta = bool(body, 'include_metadata');
  const actionTypes = parseActionTypes(strings(body, 'action_types'));
  const supportedList = strings(body, 'supported_action_types');
  const prev = ctx.previous;
  const headerTypes = ctx.actionsHeader ? [ctx.actionsHeader] : undefined;
  return {
    types: new Set(types),
    addresses: new Set(addresses),
    traces: new Set(traces),
    minFinality: minFinality ?? prev?.minFinality ?? 'finalized',
    includeAddressBook: book ?? prev?.includeAddressBook ?? false,
    includeMetadata: meta ?? prev?.includeMetadata ?? false,
    actionTypes: actionTypes.length ? new Set(actionTypes) : (prev?.actionTypes ?? new Set()),
    supported: supportedList.length ? new Set(supportedTypes(supportedList)) : (prev?.supported ?? new Set(supportedTypes(headerTypes))),
  };
}

/** A WebSocket `unsubscribe`: the addresses and trace hashes to drop from the connection's subscription. */
export function parseUnsubscribe(raw: Record<string, unknown>): { addresses: string[]; traces: string[] } {
  checkFields(raw, 'unsubscribe');
  const addresses = strings(raw, 'addresses');
  const traces = strings(raw, 'trace_external_hash_norms');
  if (addresses.length === 0 && traces.length === 0) throw new SubscriptionError('addresses or trace_external_hash_norms are required');
  return { addresses: parseAddresses(addresses), traces: parseTraceHashes(traces) };
}

/** A WebSocket message's envelope: its operation and id. */
export function parseEnvelope(text: string): { body: Record<string, unknown>; operation: string; id: string | undefined } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SubscriptionError(`invalid request envelope: ${(e as Error).message}`);
  }
  const body = asObject(raw, 'request envelope');
  const id = requestId(body);
  const op = body.operation;
  // a missing or non-string operation is answered as an unknown one
  return { body, operation: typeof op === 'string' ? op : op === undefined || op === null ? '' : JSON.stringify(op), id };
}

/** The default subscription of a WebSocket before its first subscribe: nothing, finalized, the header's action types. */
export function emptySubscription(actionsHeader?: string): Subscription {
  return {
    types: new Set(),
    addresses: new Set(),
    traces: new Set(),
    minFinality: 'finalized',
    includeAddressBook: false,
    includeMetadata: false,
    actionTypes: new Set(),
    supported: new Set(supportedTypes(actionsHeader ? [actionsHeader] : undefined)),
  };
}
