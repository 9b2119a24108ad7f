// /decode (GET and POST) and message_content.decoded on real message bodies: the labelled in-messages of
// test/fixtures/msgs (labels from the fixture MANIFEST, TEP-74/62 and tongo schemas; names as in ton-marker's
// schemes.tlb), field values checked against @ton/core reading the same cells, and wallet requests checked
// against the out-messages the wallet actually sent in its transaction (fixture blocks). The decoded tree is
// ton-marker's (see src/api/v3/decode/README.md): every value keeps its TL-B constructor, so an amount is
// {"@type":"var_uint","len","value"} and an address {"@type":"addr_std",...,"workchain_id","address"}.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell, Cell, loadMessage, type Slice } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/ton/index.ts';
import { FIXTURES, get, openFixture, type Fixture } from './helpers.ts';

let f: Fixture;
beforeAll(async () => {
  f = await openFixture();
});
afterAll(async () => {
  await f?.close();
});

/** MsgAddress as ton-marker prints it: addr_std (anycast absent) or addr_none */
const addr = (a: { workChain: number; hash: Buffer } | null) => (a
  ? { '@type': 'addr_std', anycast: { '@type': 'nothing_from_maybe' }, workchain_id: String(a.workChain), address: a.hash.toString('hex').toUpperCase() }
  : { '@type': 'addr_none' });
/** an address tree back to the raw form the API uses elsewhere */
const rawOf = (d: { workchain_id: string; address: string }) => `${d.workchain_id}:${d.address}`;

/** The body (base64 BoC) and the message of a fixture message file. */
function fixtureMsg(name: string) {
  const m = loadMessage(Cell.fromBoc(readFileSync(join(FIXTURES, 'msgs', name)))[0].beginParse());
  return { m, body: m.body.toBoc().toString('base64') };
}

async function decodeBodies(bodies: string[]): Promise<Record<string, unknown>[]> {
  const r = await f.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { bodies } });
  expect(r.statusCode).toBe(200);
  return (r.json() as { bodies: Record<string, unknown>[] }).bodies;
}

// label (MANIFEST) -> the reference's constructor name
const LABELLED: [file: string, type: string][] = [
  ['mainnet-jetton-transfer-in-msg-lt76734069000003-2a587123.boc', 'jetton_transfer'],
  ['mainnet-jetton-transfer-in-msg-lt43049086000005-1150b518.boc', 'jetton_transfer'],
  ['mainnet-jetton-internal-transfer-in-msg-lt76734069000016-2a587123.boc', 'jetton_internal_transfer'],
  ['mainnet-jetton-transfer-notification-in-msg-lt76734069000007-18aa8e2e.boc', 'jetton_notify'],
  ['mainnet-jetton-excesses-in-msg-lt76734069000010-89f356bd.boc', 'excess'],
  ['mainnet-jetton-burn-in-msg-lt76734069000003-93503d3a.boc', 'jetton_burn'],
  ['mainnet-jetton-burn-notification-in-msg-lt76734069000007-bdf3fa80.boc', 'jetton_burn_notification'],
  ['mainnet-nft-transfer-in-msg-lt43049060000003-ad61bd69.boc', 'nft_transfer'],
  ['mainnet-nft-ownership-assigned-in-msg-lt76734069000027-4ff6f076.boc', 'nft_ownership_assigned'],
  ['mainnet-text-comment-in-msg-lt76734069000033-7692c307.boc', 'text_comment'],
  ['mainnet-tonstakers-deposit-in-msg-lt76734069000003-a45b17f2.boc', 'tonstake_pool_deposit'],
  ['mainnet-stonfi-v1-swap-in-msg-lt43049086000009-a66a9122.boc', 'stonfi_swap'],
  ['mainnet-stonfi-v1-pay-to-in-msg-lt43049086000011-779dcc81.boc', 'stonfi_payment_request'],
  ['mainnet-stonfi-v2-swap-in-msg-lt76734069000009-8649cad9.boc', 'stonfi_swap_v2'],
  ['mainnet-stonfi-v2-pay-to-in-msg-lt76734069000012-92e1411a.boc', 'stonfi_pay_to_v2'],
  ['mainnet-dedust-swap-external-in-msg-lt76734069000009-3e5ffca8.boc', 'dedust_swap_external'],
  ['mainnet-dedust-payout-from-pool-in-msg-lt76734069000012-18aa8e2e.boc', 'dedust_pay_out_from_pool'],
  ['mainnet-bounced-in-in-msg-lt43049060000005-fd7e5735.boc', 'bounce'],
  ['mainnet-ext-in-wallet-v5r1-in-msg-lt76734069000001-bc91b30e.boc', 'w5_external_signed_request'],
  ['mainnet-wallet-v5-signed-internal-in-msg-lt56269616000003-70ef91e0.boc', 'w5_internal_signed_request'],
  ['mainnet-wallet-v5-extension-action-in-msg-lt56269616000003-697c31ab.boc', 'w5_extension_action_request'],
  ['mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000001-a9558b20.boc', 'wallet_signed_v4'],
  ['mainnet-ext-in-highload-v3-in-msg-lt76734069000021-15813623.boc', 'highload_wallet_signed_v3'],
];

