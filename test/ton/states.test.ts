/**
 * The states a block's transactions name (src/ton/block/states.ts), on every real fixture block, checked against
 * sources the derivation does not use: the real account states before block 71398501 (liteserver ShardAccounts,
 * read by @ton/core), the block's old ShardState where it carries an account (read by @ton/core, and run forward
 * through every transaction's currency flow to the block's own end state), and the hash proofs themselves (the rules
 * alone never contradict a state proved by its hash).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, loadAccount, loadShardAccount, loadTransaction, type Account } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_NONE_HASH, decodeBlock, parseBoc, serializeBoc, type DecodedBlock, type TransactionRow, type TransactionStateRow } from '../../src/ton/index.ts';
import { readShardAccounts } from '../../src/ton/tlb/account.ts';
import { FIXTURES, fullBlocks, read } from './fixtures.ts';

const blocks = fullBlocks()
  .filter((b) => (b.tx_count ?? 0) > 0)
  .map((b) => ({ file: b.file, boc: read(b.file) }))
  .flatMap((b) => {
    try {
      return [{ ...b, block: decodeBlock(b.boc) }];
    } catch {
      return []; // pruned fixture BoCs (MANIFEST: partial blocks)
    }
  });

function txsByAccount(b: DecodedBlock): Map<string, TransactionRow[]> {
  const m = new Map<string, TransactionRow[]>();
  for (const t of b.transactions) m.set(t.account, [...(m.get(t.account) ?? []), t]);
  for (const l of m.values()) l.sort((x, y) => (x.lt < y.lt ? -1 : 1));
  return m;
}

/** An account as @ton/core reads it: status, balance, code / data hashes (level 0: the block prunes unchanged parts). */
function coreAccount(a: Account | null) {
  if (!a) return { status: 'nonexist', balance: 0n, code: null, data: null };
  const st = a.storage.state;
  return {
    status: st.type === 'active' ? 'active' : st.type === 'frozen' ? 'frozen' : 'uninit',
    balance: a.storage.balance.coins,
    code: st.type === 'active' && st.state.code ? st.state.code.hash(0).toString('hex') : null,
    data: st.type === 'active' && st.state.data ? st.state.data.hash(0).toString('hex') : null,
  };
}

/**
 * A transaction's currency flow as @ton/core reads the transaction cell (not our decoder): imported value (+ IHR fee
 * before global version 12) minus exported value + forwarding fees (+ IHR fees) minus total fees.
 */
function coreFlow(txCell: Cell, globalVersion: number): bigint {
  const tx = loadTransaction(txCell.beginParse());
  const ihr = globalVersion < 12;
  let f = -tx.totalFees.coins;
  const inInfo = tx.inMessage?.info;
  if (inInfo?.type === 'internal') f += inInfo.value.coins + (ihr ? inInfo.ihrFee : 0n);
  for (const m of tx.outMessages.values()) {
    if (m.info.type === 'internal') f -= m.info.value.coins + m.info.forwardFee + (ihr ? m.info.ihrFee : 0n);
  }
  return f;
}

