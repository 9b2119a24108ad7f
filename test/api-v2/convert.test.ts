/**
 * Pure parts of API v2 on real mainnet data: wallet detection checked against the wallets' own
 * get-methods in the TVM emulator, transaction/message JSON from fixture transactions, block info
 * readers against the manifest, TEP-467 normalized hashes, sendBoc error explanations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, loadMessage, loadShardAccount, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { runGetMethod } from '../../src/tvm/index.ts';
import { detectWallet } from '../../src/api/v2/wallets.ts';
import { parseTxCell, transactionJson } from '../../src/api/v2/convert.ts';
import { readBlockInfo, prevShards } from '../../src/api/v2/tlb.ts';
import { explainSendError, normalizedHash } from '../../src/api/v2/index.ts';
import { FIX } from './helpers.ts';

const boc = (p: string) => Cell.fromBoc(readFileSync(join(FIX, p)))[0];
const config = boc('config/mainnet-config-dict-sandbox-default.boc');
const intOf = (s: TupleItem[]) => (s[0]?.type === 'int' ? s[0].value : null);

describe('wallet detection agrees with the wallets\' get-methods', () => {
  const files = readdirSync(join(FIX, 'accounts')).filter((f) => /-(wallet-v3r1|wallet-v3r2|wallet-v4r2|wallet-v5r1|highload-wallet-v3)-/.test(f));
  it('covers v3r1, v3r2, v4r2, v5r1 and highload v3 states', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
  });
  for (const f of files) {
    it(f, async () => {
      const sa = loadShardAccount(boc(`accounts/${f}`).beginParse());
      const st = sa.account!.storage.state;
      if (st.type !== 'active') throw new Error('fixture account is not active');
      const code = st.state.code!;
      const data = st.state.data!;
      const w = detectWallet(code, data)!;
      expect(w).not.toBeNull();
      const run = (method: string) =>
        runGetMethod({ code, data, address: sa.account!.addr, balance: sa.account!.storage.balance.coins, config, now: 1757000000, method, stack: [] });
      if (w.family !== 'highload-v3') {
        const seqno = await run('seqno');
        expect(seqno.exitCode).toBe(0);
        expect(BigInt(w.seqno!)).toBe(intOf(seqno.stack));
      }
      const sub = await run('get_subwallet_id');
      if (sub.exitCode === 0) expect(BigInt(w.wallet_id!)).toBe(BigInt.asUintN(32, intOf(sub.stack)!));
      else expect(w.family).toBe('v3'); // wallet v3 has no get_subwallet_id
      if (w.family === 'v5') {
        const allowed = await run('is_signature_allowed');
        expect(w.is_signature_allowed).toBe(intOf(allowed.stack) !== 0n);
      }
      expect(w.wallet_type).toMatch(/^(wallet v3 r1|wallet v3 r2|wallet v4 r2|wallet v5 r1|highload v3)$/);
    });
  }
  it('v1/v2 wallets (no mainnet state in the fixtures): fixture code with a data cell, seqno agrees with the TVM', async () => {
    for (const [file, type] of [['wallet-v2r2', 'wallet v2 r2'], ['wallet-v1r3', 'wallet v1 r3']] as const) {
      const code = boc(`codes/${file}.boc`);
      const data = beginCell().storeUint(7, 32).storeBuffer(Buffer.alloc(32, 1)).endCell();
      const w = detectWallet(code, data)!;
      expect(w).toMatchObject({ wallet_type: type, seqno: 7 });
      const r = await runGetMethod({ code, data, address: Address.parseRaw('0:' + '01'.repeat(32)), balance: 1n, config, now: 1757000000, method: 'seqno', stack: [] });
      expect(r.exitCode).toBe(0);
      expect(intOf(r.stack)).toBe(7n);
    }
  });

  it('unknown code: not a wallet', () => {
    const code = boc('codes/jetton-wallet-standard.token-contract.boc');
    expect(detectWallet(code, beginCell().endCell())).toBeNull();
    expect(detectWallet(null, null)).toBeNull();
  });
});

describe('transaction JSON from real transactions', () => {
  it('a text comment: msg.dataText (base64 of the text) and the decoded `message` in the legacy form', () => {
    const cell = boc('txs/mainnet-text-comment-wc0-71398501-lt76734069000033-7692c307.boc');
    const p = parseTxCell(cell, 0);
    const legacy = transactionJson(p, { testnet: false }, 'legacy');
    expect(legacy.transaction_id).toEqual({ '@type': 'internal.transactionId', lt: '76734069000033', hash: Buffer.from('6550621b43f9ccd109fca5da6195af3de52f18608f9068a5cf2735b819b800d0', 'hex').toString('base64') });
    expect(legacy.account).toBe('0:7692C30703A73B97A88C0BE7C8489947DEF8A258905912A9970F138B140AF036');
    const inMsg = legacy.in_msg as Record<string, unknown>;
    const body = loadMessage(cell.refs[0].beginParse().loadRef().beginParse()).body.beginParse();
    body.loadUint(32);
    const text = body.loadStringTail();
    expect(text.length).toBeGreaterThan(0);
    expect(inMsg.message).toBe(text);
    expect(inMsg.msg_data).toEqual({ '@type': 'msg.dataText', text: Buffer.from(text, 'utf8').toString('base64') });
    const raw = transactionJson(p, { testnet: false }, 'raw');
    expect(raw['@type']).toBe('raw.transaction');
    expect((raw.in_msg as { source: unknown }).source).toMatchObject({ '@type': 'accountAddress' });
    expect(raw).not.toHaveProperty('account');
  });

  it('every fixture transaction: fee = storage_fee + other_fee, message hashes are the cells\' hashes', () => {
    const files = readdirSync(join(FIX, 'txs')).filter((f) => f.endsWith('.boc'));
    for (const f of files) {
      const cell = boc(`txs/${f}`);
      const wc = f.includes('-mc-') ? -1 : 0;
      const j = transactionJson(parseTxCell(cell, wc), { testnet: false }, 'ext');
      expect(BigInt(j.fee as string)).toBe(BigInt(j.storage_fee as string) + BigInt(j.other_fee as string));
      expect(Cell.fromBase64(j.data as string).hash().equals(cell.hash())).toBe(true);
      const ms = cell.refs[0].beginParse();
      const inCell = ms.loadMaybeRef();
      if (inCell) expect((j.in_msg as { hash: string }).hash).toBe(inCell.hash().toString('base64'));
      const outs = j.out_msgs as { hash: string; created_lt: string }[];
      expect(outs.length).toBe(parseTxCell(cell, wc).tx.outMessagesCount);
    }
  });
});

describe('block info reader', () => {
  interface Row {
    file: string;
    kind: string;
    seqno: number;
    gen_utime: number;
    start_lt: string;
    end_lt: string;
    size: number;
    prev?: { seq_no: number; root_hash: string }[];
  }
  // Blocks under 64 KB keep the suite fast; they include masterchain, basechain, mainnet, testnet and local nets.
  const rows = (JSON.parse(readFileSync(join(FIX, 'manifest.json'), 'utf8')) as Row[]).filter((r) => r.kind === 'full block' && r.size < 65_536);
  it('seqno, gen_utime, lt range and prev refs match the manifest for every full block', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      const info = readBlockInfo(boc(r.file));
      expect(info.seqno, r.file).toBe(r.seqno);
      expect(info.gen_utime, r.file).toBe(r.gen_utime);
      expect(info.start_lt.toString(), r.file).toBe(r.start_lt);
      expect(info.end_lt.toString(), r.file).toBe(r.end_lt);
      if (r.prev) expect(info.prev_ref.map((p) => [p.seqno, p.root_hash]), r.file).toEqual(r.prev.map((p) => [p.seq_no, p.root_hash]));
      expect(prevShards(info)).toHaveLength(info.after_merge ? 2 : 1);
    }
  });
});

describe('TEP-467 normalized hash', () => {
  it('ignores src, import_fee, init and body placement; depends on destination and body', () => {
    const dest = Address.parseRaw('0:' + '12'.repeat(32));
    const body = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const plain = loadMessage(beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(dest).storeCoins(0).storeBit(0).storeBit(0).storeSlice(body.beginParse()).endCell().beginParse());
    const fee = loadMessage(beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(dest).storeCoins(123).storeBit(0).storeBit(1).storeRef(body).endCell().beginParse());
    expect(normalizedHash(plain).equals(normalizedHash(fee))).toBe(true);
    const other = loadMessage(beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(Address.parseRaw('0:' + '13'.repeat(32))).storeCoins(0).storeBit(0).storeBit(1).storeRef(body).endCell().beginParse());
    expect(normalizedHash(other).equals(normalizedHash(plain))).toBe(false);
    // a message already in normal form hashes to itself
    const normal = beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(dest).storeCoins(0).storeBit(0).storeBit(1).storeRef(body).endCell();
    expect(normalizedHash(loadMessage(normal.beginParse())).equals(normal.hash())).toBe(true);
  });
});

describe('sendBoc error explanations', () => {
  it('explains wallet exit codes and keeps unknown ones', () => {
    const text = 'cannot apply external message to current state : External message was not accepted\nCannot run message on account: inbound external message rejected by transaction 83DF: exitcode=33, steps=20, gas_used=0';
    expect(explainSendError(text)).toEqual({ exitCode: 33, hint: expect.stringMatching(/^seqno mismatch/) });
    expect(explainSendError('... exitcode=136, steps=...').hint).toMatch(/expired \(wallet v5\)/);
    expect(explainSendError('... exitcode=999 ...')).toEqual({ exitCode: 999, hint: 'the contract rejected the message with exit code 999' });
    expect(explainSendError('Failed to unpack account state').hint).toMatch(/not initialized/);
  });
});
