// tgbtc.py: mint, burn, new key and the log-only fallbacks (crippled: `*_fallback`), from the real traces of
// toncenter's suite and traces built around their bodies and logs (the odd schemas: a burn log without addresses, the
// old burn notification, a DKG log with no new key).
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { ActionRow, Trace } from '../../src/actions/model.ts';
import { body, bodyOf, load } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const MINT = 'iqIHDlbalqobuAMgJOC_T_9L6nLiwdOOr7BNKBtqIyA=.json';
const BURN = 'xBl_8BTUqSv52IWAzrmg54-V0YR_WQsV1buJxKBq4vE=.json';
const NEW_KEY = 'XbaXJMw3ssABoaIXul2iIN_kYfu-HoPsD0NZFLyMRxA=.json';

const USER = addr(0, 'a1'), TELEPORT = addr(0, 'b2'), COORD = addr(0, 'c3'), MINTER = addr(0, 'd4'), WALLET = addr(0, 'e5'), PEGOUT = addr(0, 'f6'), X = addr(0, '17');
const tg = (t: Trace, prefix = 'tgbtc_'): ActionRow[] => classifyTrace(t).actions.filter((a) => a.type.startsWith(prefix));

describe('tgBTC mint', () => {
  it('a real mint: caller, recipient, amount, the bitcoin txid as Bitcoin shows it, the wallet minted to', () => {
    const [a] = tg(load(MINT));
    expect(a.type).toBe('tgbtc_mint');
    expect(toApiAction(a).details).toEqual({
      source: '0:219F19946DDAA7ED0923267A89FA39A82BA5D9B631ABB0F15BA61241830C92EA',
      destination: '0:219F19946DDAA7ED0923267A89FA39A82BA5D9B631ABB0F15BA61241830C92EA',
      amount: '9850',
      asset: '0:AD9E0A84E13EFB6D37634044F7B49820FD121E900057BF6E71DED212378D7C05',
      bitcoin_tx_id: '29473eb71be95904599a5cecd24f602f07942b1da2b4c5eb3c5551367c2e4023',
      destination_wallet: '0:AE519BA51E0D8FB640308A7BD0FB398FEE0C5151426DB6423B11BF15D3A0E39F',
    });
    expect(a.source_secondary).toBe('0:E1177970B722A9422D8EF674B85CDCB2C88295EE397D7150A4A382F91921409C');
    // the whole chain from the head down, with the siblings met on the way up (all nine transactions)
    expect(a.tx_hashes).toHaveLength(9);
  });

  const LOG = bodyOf(MINT, 0x77a80ef3, { log: true });
  /** the tail (0xe42a879b) to the teleport, which logs and mints; above it the head (0x3f781d24) or not */
  const mint = (head: boolean, log = LOG) => {
    const tail: TxSpec = {
      account: TELEPORT, from: X, body: bodyOf(MINT, 0xe42a879b), logs: [log], out: [{
        account: MINTER, from: TELEPORT, body: bodyOf(MINT, 0x642b7d07), out: [{ account: WALLET, from: MINTER, body: bodyOf(MINT, 0x178d4519) }],
      }],
    };
    return buildTrace(head
      ? { account: USER, from: null, out: [{ account: TELEPORT, from: USER, body: bodyOf(MINT, 0x3f781d24), out: [{ account: X, from: TELEPORT, body: body(0x642a879b), out: [tail] }] }] }
      : { account: X, from: null, out: [tail] },
    { interfaces: { [WALLET]: { raw: { JettonWallet: { owner: USER, jetton: MINTER, balance: 0 } } } } });
  };

  it('up to the head; without one, only the log is left: a crippled mint of the log alone', () => {
    const [full] = tg(mint(true));
    expect(full).toMatchObject({ type: 'tgbtc_mint', source: USER, source_secondary: TELEPORT, asset: MINTER, destination_secondary: WALLET, amount: 9850n });
    const [crippled] = tg(mint(false));
    expect(crippled).toMatchObject({
      type: 'tgbtc_mint_fallback', source: TELEPORT, source_secondary: TELEPORT, asset: null, destination_secondary: null,
      destination: '0:219F19946DDAA7ED0923267A89FA39A82BA5D9B631ABB0F15BA61241830C92EA', amount: 9850n, asset_secondary: '29473eb71be95904599a5cecd24f602f07942b1da2b4c5eb3c5551367c2e4023',
    });
    expect(crippled.tx_hashes).toEqual([mint(false).transactions.find((t) => t.account === TELEPORT)!.hash]);
  });

  it('a log that does not read is no mint, crippled or not', () => {
    expect(tg(mint(true, body(0x77a80ef3, (b) => b.storeCoins(1n))))).toEqual([]);
  });
});