describe('/decode bodies', () => {
  it('each labelled real body decodes to its constructor (POST and GET agree)', async () => {
    const bodies = LABELLED.map(([file]) => fixtureMsg(file).body);
    const out = await decodeBodies(bodies);
    expect(out.map((b) => b['@type'])).toEqual(LABELLED.map(([, t]) => t));
    const qs = bodies.slice(0, 5).map((b) => `bodies=${encodeURIComponent(b)}`).join('&');
    const g = await get(f.app, `/api/v3/decode?${qs}`);
    expect(g.status).toBe(200);
    expect(g.body.bodies).toEqual(out.slice(0, 5));
  });

  it('jetton transfer fields equal @ton/core\'s reading of TEP-74 transfer#0f8a7ea5', async () => {
    const { body } = fixtureMsg('mainnet-jetton-transfer-in-msg-lt76734069000003-2a587123.boc');
    const [d] = await decodeBodies([body]);
    const s = Cell.fromBase64(body).beginParse();
    expect(s.loadUint(32)).toBe(0x0f8a7ea5);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const destination = s.loadAddress();
    const response = s.loadMaybeAddress();
    const custom = s.loadMaybeRef();
    const fwd = s.loadCoins();
    expect(d).toMatchObject({
      '@type': 'jetton_transfer', query_id: queryId.toString(), amount: { '@type': 'var_uint', value: amount.toString() }, destination: addr(destination),
      response_destination: addr(response), custom_payload: custom ? { '@type': 'something_from_maybe' } : { '@type': 'nothing_from_maybe' },
      forward_ton_amount: { '@type': 'var_uint', value: fwd.toString() },
    });
    // len: the byte length of the VarUInteger 16
    expect((d.amount as { len: string }).len).toBe(String(Math.ceil(amount.toString(16).length / 2)));
  });

  it('jetton_notify: forward payload decoded recursively (STON.fi v1 swap), text comments, NFT transfer', async () => {
    const swap = fixtureMsg('mainnet-stonfi-v1-swap-in-msg-lt43049086000007-779dcc81.boc');
    const comment = fixtureMsg('mainnet-text-comment-in-msg-lt76734069000033-7692c307.boc');
    const nft = fixtureMsg('mainnet-nft-transfer-in-msg-lt43049060000003-ad61bd69.boc');
    const [n, c, t] = await decodeBodies([swap.body, comment.body, nft.body]);
    // the notification's forward payload (Either Cell ^Cell) read with @ton/core
    const s = Cell.fromBase64(swap.body).beginParse();
    s.skip(32 + 64);
    const amount = s.loadCoins();
    const sender = s.loadAddress();
    const fp = s.loadBit() ? s.loadRef().beginParse() : s;
    expect(fp.loadUint(32)).toBe(0x25938561);
    const tokenWallet = fp.loadAddress();
    const minOut = fp.loadCoins();
    // forward_payload:(Either Cell ^Cell): either way the cell's BoC is replaced by its decoding
    expect(n).toMatchObject({
      '@type': 'jetton_notify', amount: { value: amount.toString() }, sender: addr(sender),
      forward_payload: { value: { '@type': 'stonfi_swap_forward_payload', token_wallet: addr(tokenWallet), min_out: { value: minOut.toString() } } },
    });
    const cs = Cell.fromBase64(comment.body).beginParse();
    cs.skip(32);
    expect(c).toEqual({ '@type': 'text_comment', text: cs.loadStringTail() });
    const ns: Slice = Cell.fromBase64(nft.body).beginParse();
    ns.skip(32);
    expect(t).toMatchObject({ '@type': 'nft_transfer', query_id: ns.loadUintBig(64).toString(), new_owner: addr(ns.loadAddress()), response_destination: addr(ns.loadMaybeAddress()) });
  });

  it('wallet requests list exactly the messages the wallet then sent (v5r1 external, v4r2 external)', async () => {
    const cases: [file: string, block: string, tx: string][] = [
      ['mainnet-ext-in-wallet-v5r1-in-msg-lt76734069000001-bc91b30e.boc', 'mainnet-wc0-8000000000000000-71398501.boc', 'f87f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adeef'],
      ['mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000001-a9558b20.boc', 'mainnet-wc0-8000000000000000-71398501.boc', 'd38fd30e4e73b3f265a6c5ebdf4373e33bce3ea21796577a88898749487468ab'],
    ];
    for (const [file, block, txHash] of cases) {
      const [d] = await decodeBodies([fixtureMsg(file).body]);
      const tx = decodeBlock(readFileSync(join(FIXTURES, 'blocks/mainnet', block))).transactions.find((t) => t.hash === txHash)!;
      const sent = tx.out_msgs.map((m) => m.destination).sort();
      type Msg = { info: { dest: { workchain_id: string; address: string } } };
      const requested: string[] = [];
      if (d['@type'] === 'w5_external_signed_request') {
        // out_actions:(Maybe ^(OutList m)) (a RefT argument: {"cell_reference": …}): out_list$_ prev:^(OutList n)
        // action:OutAction, down to out_list_empty
        type OutList = { '@type': string; prev: OutList; action: { out_msg: Msg } };
        let list = (d.request as { inner: { out_actions: { value: { cell_reference: OutList } } } }).inner.out_actions.value.cell_reference;
        for (; list['@type'] === 'out_list'; list = list.prev) requested.push(rawOf(list.action.out_msg.info.dest));
      } else {
        // op:simple_send msgs:(WalletV1toV4Msgs n): msgs_n with msg_1..msg_n of (mode, ^MessageRelaxed)
        const msgs = (d.op as { msgs: Record<string, { msg: Msg }> }).msgs;
        for (const [k, v] of Object.entries(msgs)) if (k !== '@type') requested.push(rawOf(v.msg.info.dest));
      }
      expect(requested.sort(), file).toEqual(sent);
      expect(sent.length).toBeGreaterThan(0);
    }
  });

  it('not decodable: the reference\'s "unknown: ..." reasons; empty cell', async () => {
    const empty = new Cell().toBoc().toString('base64');
    const short = Cell.fromBase64(fixtureMsg('mainnet-jetton-excesses-in-msg-lt76734069000010-89f356bd.boc').body).beginParse().loadBits(8);
    const shortBoc = new Cell({ bits: short }).toBoc().toString('base64');
    const unknownOp = beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 64).endCell().toBoc().toString('base64');
    const out = await decodeBodies([empty, shortBoc, 'te6cc!!', 'AAAA', unknownOp]);
    expect(out).toEqual([
      { '@type': 'empty_cell' },
      { error: 'unknown: boc is too small, size 8' },
      // "te6..." is base64, anything else hex (td::base64_decode / td::hex_decode messages)
      { error: 'unknown: failed to decode base64: Wrong padding length' },
      { error: 'unknown: failed to deserialize boc: cannot deserialize bag-of-cells: not enough bytes (2 present, 4 required)' },
      { error: 'unknown: no parser succeeded' },
    ]);
  });
});

