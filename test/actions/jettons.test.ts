// jettons.py: transfer, pTON transfer, burn, mint and the failed-external fallback transfer, every branch of the
// matchers. Real traces from the fixtures where they have the case; otherwise traces built around real message
// bodies taken from those traces (and test/fixtures/msgs), with the interface records a matcher asks for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import type { JettonMintData, JettonTransferData } from '../../src/actions/block-data.ts';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { Block } from '../../src/actions/core.ts';
import { blockToAction } from '../../src/actions/serializer.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;
const doc = (f: string) => parseJsonExact(readFileSync(join(DIR, f), 'utf8')) as { transactions: Array<{ messages: Array<{ direction: string; opcode: string | null; message_content: { body: string } }> }> };
const load = (f: string): Trace => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, f), 'utf8')));
/** The body of the first received message with this opcode in a fixture trace. */
function bodyOf(file: string, opcode: number): Cell {
  for (const t of doc(file).transactions) {
    for (const m of t.messages) if (m.direction === 'in' && m.opcode !== null && Number(m.opcode) >>> 0 === opcode) return Cell.fromBase64(m.message_content.body);
  }
  throw new Error(`no 0x${opcode.toString(16)} in ${file}`);
}
const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });

const STONFI = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json'; // user's jetton transfer, router's pTON payout
const BURN = 'GO-NI0EjOuhj1z4YzHK-VDAAOJsLm710DvyRRRMXhoY=.json'; // tsTON burn
const MINT_FAILED = 'MyrAUqqz_XH2D5bUdRd-YYCVo7JEEzjWX00gGXRFLLY=.json'; // mint#642b7d07
const MINT_15 = 'SVotcOQBV7MZ-CdW7WsaOucRods9-SF0vnl646rxsBc=.json'; // minter's mint#00000015

const TRANSFER = bodyOf(STONFI, 0x0f8a7ea5);
const INTERNAL = bodyOf(STONFI, 0x178d4519);
const NOTIFY = bodyOf(STONFI, 0x7362d09c);
const EXCESS = bodyOf(STONFI, 0xd53276db);

const USER = addr(0, 'a1'), SENDER_WALLET = addr(0, 'b2'), RECEIVER_WALLET = addr(0, 'c3'), RECEIVER = addr(0, 'd4'), MASTER = addr(0, 'e5');

/** user -> sender wallet (transfer) -> receiver wallet (internal_transfer) -> receiver (notify) + user (excess) */
function transferTrace(opts: { internal?: Partial<TxSpec> | null; interfaces?: Record<string, AccountInterfaces> } = {}): Trace {
  const internal: TxSpec | null = opts.internal === null ? null : {
    account: RECEIVER_WALLET, from: SENDER_WALLET, body: INTERNAL,
    out: [{ account: RECEIVER, from: RECEIVER_WALLET, body: NOTIFY }, { account: USER, from: RECEIVER_WALLET, body: EXCESS }],
    ...opts.internal,
  };
  return buildTrace(
    { account: USER, from: null, out: [{ account: SENDER_WALLET, from: USER, body: TRANSFER, out: internal ? [internal] : [], aborted: internal === null }] },
    { interfaces: opts.interfaces ?? { [RECEIVER_WALLET]: jw(RECEIVER, MASTER), [SENDER_WALLET]: jw(USER, MASTER) } },
  );
}
const typesOf = (t: Trace) => classifyTrace(t).actions.map((a) => a.type).sort();