describe('tgBTC burn', () => {
  it('a real burn: owner, wallet, the pegout address, the amount the teleport logged', () => {
    const [a] = tg(load(BURN));
    expect(a.type).toBe('tgbtc_burn');
    expect(toApiAction(a).details).toEqual({
      source: '0:219F19946DDAA7ED0923267A89FA39A82BA5D9B631ABB0F15BA61241830C92EA',
      source_wallet: '0:AE519BA51E0D8FB640308A7BD0FB398FEE0C5151426DB6423B11BF15D3A0E39F',
      destination: '0:AFCEC6CCE463D696DDBDF9469CE1CEDEEA02CA47F665BCEB99A8A2F2C5D45731',
      amount: '9637',
      asset: '0:AD9E0A84E13EFB6D37634044F7B49820FD121E900057BF6E71DED212378D7C05',
    });
  });

  const burn = (notification: number, log = bodyOf(BURN, 0xca444ce6, { log: true })) => buildTrace({
    account: USER, from: null, out: [{
      account: WALLET, from: USER, body: bodyOf(BURN, 0x595f07bc), out: [{
        account: MINTER, from: WALLET, body: bodyOf(BURN, 0x7bdd97de), out: [{
          account: TELEPORT, from: MINTER, body: body(notification), logs: [log], out: [{ account: PEGOUT, from: TELEPORT, body: body(0xbe44e7a6), out: [{ account: COORD, from: PEGOUT, body: body(0x1a84c0e0) }] }],
        }],
      }],
    }],
  }, { interfaces: { [WALLET]: { raw: { JettonWallet: { owner: USER, jetton: MINTER, balance: 0 } } } } });

  it('after the burn notification, or the old 0x587643a2 one', () => {
    for (const op of [0x7bdd97de, 0x587643a2]) {
      const [a] = tg(burn(op));
      expect(a).toMatchObject({ type: 'tgbtc_burn', source: USER, source_secondary: WALLET, asset: MINTER, amount: 9637n, destination: '0:AFCEC6CCE463D696DDBDF9469CE1CEDEEA02CA47F665BCEB99A8A2F2C5D45731' });
      expect(a.tx_hashes).toHaveLength(6);
    }
    // another notification: the burn is a jetton burn, the log a crippled burn of its own
    const types = classifyTrace(burn(0x12345678)).actions.map((a) => a.type);
    expect(types).toContain('jetton_burn');
    expect(types).toContain('tgbtc_burn_fallback');
    expect(types).not.toContain('tgbtc_burn');
  });

  // the amount: the jetton burn's (9850 in the real burn), never more than the log's (9637 there), the log's alone
  // where the burn names 0
  const burnOf = (amount: bigint) => body(0x595f07bc, (b) => b.storeUint(7, 64).storeCoins(amount).storeAddress(Address.parse(USER)).storeBit(0));
  const withBurn = (burnBody: ReturnType<typeof body>, log: ReturnType<typeof body>) => buildTrace({
    account: USER, from: null, out: [{
      account: WALLET, from: USER, body: burnBody, out: [{
        account: MINTER, from: WALLET, body: bodyOf(BURN, 0x7bdd97de), out: [{ account: TELEPORT, from: MINTER, body: bodyOf(BURN, 0x7bdd97de), logs: [log] }],
      }],
    }],
  }, { interfaces: { [WALLET]: { raw: { JettonWallet: { owner: USER, jetton: MINTER, balance: 0 } } } } });

  it('the amount: the burn\'s where the log reads more (a log of another layout), the log\'s where it says less', () => {
    expect(tg(load(BURN))[0].amount).toBe(9637n); // min(9850 burnt, 9637 logged)
    // a log laid out as query_id:uint64 then the fields: read as burn#ca444ce6, its "amount" is the query id's bytes
    // and its addresses what follows; the burn's 1000 stands
    const otherLayout = body(0xca444ce6, (b) => b.storeUint(0x7123456789abcdefn, 64).storeCoins(1000n).storeAddress(Address.parse(USER)).storeAddress(Address.parse(PEGOUT)));
    const [a] = tg(withBurn(burnOf(1000n), otherLayout));
    expect(a).toMatchObject({ type: 'tgbtc_burn', amount: 1000n, source: USER, source_secondary: WALLET, asset: MINTER });
    const log = (amount: bigint) => body(0xca444ce6, (b) => b.storeCoins(amount).storeAddress(Address.parse(USER)).storeAddress(Address.parse(PEGOUT)));
    expect(tg(withBurn(burnOf(1000n), log(400n)))[0]).toMatchObject({ amount: 400n, destination: PEGOUT });
    expect(tg(withBurn(burnOf(0n), log(400n)))[0]).toMatchObject({ amount: 400n, destination: PEGOUT });
  });

  it('a burn log alone: crippled; a log without readable addresses keeps none (the odd early schema)', () => {
    const alone = (log: ReturnType<typeof body>) => tg(buildTrace({ account: TELEPORT, from: null, body: body(0xaff5f753), logs: [log] }));
    const [a] = alone(bodyOf(BURN, 0xca444ce6, { log: true }));
    expect(a).toMatchObject({ type: 'tgbtc_burn_fallback', source: '0:219F19946DDAA7ED0923267A89FA39A82BA5D9B631ABB0F15BA61241830C92EA', source_secondary: null, asset: null, amount: 9637n });
    const [odd] = alone(body(0xca444ce6, (b) => b.storeCoins(5n)));
    expect(odd).toMatchObject({ type: 'tgbtc_burn_fallback', source: null, destination: null, amount: 5n });
    const [half] = alone(body(0xca444ce6, (b) => b.storeCoins(5n).storeAddress(Address.parse(USER))));
    expect(half).toMatchObject({ source: USER, destination: null });
    expect(toApiAction(odd).type).toBe('tgbtc_burn_fallback');
  });
});