describe('/decode opcodes and limits', () => {
  it('names opcodes by the reference\'s constructors; hex first, signed decimal; unknown', async () => {
    const r = await get(f.app, '/api/v3/decode?opcodes=0x0f8a7ea5&opcodes=7362d09c&opcodes=-1&opcodes=0xdeadbeef&opcodes=0x7369676e');
    expect(r.body).toEqual({ opcodes: ['jetton_transfer', 'jetton_notify', 'bounce', 'unknown', 'w5_external_signed_request'], bodies: [] });
  });

  it('bad input is 422 naming the problem', async () => {
    expect((await get(f.app, '/api/v3/decode?opcodes=1&opcodes=zz')).body).toEqual({ code: 422, error: 'invalid opcode format at index 1: zz' });
    const many = Array.from({ length: 1001 }, () => '0');
    const r = await f.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { opcodes: many } });
    expect(r.json()).toEqual({ code: 422, error: 'opcodes list exceeds maximum length of 1000' });
    const bad = await f.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { bodies: 'x' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatch(/field bodies/);
    expect((await get(f.app, '/api/v3/decode?body=x')).body.error).toMatch(/unknown parameter: "body"/);
  });
});

describe('message_content.decoded', () => {
  it('transactions carry decoded bodies; text comments keep the back-compatible shape', async () => {
    // the jetton wallet transaction whose in-message is the fixture transfer request
    const tx = '92c59e9957a0484e273df28293ad18947f71876ca4524415d842cbc5b5357187';
    const r = await get(f.app, `/api/v3/transactions?hash=${tx}`);
    const t = (r.body.transactions as { in_msg: { decoded_opcode: string; message_content: { decoded: Record<string, unknown> } } }[])[0];
    expect(t.in_msg.decoded_opcode).toBe('jetton_transfer');
    const { body } = fixtureMsg('mainnet-jetton-transfer-in-msg-lt76734069000003-2a587123.boc');
    const [d] = await decodeBodies([body]);
    expect(t.in_msg.message_content.decoded).toEqual(d);
    const c = await get(f.app, '/api/v3/transactions?hash=6550621b43f9ccd109fca5da6195af3de52f18608f9068a5cf2735b819b800d0');
    const cm = (c.body.transactions as { in_msg: { message_content: { decoded: Record<string, unknown> } } }[])[0].in_msg.message_content.decoded;
    expect(cm).toMatchObject({ type: 'text_comment', '@type': 'text_comment' });
    expect(typeof cm.comment).toBe('string');
  });

  it('on the wire: message_content.decoded keeps ton-marker\'s key order (Go serves the raw text), the comment shape Go\'s sorted map; /decode sorts every object', async () => {
    const raw = await f.app.inject({ url: '/api/v3/transactions?hash=6550621b43f9ccd109fca5da6195af3de52f18608f9068a5cf2735b819b800d0' });
    const comment = (raw.json() as { transactions: { in_msg: { message_content: { decoded: { comment: string } } } }[] }).transactions[0].in_msg.message_content.decoded.comment;
    expect(raw.payload).toContain(`"decoded":${JSON.stringify({ '@type': 'text_comment', comment, type: 'text_comment' })}`);
    const tr = await f.app.inject({ url: '/api/v3/transactions?hash=92c59e9957a0484e273df28293ad18947f71876ca4524415d842cbc5b5357187' });
    const decoded = (tr.json() as { transactions: { in_msg: { message_content: { decoded: Record<string, unknown> } } }[] }).transactions[0].in_msg.message_content.decoded;
    // jetton_transfer#0f8a7ea5 query_id amount destination response_destination custom_payload forward_ton_amount forward_payload
    expect(Object.keys(decoded)).toEqual(['@type', 'query_id', 'amount', 'destination', 'response_destination', 'custom_payload', 'forward_ton_amount', 'forward_payload']);
    const { body } = fixtureMsg('mainnet-ext-in-wallet-subwallet698983191-v3v4-in-msg-lt58895241000002-21667f84.boc');
    const r = await f.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { bodies: [body] } });
    const sortedEverywhere = (v: unknown): boolean => {
      if (Array.isArray(v)) return v.every(sortedEverywhere);
      if (!v || typeof v !== 'object') return true;
      const keys = Object.keys(v);
      return keys.every((k, i) => i === 0 || keys[i - 1] < k) && Object.values(v).every(sortedEverywhere);
    };
    const parsed = (r.json() as { bodies: Record<string, unknown>[] }).bodies[0];
    expect(parsed['@type']).toBe('wallet_signed_v4');
    expect(Object.keys(parsed)).toEqual(['@type', 'msg_seqno', 'op', 'signature', 'subwallet_id', 'valid_until']);
    expect(sortedEverywhere(parsed)).toBe(true);
    expect(r.payload).toContain('"cell_reference":{"@type":"nft_transfer"');
  });
});