describe('states between transactions on the fixture blocks', () => {
  it('cover every account: one state before, one after each transaction but the last, chained by the transactions\' own hashes', () => {
    let multi = 0;
    for (const { file, block } of blocks) {
      const by = txsByAccount(block);
      expect(block.states_before.map((s) => s.account).sort(), file).toEqual([...by.keys()].sort());
      const mids = new Map(block.intermediate_states.map((s) => [`${s.account}|${s.hash}`, s]));
      let expectMids = 0;
      for (const [account, txs] of by) {
        const before = block.states_before.find((s) => s.account === account)!;
        expect(before.hash).toBe(txs[0].account_state_hash_before);
        expect(before.account_status).toBe(txs[0].orig_status);
        expect([before.last_trans_hash, before.last_trans_lt]).toEqual([txs[0].prev_trans_hash, txs[0].prev_trans_lt]);
        for (let i = 0; i < txs.length - 1; i++) {
          const m = mids.get(`${account}|${txs[i].account_state_hash_after}`);
          expect(m, `${file} ${account} #${i}`).toBeDefined();
          expect(m!.account_status).toBe(txs[i].end_status);
          expect([m!.last_trans_hash, m!.last_trans_lt]).toEqual([txs[i].hash, txs[i].lt]);
          expectMids++;
        }
        if (txs.length > 1) multi++;
      }
      expect(block.intermediate_states.length, file).toBe(expectMids);
    }
    expect(multi).toBeGreaterThan(60);
  });

  it('nonexistent and uninit states are complete and say so: balance of a nonexistent one 0, its hash the account_none cell', () => {
    let n = 0;
    for (const { block } of blocks) {
      for (const s of [...block.states_before, ...block.intermediate_states]) {
        if (s.account_status === 'nonexist') {
          n++;
          expect([s.hash, s.balance, s.complete, s.code_hash, s.data_hash, s.frozen_hash]).toEqual([ACCOUNT_NONE_HASH, 0n, true, null, null, null]);
        }
        if (s.account_status === 'uninit') expect([s.complete, s.code_hash, s.data_hash, s.frozen_hash]).toEqual([true, null, null, null]);
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('where the old ShardState carries an account, @ton/core reads the derived state there, and its currency flows lead to the end state', () => {
    let carried = 0;
    let unreadable = 0;
    for (const { file, boc, block } of blocks) {
      const cells = parseBoc(boc);
      const upd = cells.refs[cells.roots[0] * 4 + 2];
      const old = readShardAccounts(cells, cells.refs[upd * 4]);
      const by = txsByAccount(block);
      // transaction cells by hash, handed to @ton/core as their own BoCs
      const wanted = new Set(block.transactions.map((t) => t.hash));
      const txCells = new Map<string, Cell>();
      for (let i = 0; i < cells.count; i++) {
        const h = cells.hashHex(i);
        if (wanted.has(h)) txCells.set(h, Cell.fromBoc(serializeBoc(cells, i))[0]);
      }
      for (const [account, txs] of by) {
        const leaf = old.get(account.split(':')[1]);
        if (!leaf || cells.type[leaf.account] === 1) continue;
        const acc = Cell.fromBoc(serializeBoc(cells, leaf.account))[0];
        let parsed: Account;
        try {
          const cs = acc.beginParse(true);
          cs.loadBit(); // account$1
          parsed = loadAccount(cs);
        } catch {
          unreadable++; // @ton/core rejects some early masterchain accounts' addresses
          continue;
        }
        carried++;
        const real = coreAccount(parsed);
        const d = block.states_before.find((s) => s.account === account)!;
        expect([d.hash, d.proof, d.complete], `${file} ${account}`).toEqual([acc.hash(0).toString('hex'), 'block', true]);
        expect([d.account_status, d.balance, d.code_hash, d.data_hash]).toEqual([real.status, real.balance, real.code, real.data]);
        // the validator's currency flow, from the real state before to the block's end state
        let bal = real.balance;
        for (const t of txs) bal += coreFlow(txCells.get(t.hash)!, block.info.gen_software?.version ?? 0);
        const end = block.account_states.find((s) => s.account === account)!;
        expect(bal, `${file} ${account}`).toBe(end.balance);
      }
    }
    expect(carried).toBeGreaterThan(100);
    expect(unreadable).toBeLessThan(carried / 4);
  });

  it('the states before block 71398501 equal the real ones (liteserver ShardAccounts read by @ton/core), wherever derived', () => {
    const { block } = blocks.find((b) => b.file.endsWith('71398501.boc'))!;
    const by = txsByAccount(block);
    const files = readdirSync(join(FIXTURES, 'accounts')).filter((f) => f.startsWith('mainnet-shardaccount-before-block-wc0-71398501-'));
    expect(files.length).toBeGreaterThan(20);
    let several = 0;
    let byRules = 0;
    for (const f of files) {
      const cell = Cell.fromBoc(read(join('accounts', f)))[0];
      const sa = loadShardAccount(cell.beginParse());
      const hashOfAccount = sa.account ? cell.refs[0].hash().toString('hex') : ACCOUNT_NONE_HASH;
      const real = coreAccount(sa.account ?? null);
      const d = block.states_before.find((s) => s.hash === hashOfAccount)!;
      expect(d, f).toBeDefined();
      expect([d.account_status, d.balance], f).toEqual([real.status, real.balance]);
      if (d.code_hash !== null) expect(d.code_hash, f).toBe(real.code);
      if (d.data_hash !== null) expect(d.data_hash, f).toBe(real.data);
      if (d.complete) expect([d.code_hash, d.data_hash], f).toEqual([real.code, real.data]);
      if (by.get(d.account)!.length > 1) several++;
      if (d.proof === 'rules' && d.complete) byRules++;
    }
    expect(several).toBeGreaterThan(5);
    expect(byRules).toBeGreaterThan(3);
  });

  it('states proved by their hash agree with what the rules alone derive; some states are proved, some only partly known', () => {
    let proved = 0;
    let compared = 0;
    let partial = 0;
    for (const { file, boc, block } of blocks) {
      if (block.intermediate_states.length === 0) continue;
      const rulesOnly = decodeBlock(boc, undefined, { rebuildStates: false });
      const byKey = new Map<string, TransactionStateRow>(rulesOnly.intermediate_states.map((s) => [`${s.account}|${s.hash}`, s]));
      for (const s of block.intermediate_states) {
        const r = byKey.get(`${s.account}|${s.hash}`)!;
        expect([r.balance, r.account_status], file).toEqual([s.balance, s.account_status]);
        if (s.proof === 'rebuilt') proved++;
        if (!s.complete) partial++;
        for (const k of ['code_hash', 'data_hash', 'frozen_hash'] as const) {
          if (r[k] === null || s.proof !== 'rebuilt') continue;
          compared++;
          expect(r[k], `${file} ${s.account} ${k}`).toBe(s[k]);
        }
      }
    }
    expect(proved).toBeGreaterThan(900);
    expect(compared).toBeGreaterThan(50);
    expect(partial).toBeGreaterThan(10);
  });
});
