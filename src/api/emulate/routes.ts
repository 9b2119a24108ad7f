/**
 * toncenter's emulation API (ton-emulate-go, v1.3 66150f0f: main.go `emulateTrace`, models/response.go
 * `EmulateTraceResponse`, models/convert.go `TransformToAPIResponse`): POST /api/emulate/v1/emulateTrace runs an
 * external message's trace against the newest indexed state and answers it without sending anything.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Cell, loadMessage } from '@ton/core';
import { EmulationBusy, EmulationFailed, EmulationRejected, type EmulationService } from '../../emulate/index.ts';
import type { StoreClient } from '../../store/client/index.ts';
import { ApiError } from '../errors.ts';
import type { NetworkContext, RouteGroup } from '../server.ts';
import { actionAddresses, bookAndMetadata, Db, supportedTypes } from '../v3/index.ts';
import { pendingActionJson, renderEmulated } from './render.ts';
import { EmulationStateMissing } from './state.ts';

/** ton-emulate-go's swagger version */
export const EMULATE_API_VERSION = '0.0.1';

const FIELDS = new Set(['boc', 'ignore_chksig', 'with_actions', 'include_code_data', 'include_address_book', 'include_metadata', 'mc_block_seqno']);

interface EmulateRequest {
  boc: string;
  ignore_chksig: boolean;
  with_actions: boolean;
  include_code_data: boolean;
  include_address_book: boolean;
  include_metadata: boolean;
  mc_block_seqno: number | null;
}

const bad = (why: string) => new ApiError(400, `invalid request: ${why}`);

/** EmulateRequest as fiber's BodyParser and `Validate` take it; the field named in every refusal. */
export function parseEmulateRequest(body: unknown): EmulateRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('the body is not a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!FIELDS.has(k)) throw bad(`unknown field ${JSON.stringify(k)}`);
  const flag = (k: string) => {
    const v = b[k];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw bad(`${k} must be a boolean`);
    return v;
  };
  if (b.boc === undefined || b.boc === null || b.boc === '') throw bad('boc is required');
  if (typeof b.boc !== 'string') throw bad('boc must be a string');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b.boc)) throw bad('invalid boc: not standard base64');
  let seqno: number | null = null;
  if (b.mc_block_seqno !== undefined && b.mc_block_seqno !== null) {
    if (typeof b.mc_block_seqno !== 'number' || !Number.isInteger(b.mc_block_seqno) || b.mc_block_seqno < 0 || b.mc_block_seqno > 0xffffffff) throw bad('mc_block_seqno must be a uint32');
    seqno = b.mc_block_seqno;
  }
  return {
    boc: b.boc, ignore_chksig: flag('ignore_chksig'), with_actions: flag('with_actions'), include_code_data: flag('include_code_data'),
    include_address_book: flag('include_address_book'), include_metadata: flag('include_metadata'), mc_block_seqno: seqno,
  };
}

function externalCell(boc: string): Cell {
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(Buffer.from(boc, 'base64'));
  } catch {
    throw bad('invalid boc: the bytes do not parse as a bag of cells');
  }
  if (cells.length !== 1) throw bad(`invalid boc: expected one root cell, got ${cells.length}`);
  try {
    const m = loadMessage(cells[0].beginParse());
    if (m.info.type !== 'external-in') throw bad(`invalid boc: expected an external-in message, got ${m.info.type}`);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw bad('invalid boc: the root cell is not a Message');
  }
  return cells[0];
}

function actionsVersion(request: FastifyRequest): string | undefined {
  const h = request.headers['x-actions-version'];
  const v = Array.isArray(h) ? h[0] : h;
  return v?.trim() || undefined;
}

async function emulateTrace(network: NetworkContext, request: FastifyRequest): Promise<Record<string, unknown>> {
  const service = network.services.emulation as EmulationService | undefined;
  if (!service) throw new ApiError(501, 'emulation needs a store and liteservers, which this network does not have');
  const req = parseEmulateRequest(request.body);
  const cell = externalCell(req.boc);
  let rows;
  try {
    rows = await service.emulate(cell, { ignoreChksig: req.ignore_chksig, mcSeqno: req.mc_block_seqno ?? undefined });
  } catch (e) {
    if (e instanceof EmulationBusy) throw new ApiError(429, e.message);
    if (e instanceof EmulationRejected) throw new ApiError(422, e.message);
    if (e instanceof EmulationStateMissing) throw new ApiError(404, e.message);
    if (e instanceof EmulationFailed) throw new ApiError(500, e.message);
    throw e;
  }
  const db = new Db(network.services.store as StoreClient);
  // the reference's default is "latest" (main.go), as API v3's
  const supported = new Set(supportedTypes(undefined, actionsVersion(request)));
  const r = await renderEmulated(db, rows, supported);
  const transactions: Record<string, unknown> = {};
  for (const t of r.txs) transactions[String(t.hash)] = t;
  const out: Record<string, unknown> = { mc_block_seqno: rows.mcSeqno, trace: r.trace.trace ?? null, transactions };
  const addrs = [...r.addrs];
  if (req.with_actions) {
    out.actions = r.actionRows.map((a) => pendingActionJson(a));
    for (const a of r.actionRows) addrs.push(...actionAddresses(a));
  }
  // always, whatever include_code_data says: the reference's worker writes both maps for every task (its
  // TaskResultInserter reads no include_code_data), so its response always has them; keys are the cells' hashes in
  // base64 (its Hash MarshalText)
  const code: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (const e of rows.cells.code) code[Buffer.from(e[0], 'hex').toString('base64')] = e[1];
  for (const e of rows.cells.data) data[Buffer.from(e[0], 'hex').toString('base64')] = e[1];
  out.code_cells = code;
  out.data_cells = data;
  if (req.include_address_book || req.include_metadata) {
    const { address_book, metadata } = await bookAndMetadata({ db, testnet: network.testnet, noBook: !req.include_address_book, noMeta: !req.include_metadata }, addrs);
    if (req.include_address_book) out.address_book = address_book;
    if (req.include_metadata) out.metadata = metadata;
  }
  out.rand_seed = rows.randSeed;
  out.is_incomplete = rows.limitExceeded;
  return out;
}

/** The route group (`/api/emulate`), errors as `{"error": "..."}` (the reference's fiber error handler). */
export function emulateGroup(): RouteGroup {
  return {
    name: 'emulate',
    prefix: '/api/emulate',
    apiVersion: EMULATE_API_VERSION,
    renderError: (error: ApiError) => ({ error: error.message }),
    routes(app: FastifyInstance, network: NetworkContext) {
      app.post('/v1/emulateTrace', (request) => emulateTrace(network, request));
    },
  };
}
