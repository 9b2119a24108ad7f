// layerzero.py: send, send tokens and commit packet from the real traces of toncenter's suite; receive and DVN verify
// (no real trace here) built around the packet of a real commit, and md objects written from the LayerZero TON
// contracts' layouts (header, all-ones filler) as upstream parses them; the API's integer fields.
import { beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { ActionRow, Trace } from '../../src/actions/model.ts';
import { body, bodyOf, load } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const SEND_TRON = '01yfeTlzIHDqWZwz-PJTRADD3nDv5LWynHMGsnPZGJU=.json';
const SEND_TOKENS = 'KEbatIe0U3ZHIx6sYTg4O1tgYP9L6hMiHJ8nNnZdyBE=.json';
const COMMIT = '0vFe6hsNR4q75AjTQnOm7B1eoX9ZUDoNrsxeil6PY7E=.json';
const lz = (t: Trace): ActionRow[] => classifyTrace(t).actions.filter((a) => a.type.startsWith('layerzero_'));
const ones = (b: ReturnType<typeof beginCell>, n: number) => b.storeInt(-1n, n);

describe('LayerZero send', () => {
  it('a real send: the LzSend the OApp callback carries, the contracts on the way; integers as JSON numbers', () => {
    const [a] = lz(load(SEND_TRON));
    expect(a.type).toBe('layerzero_send');
    const d = toApiAction(a).details as { layerzero_send_data: Record<string, unknown>; layerzero_packet_data: Record<string, unknown> };
    expect(d.layerzero_send_data).toEqual({
      send_request_id: 90, msglib_manager: '0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368', msglib: '0x63bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570',
      uln: '0:063BDFBF347F883DDBA72A200563570AF2DC72695B2B2FCCAAECD113688AC570', native_fee: 14835102020, zro_fee: 0,
      endpoint: '0:02A7E49D90DF81A1944DAC9241F477DBB17CB0C87313EAF2C58A13D85EF942D3', channel: '0:1348A0E6846379668D3AFB785299609F3930EE80A177F4C88263E3741DB3D90F',
    });
    expect(d.layerzero_packet_data).toMatchObject({ src_eid: 30343, dst_eid: 30420, nonce: 90, dst_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930' });
    expect(toApiAction(a).details).toMatchObject({ initiator: '0:170725394AA56136FBD27D0CE31D8A98E0F8AE72A4D2379B5DDE83E211A2D5FA' });
  });

  it('tokens: the jetton transfer that paid for the send (and emitted the event) and the send, as one action', () => {
    const acts = lz(load(SEND_TOKENS));
    // the send is kept as the child action of the type outside upstream's v1 list
    expect(acts.map((a) => [a.type, a.parent_action_id === null ? 'top' : a.ancestor_type.join()])).toEqual([['layerzero_send_tokens', 'top'], ['layerzero_send', 'layerzero_send_tokens']]);
    expect(toApiAction(acts[0]).details).toMatchObject({
      sender: '0:4884FB969A34FB7CFF95A26B935AC784F09356BF6ABB4187EC550D486709CC93', sender_wallet: '0:8CABD31233D389C6B739F6572944E713D135AA18EC00FE37592033E099C0A9A6',
      oapp: '0:170725394AA56136FBD27D0CE31D8A98E0F8AE72A4D2379B5DDE83E211A2D5FA', oapp_wallet: '0:11AED1BF5C0388791EEA499DB0A40033E34A5E7C86DE1A0A9400204795596856',
      asset: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', amount: '10000',
      layerzero_send_data: { send_request_id: 531, native_fee: 170162108, zro_fee: 0 },
    });
  });

  it('without the jetton transfer\'s event the send stays a send', () => {
    const t = load(SEND_TOKENS);
    // the OApp's own event after the notification is gone: the parent matcher's event child is missing
    const oapp = t.transactions.find((x) => x.inMsg?.opcode === 0x7362d09c)!;
    const event = oapp.outMsgs.find((m) => m.opcode === 0xe33b9873)!;
    oapp.outMsgs = oapp.outMsgs.filter((m) => m !== event);
    t.transactions = t.transactions.filter((x) => x.inMsg?.hash !== event.hash);
    expect(lz(t).map((a) => a.type)).toEqual(['layerzero_send']);
  });
});

describe('LayerZero commit packet', () => {
  it('a real commit: sender, endpoint, the ULN connection (upstream puts it as the ULN too), channel, msglib connection, packet', () => {
    const [a] = lz(load(COMMIT));
    expect(toApiAction(a).details).toEqual({
      sender: '0:8A59CDDC6E86D1E239C01BFE6BCE62D264478E5EBF0EE949EF881223BD85FFD8', endpoint: '0:BA92D918248098831404784B68FB2FF4B7CF6567146C8FC34004236C98D6A2A4',
      uln: '0:54A466DAF8A8575471799B1187E06E2E68CC0E806B0547D3BE22FE64F5E86736', uln_connection: '0:54A466DAF8A8575471799B1187E06E2E68CC0E806B0547D3BE22FE64F5E86736',
      channel: '0:62056B0298CA16D840F7FB8ED420017589493426C8981EE76C0CA13454B15E78', msglib_connection: '0:54A466DAF8A8575471799B1187E06E2E68CC0E806B0547D3BE22FE64F5E86736',
      layerzero_packet_data: {
        src_oapp: '0x70037e28dd2535f6b31fe11109f075a4b3acb4a286480404cf0755c6b045caea', dst_oapp: '0x70037e28dd2535f6b31fe11109f075a4b3acb4a286480404cf0755c6b045caea',
        src_eid: 30343, dst_eid: 30343, nonce: 1, guid: '0xe7db0b36b8b81bcd2a22d087d69dd4ec7640c2bb358092ac9e7306b9a77601a9', message: '0x010000768700000000',
      },
    });
  });

  it('needs the msglib connection\'s callback (optional in the pattern, required by the build)', () => {
    const [SENDER, ULN, CONN, EP, CH] = ['a1', 'b2', 'c3', 'd4', 'e5'].map((f) => addr(0, f));
    const t = (callback: boolean) => buildTrace({
      account: SENDER, from: null, out: [{
        account: ULN, from: SENDER, body: bodyOf(COMMIT, 0x28b97077), out: [{
          account: CONN, from: ULN, body: bodyOf(COMMIT, 0xf9d37b80), out: [{
            account: EP, from: CONN, body: bodyOf(COMMIT, 0x5dab749a), out: [{ account: CH, from: EP, body: bodyOf(COMMIT, 0x5388cd88), out: callback ? [{ account: CONN, from: CH, body: bodyOf(COMMIT, 0x5e178f33) }] : [] }],
          }],
        }],
      }],
    });
    expect(lz(t(true))).toHaveLength(1);
    expect(lz(t(false))).toHaveLength(0);
  });
});

/** md::Path and lz::Packet as the LayerZero contracts build them */
function packet(dstOapp: bigint): Cell {
  const path = ones(beginCell().storeUint(8903714975572488637007080065659n, 152), 198).storeUint(30101, 32).storeUint(0xabcn, 256).storeUint(30343, 32).storeUint(dstOapp, 256).endCell();
  return ones(beginCell().storeUint(417359019239977417716476838698419835n, 152), 198)
    .storeRef(path).storeRef(beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 4).endCell()).storeUint(194, 64).storeUint(0x1234n, 256).endCell();
}

describe('LayerZero receive', () => {
  const EXECUTOR = addr(0, 'a1'), CHANNEL = addr(0, 'b2');
  /** executor -> channel (prepare) -> OApp (prepare) -> channel (lock) -> OApp (execute) -> channel (callback) + event */
  const receive = (oapp: string, pkt: Cell) => {
    const execute = beginCell().storeUint(0x0c7b8418, 32).storeUint(0, 64).storeRef(beginCell().storeRef(pkt).endCell()).endCell();
    const cb: TxSpec = { account: CHANNEL, from: oapp, body: body(0xcaae25a1) };
    return buildTrace({
      account: EXECUTOR, from: null, out: [{
        account: CHANNEL, from: EXECUTOR, body: body(0x22f3ac09), out: [{
          account: oapp, from: CHANNEL, body: body(0x97df404c), out: [{
            account: CHANNEL, from: oapp, body: body(0xb7680bc6), out: [{ account: oapp, from: CHANNEL, body: execute, out: [{ account: addr(0, 'ee'), from: oapp, body: body(0xe33b9873) }, cb] }],
          }],
        }],
      }],
    });
  };

  it('the executor, the channel and OApp of the execute call, the packet it carries', () => {
    const OAPP = '0:70037E28DD2535F6B31FE11109F075A4B3ACB4A286480404CF0755C6B045CAEA';
    // the packet of a real commit, under an execute call
    const real = bodyOf(COMMIT, 0x5388cd88).refs[0].refs[0];
    const [a] = lz(receive(OAPP, real));
    expect(a.type).toBe('layerzero_receive');
    expect(toApiAction(a).details).toMatchObject({ sender: EXECUTOR, oapp: OAPP, channel: CHANNEL, layerzero_packet_data: { nonce: 1, src_eid: 30343, message: '0x010000768700000000' } });
    // the message bits padded to whole bytes, as upstream's tobytes()
    const [b] = lz(receive(addr(0, '5c'), packet(BigInt('0x' + '5c'.repeat(32)))));
    expect(b.layerzero_packet_data).toMatchObject({ message: '0xdeadbeef10', nonce: 194n, guid: '0x1234', src_oapp: '0xabc' });
  });

  it('the OApp must be the packet\'s destination (compared as upstream: hex without leading zeros)', () => {
    expect(lz(receive(addr(0, '5c'), packet(0x1234n)))).toHaveLength(0);
    const leadingZero = '0:0' + 'A'.repeat(63);
    expect(lz(receive(leadingZero, packet(BigInt('0x0' + 'a'.repeat(63)))))).toHaveLength(0);
  });

  it('a packet whose header is not LayerZero\'s builds nothing', () => {
    const bad = beginCell().storeUint(1, 152).storeRef(beginCell().endCell()).endCell();
    expect(lz(receive(addr(0, '5c'), bad))).toHaveLength(0);
  });
});

describe('LayerZero DVN verify', () => {
  const [WORKER, DVN, PROXY, ULN, CONN] = ['a1', 'b2', 'c3', 'd4', 'e5'].map((f) => addr(0, f));
  const status = (code: number, header = 38421788582694199859296615363593851n) =>
    beginCell().storeUint(0x3cb38090, 32).storeRef(beginCell().storeRef(ones(beginCell().storeUint(header, 116), 234).storeUint(77, 64).storeUint(code, 32).endCell()).endCell()).endCell();
  const verify = (callback: Cell | null) => buildTrace({
    account: WORKER, from: null, out: [{
      account: DVN, from: WORKER, body: body(0xa0d51a8d), out: [{
        account: PROXY, from: DVN, body: body(0x09f047d9), out: [{
          account: ULN, from: PROXY, body: body(0x994aaf4e), out: [{
            account: CONN, from: ULN, body: body(0x4ec8f80a), out: [{ account: addr(0, 'ee'), from: CONN, body: body(0xe33b9873) }, ...(callback ? [{ account: ULN, from: CONN, body: callback, out: [{ account: WORKER, from: ULN, body: beginCell().endCell() }] }] : [])],
          }],
        }],
      }],
    }],
  });

  it('the verification status the ULN connection reports, and the contracts', () => {
    const [a] = lz(verify(status(0x3bbc306b)));
    expect(toApiAction(a).details).toEqual({ initiator: WORKER, nonce: 77, status: 'succeeded', dvn: DVN, proxy: PROXY, uln: ULN, uln_connection: CONN });
    expect(lz(verify(status(0x7fcbb4ac)))[0].layerzero_dvn_verify_data).toMatchObject({ status: 'nonce_out_of_range' });
    expect(lz(verify(status(0x29c53fab)))[0].layerzero_dvn_verify_data).toMatchObject({ status: 'dvn_not_configured' });
    expect(lz(verify(status(5)))[0].layerzero_dvn_verify_data).toMatchObject({ status: 'unknown_5' });
  });

  it('no callback, or one that is not a verification status: nothing', () => {
    expect(lz(verify(null))).toHaveLength(0);
    expect(lz(verify(status(0x3bbc306b, 1n)))).toHaveLength(0);
  });
});