describe('jetton_transfer', () => {
  it('a real transfer: owner, wallets, amount from the internal transfer, payload and query id', () => {
    const trace = load(STONFI);
    const res = classifyTrace(trace);
    // the transfer is part of the trace's swap (swaps.py): its block is among the swap's children
    const all = (bs: Block[]): Block[] => bs.flatMap((b) => [b, ...all(b.childrenBlocks)]);
    const block = all(res.blocks).find((b) => b.btype === 'jetton_transfer' && (b.data as JettonTransferData).sender_wallet !== null)!;
    const a = blockToAction(block, trace);
    expect(a).toMatchObject({
      source: '0:49E60973E9A8F252D986DDB49895A0D7419A077891E4CA6B66D4664ED06AB8DC',
      source_secondary: '0:4CF1FAB0CE04D8F2DE3F01E35F81BBC93829F753C2C6A66C6C2A2FCA75A7AC1F',
      destination: '0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E',
      asset: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
      amount: 1000000000n,
      success: true,
    });
    expect(a.tx_hashes).toHaveLength(5); // wallet, sender wallet, receiver wallet, notified router, excess back to the user
    // upstream compares the wallet's owner (upper-case) with the destination rendered lower-case: the transfer
    // call is flagged broken; being merged, it does not reach the trace's state
    expect(block.childrenBlocks.find((c) => c.broken)).toBeDefined();
    expect(res.state).toBe('ok');
  });

  it('needs the internal transfer, and a receiving wallet the repository knows', () => {
    expect(typesOf(transferTrace())).toEqual(['jetton_transfer']);
    // the sending wallet refused: the transfer call alone is no jetton transfer
    expect(typesOf(transferTrace({ internal: null }))).toEqual(['call_contract']);
    // unknown receiving wallet: nothing is built (upstream returns [])
    expect(typesOf(transferTrace({ interfaces: {} }))).toEqual(['call_contract', 'call_contract', 'call_contract', 'call_contract']);
  });

  it('fails with the internal transfer; names the receiving wallet\'s owner as the receiver', () => {
    const failed = classifyTrace(transferTrace({ internal: { aborted: true, out: [] } })).actions;
    expect(failed.map((a) => [a.type, a.success])).toEqual([['jetton_transfer', false]]);
    const other = addr(0, 'f6');
    const a = classifyTrace(transferTrace({ interfaces: { [RECEIVER_WALLET]: jw(other, MASTER) } })).actions[0];
    expect(a).toMatchObject({ type: 'jetton_transfer', destination: other, destination_secondary: RECEIVER_WALLET, source: USER, source_secondary: SENDER_WALLET, asset: MASTER });
    const d = toApiAction(a).details;
    expect(d).toMatchObject({ receiver: other, amount: '1000000000', forward_amount: expect.any(String), query_id: expect.any(String) });
  });
});

describe('pTON transfer', () => {
  const PTON = '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C';
  const pton = (jetton: string) => buildTrace(
    { account: USER, from: null, out: [{ account: SENDER_WALLET, from: USER, body: TRANSFER, out: [{ account: RECEIVER, from: SENDER_WALLET, body: NOTIFY }] }] },
    { interfaces: { [SENDER_WALLET]: jw(USER, jetton) } },
  );

  it('a transfer to a pTON wallet that notifies directly is a jetton transfer without wallets', () => {
    const a = classifyTrace(pton(PTON)).actions;
    expect(a.map((x) => [x.type, x.source, x.source_secondary, x.destination_secondary, x.asset])).toEqual([['jetton_transfer', USER, null, null, PTON]]);
    expect(a[0].tx_hashes).toHaveLength(3);
  });

  it('only for the pTON masters (STON.fi\'s two and TONCO\'s wTTON)', () => {
    expect(typesOf(pton(MASTER))).toEqual(['call_contract', 'call_contract']);
    const WTTON = '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E';
    expect(classifyTrace(pton(WTTON)).actions.map((x) => [x.type, x.asset])).toEqual([['jetton_transfer', WTTON]]);
  });
});

describe('jetton_burn', () => {
  it('a real burn: owner, wallet, master, amount', () => {
    // the real trace's burn (tsTON) went on to Tonstakers' pool: staking.py's withdrawal request takes it; its burn
    // and notification bodies alone, to a wallet the repository knows, are a plain burn
    const trace = buildTrace(
      { account: USER, from: null, out: [{ account: SENDER_WALLET, from: USER, body: bodyOf(BURN, 0x595f07bc), out: [{ account: MASTER, from: SENDER_WALLET, body: bodyOf(BURN, 0x7bdd97de) }] }] },
      { interfaces: { [SENDER_WALLET]: jw(USER, MASTER) } },
    );
    const a = classifyTrace(trace).actions.find((x) => x.type === 'jetton_burn')!;
    expect(toApiAction(a).details).toEqual({ owner: USER, owner_jetton_wallet: SENDER_WALLET, asset: MASTER, amount: '67599' });
    expect(classifyTrace(load(BURN)).actions.map((x) => x.type)).not.toContain('jetton_burn');
  });

  it('needs a known burning wallet; the notification is optional; fails with the burn call', () => {
    const burn = bodyOf(BURN, 0x595f07bc);
    const notification = bodyOf(BURN, 0x7bdd97de);
    const trace = (opts: { notify: boolean; aborted?: boolean; known?: boolean }) => buildTrace(
      { account: USER, from: null, out: [{ account: SENDER_WALLET, from: USER, body: burn, aborted: opts.aborted, out: opts.notify ? [{ account: MASTER, from: SENDER_WALLET, body: notification }] : [] }] },
      { interfaces: opts.known === false ? {} : { [SENDER_WALLET]: jw(USER, MASTER) } },
    );
    expect(classifyTrace(trace({ notify: true })).actions.map((a) => [a.type, a.tx_hashes.length])).toEqual([['jetton_burn', 3]]);
    expect(classifyTrace(trace({ notify: false, aborted: true })).actions.map((a) => [a.type, a.success])).toEqual([['jetton_burn', false]]);
    expect(typesOf(trace({ notify: false, known: false }))).toEqual(['call_contract']);
  });
});