describe('tgBTC new key and DKG', () => {
  it('a real new key: the teleport that logged the DKG, the coordinator, the key, the pegout, the timestamp', () => {
    const [a] = tg(load(NEW_KEY));
    expect(a).toMatchObject({ type: 'tgbtc_new_key', value: 1748633438n });
    expect(toApiAction(a).details).toEqual({
      source: '0:F8DD1B5D010FD8F2797CE92AB3C6394BFFEAC0BDD66204393FB3B39317EA11C6',
      pubkey: '382e9d762046f4bb5cde2ce1b7780cb499b5394972163930cf88bc55463acb70',
      coordinator: '0:E1177970B722A9422D8EF674B85CDCB2C88295EE397D7150A4A382F91921409C',
      pegout: '0:8772FC3544750A35733D5E0EB1A1FE0E5986495614451B00B73943F9F55F8B7F',
      amount: '425489053588',
      asset: null,
    });
  });

  const NEW_KEY_LOG = bodyOf(NEW_KEY, 0x27756729, { log: true }), DKG_LOG = bodyOf(NEW_KEY, 0x453443a6, { log: true });

  it('a new key log with no DKG log above: crippled (no teleport, no timestamp)', () => {
    const t = buildTrace({ account: TELEPORT, from: null, out: [{ account: COORD, from: TELEPORT, body: body(0x690f357a), logs: [NEW_KEY_LOG] }] });
    const [a] = tg(t);
    expect(a).toMatchObject({ type: 'tgbtc_new_key_fallback', source: null, destination: COORD, value: null, source_secondary: '382e9d762046f4bb5cde2ce1b7780cb499b5394972163930cf88bc55463acb70', amount: 425489053588n });
  });

  it('a DKG log alone (no new key): the coordinator, the key, the timestamp', () => {
    const t = buildTrace({ account: TELEPORT, from: null, body: body(0x44f72491), out: [{ account: COORD, from: TELEPORT, body: body(0x690f357a), logs: [DKG_LOG] }] });
    const [a] = tg(t);
    expect(a.type).toBe('tgbtc_dkg_log_fallback');
    expect(toApiAction(a).details).toEqual({ coordinator: COORD, pubkey: a.asset, timestamp: '1748633438' });
    expect(a.asset).toMatch(/^[0-9a-f]+$/);
  });
});
