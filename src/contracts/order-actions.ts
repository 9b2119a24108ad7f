/**
 * The actions of a multisig v2 order (`multisig/orders?parse_actions=true`), as the reference's
 * `parse.ParseOrder` lists them. The order cell is `Hashmap 8 ^Action` (multisig.func execute_order):
 *
 *   send_message#f1381e5b mode:uint8 message:^MessageRelaxed = Action;
 *   update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *                                    proposers:(HashmapE 8 MsgAddressInt) = Action;
 *
 * A sent message's body is decoded for the common cases (TEP-74 / TEP-62 / stablecoin admin messages, comments,
 * single-nominator); anything else is `unknown` with its opcode. Differences from the reference: `send_mode` is
 * the action's mode (the reference leaves it 0), 64-bit query ids are decimal strings, and jetton `call_to` /
 * vesting internal transfers are reported as `unknown`.
 */
import { Address, Cell, Dictionary, loadMessageRelaxed, type Slice } from '@ton/core';
import { rawAddress } from './cells.ts';
import { addressList } from './layout.ts';

export interface OrderAction {
  destination: string | null;
  value: string | null;
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  parsed_body_type: string;
  send_mode: number;
}

const SEND_MESSAGE = 0xf1381e5b;
const UPDATE_PARAMS = 0x1d0cfbd3;

const addr = (s: Slice): string | null => {
  const a = s.loadAddressAny();
  return a instanceof Address ? rawAddress(a) : null;
};
const b64 = (c: Cell | null): string | null => (c ? c.toBoc().toString('base64') : null);

function snakeText(s: Slice): string {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    if (cur.remainingBits % 8 !== 0) throw new Error('text is not whole bytes');
    parts.push(cur.loadBuffer(cur.remainingBits / 8));
    cur = cur.remainingRefs ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Either X ^X as a cell of its own (null when empty). */
function eitherCell(s: Slice): Cell | null {
  if (s.remainingBits === 0) return null;
  if (s.loadBit()) return s.loadRef();
  return s.remainingBits || s.remainingRefs ? s.asCell() : null;
}

type Parsed = { type: string; body: Record<string, unknown> };

function parseBody(body: Cell): Parsed {
  const s = body.beginParse();
  if (s.remainingBits < 32) return { type: 'ton_transfer', body: { comment: '', encrypted: false } };
  const op = s.loadUint(32);
  const qid = () => s.loadUintBig(64).toString();
  switch (op) {
    case 0:
      return { type: 'ton_transfer', body: { comment: snakeText(s), encrypted: false } };
    case 0x2167da4b:
      return { type: 'ton_transfer', body: { comment: snakeText(s), encrypted: true } };
    case 0x0f8a7ea5: {
      const query_id = qid();
      const amount = s.loadCoins().toString();
      const destination = addr(s);
      const response = addr(s);
      const custom = s.loadMaybeRef();
      const forward_amount = s.loadCoins().toString();
      const fwd = eitherCell(s);
      return { type: 'jetton_transfer', body: { query_id, amount, destination, response, custom_payload: b64(custom), forward_amount, forward_payload: b64(fwd) } };
    }
    case 0x595f07bc:
      return { type: 'jetton_burn', body: { query_id: qid(), amount: s.loadCoins().toString(), response_destination: addr(s) } };
    case 0x00000015:
    case 0x642b7d07: {
      const query_id = qid();
      const to_address = addr(s);
      const ton_amount = s.loadCoins().toString();
      const m = s.loadRef().beginParse();
      m.skip(32);
      return { type: 'jetton_mint', body: { opcode: op, query_id, to_address, ton_amount, master_msg_query_id: m.loadUintBig(64).toString(), master_msg_jetton_amount: m.loadCoins().toString() } };
    }
    case 0x5fcc3d14: {
      const query_id = qid();
      const new_owner = addr(s);
      const response_destination = addr(s);
      const custom = s.loadMaybeRef();
      const forward_amount = s.loadCoins().toString();
      return { type: 'nft_transfer', body: { query_id, new_owner, response_destination, custom_payload: b64(custom), forward_amount, forward_payload: b64(eitherCell(s)) } };
    }
    case 0x00009fd3:
      return { type: 'jetton_top_up', body: { query_id: qid() } };
    case 0x6501f354:
      return { type: 'jetton_change_admin', body: { query_id: qid(), new_admin_address: addr(s) } };
    case 0xfb88e119:
      return { type: 'jetton_claim_admin', body: { query_id: qid() } };
    case 0xcb862902:
      return { type: 'jetton_change_content', body: { query_id: qid(), new_metadata_url: snakeText(s) } };
    case 0xeed236d3:
      return { type: 'jetton_set_status', body: { query_id: qid(), new_status: s.loadUint(8) } };
    case 0x00001000:
      return { type: 'single_nominator_withdraw', body: { query_id: qid(), coins: s.loadCoins().toString() } };
    case 0x00001001:
      return { type: 'single_nominator_change_validator', body: { query_id: qid(), validator_address: addr(s) } };
    default:
      return { type: 'unknown', body: { opcode: op, data: b64(body) } };
  }
}

function sendMessage(s: Slice): OrderAction {
  const send_mode = s.loadUint(8);
  const msg = loadMessageRelaxed(s.loadRef().beginParse());
  const info = msg.info;
  const destination = info.type === 'internal' ? rawAddress(info.dest) : null;
  const value = info.type === 'internal' ? info.value.coins.toString() : '0';
  let parsed: Parsed;
  try {
    parsed = parseBody(msg.body);
  } catch {
    parsed = { type: 'unknown', body: { opcode: null, data: b64(msg.body) } };
  }
  return { destination, value, body_raw: b64(msg.body), parsed: true, error: null, parsed_body: parsed.body, parsed_body_type: parsed.type, send_mode };
}

function updateParams(s: Slice): OrderAction {
  const new_threshold = s.loadUint(8);
  const new_signers = addressList(s.loadRef());
  const new_proposers = addressList(s.loadMaybeRef());
  return {
    destination: null,
    value: null,
    body_raw: null,
    parsed: true,
    error: null,
    parsed_body: { new_threshold, new_signers, new_proposers },
    parsed_body_type: 'multisig_update_params',
    send_mode: 0,
  };
}

function failed(error: string): OrderAction {
  return { destination: null, value: null, body_raw: null, parsed: false, error, parsed_body: null, parsed_body_type: 'unknown', send_mode: 0 };
}

/** Actions of an order (base64 BoC of the order cell) in key order; a malformed action is listed with its error. */
export function parseOrderActions(orderBoc: string | null): OrderAction[] {
  if (!orderBoc) return [];
  let dict: Dictionary<number, Cell>;
  try {
    dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), Cell.fromBase64(orderBoc));
  } catch (e) {
    return [failed(`failed to parse order: ${(e as Error).message}`)];
  }
  return [...dict]
    .sort((a, b) => a[0] - b[0])
    .map(([, cell]) => {
      try {
        const s = cell.beginParse();
        const op = s.loadUint(32);
        if (op === SEND_MESSAGE) return sendMessage(s);
        if (op === UPDATE_PARAMS) return updateParams(s);
        return failed(`unknown order action type: ${op}`);
      } catch (e) {
        return failed(`failed to parse order action: ${(e as Error).message}`);
      }
    });
}