describe('jetton_mint', () => {
  it('real mints: the 0x15 minter message and a failed 0x642b7d07 whose wallet aborted', () => {
    const ok = classifyTrace(load(MINT_15)).actions.find((a) => a.type === 'jetton_mint')!;
    expect(toApiAction(ok).details).toMatchObject({ amount: '1000000000', receiver: '0:A35884719E3B78E40800FC85E15E74DFCD6C41B0D386BCCD020B7F063AE4BAA1' });
    expect(ok.success).toBe(true);
    const failed = classifyTrace(load(MINT_FAILED));
    const m = failed.actions.find((a) => a.type === 'jetton_mint')!;
    expect(m).toMatchObject({ success: false, value: 100000000n, amount: 1000000000000000n });
    // the wallet's bounce back to the minter is part of the mint
    expect(failed.blocks.find((b) => b.btype === 'jetton_mint')!.childrenBlocks.map((b) => b.btype)).toEqual(['call_contract', 'call_contract', 'call_contract']);
  });

  it('without its internal transfer: failed, receiver from the mint message, amount only from a 0x15 one', () => {
    const mint = bodyOf(MINT_FAILED, 0x642b7d07);
    const mint15 = bodyOf(MINT_15, 0x15);
    const alone = (body: Cell) => classifyTrace(buildTrace({ account: USER, from: null, out: [{ account: MASTER, from: USER, body, aborted: true }] })).actions;
    const a = alone(mint)[0];
    expect(a).toMatchObject({ type: 'jetton_mint', success: false, asset: MASTER, destination_secondary: null, amount: null, value: 100000000n });
    expect(a.destination).toBe('0:3D6497F533E6771EFA6B09D9672F4A6E1708893FAC76CFB2525E1A8F31D1CE2A');
    const b = alone(mint15)[0];
    expect(b).toMatchObject({ type: 'jetton_mint', success: false, asset: MASTER, amount: 1000000000n });
  });

  it('an internal transfer to a wallet the repository does not know fails the build: no mint', () => {
    const mint = bodyOf(MINT_FAILED, 0x642b7d07);
    const t = buildTrace({ account: USER, from: null, out: [{ account: MASTER, from: USER, body: mint, out: [{ account: RECEIVER_WALLET, from: MASTER, body: INTERNAL }] }] });
    expect(typesOf(t)).toEqual(['call_contract', 'call_contract']);
    const known = classifyTrace({ ...t, interfaces: { [RECEIVER_WALLET]: jw(RECEIVER, MASTER) } });
    const m = known.blocks.find((b) => b.btype === 'jetton_mint')!;
    expect(m.data as JettonMintData).toMatchObject({ to: RECEIVER, to_jetton_wallet: RECEIVER_WALLET, amount: 1000000000n });
  });
});

describe('failed external: the intended jetton transfer (FallbackJettonTransferBlockMatcher)', () => {
  // a real v3/v4 wallet external asking its jetton wallet 0:C6214B… for a transfer
  const m = loadMessage(Cell.fromBoc(readFileSync(new URL('../fixtures/msgs/mainnet-ext-in-wallet-subwallet698983191-v3v4-in-msg-lt58969751000001-818cdd96.boc', import.meta.url)))[0].beginParse());
  const d = m.info.dest as { workChain: number; hash: Buffer };
  const wallet = `${d.workChain}:${d.hash.toString('hex').toUpperCase()}`;
  const jettonWallet = '0:C6214B2261552CD3DF6926D763E74691241BEEC4295E4D52EA4F32670D11141D';
  const trace = (interfaces: Record<string, AccountInterfaces>) => buildTrace({ account: wallet, from: null, body: m.body }, { interfaces });

  it('a failed jetton transfer naming the wallet and its jetton wallet, not the receiver', () => {
    const [a] = classifyTrace(trace({ [jettonWallet]: jw(wallet, MASTER) })).actions;
    expect(a).toMatchObject({ type: 'jetton_transfer', success: false, source: wallet, source_secondary: jettonWallet, asset: MASTER, destination_secondary: null });
    expect(a.destination).not.toBeNull();
    expect(a.accounts.sort()).toEqual([jettonWallet, wallet].sort());
    expect(a.tx_hashes).toEqual([classifyTrace(trace({})).actions[0].tx_hashes[0]]);
  });

  it('with the jetton wallet unknown the asset is null', () => {
    const [a] = classifyTrace(trace({})).actions;
    expect(a).toMatchObject({ type: 'jetton_transfer', success: false, asset: null });
  });
});
