/**
 * Every full fixture block decodes; ids match the MANIFEST; transactions match tx-index.json and tongo's
 * expected files; every transaction agrees field by field with @ton/core (the independent reference);
 * account states read from state_update agree with the transactions' HASH_UPDATE.
 */
import { Cell, loadTransaction } from '@ton/core';
import { compareWithTonCore } from './compare.ts';
import { describe, expect, it } from 'vitest';
import { decodeBlock, type DecodedBlock, type TransactionRow } from '../../src/ton/index.ts';
import { fullBlocks, read, type ManifestRow } from './fixtures.ts';

const blocks = fullBlocks();
const decoded = new Map<string, DecodedBlock>();
function dec(row: ManifestRow): DecodedBlock {
  let d = decoded.get(row.file);
  if (!d) {
    d = decodeBlock(read(row.file));
    decoded.set(row.file, d);
  }
  return d;
}

interface TxIndexRow {
  block: string;
  hash: string;
  lt: string;
  account: string;
  orig: string;
  end: string;
  aborted: boolean;
  now: number;
}
const IDX_STATUS: Record<string, string> = { uninitialized: 'uninit', 'non-existing': 'nonexist' };
const txIndex: TxIndexRow[] = JSON.parse(read('blocks/tx-index.json').toString('utf8'));

describe('full blocks: ids and header', () => {
  it('finds the full blocks of every network', () => {
    const nets = new Set(blocks.map((b) => b.network));
    expect([...nets].sort()).toEqual(['localnet', 'mainnet', 'testnet']);
    expect(blocks.length).toBeGreaterThanOrEqual(45);
  });

  it.each(blocks.map((b) => [b.file, b] as const))('%s: id, root_hash and info match the MANIFEST', (_f, row) => {
    const d = dec(row);
    expect(d.id.root_hash).toBe(row.root_hash);
    expect(d.id.workchain).toBe(row.workchain);
    expect(d.id.shard).toBe(row.shard!.toUpperCase());
    expect(d.id.seqno).toBe(row.seqno);
    expect(d.global_id).toBe(row.global_id);
    expect(d.info.gen_utime).toBe(row.gen_utime);
    expect(d.info.start_lt).toBe(BigInt(row.start_lt!));
    expect(d.info.end_lt).toBe(BigInt(row.end_lt!));
    expect(d.info.key_block).toBe(row.key_block);
    expect(d.info.after_merge).toBe(row.after_merge);
    expect(d.transactions.length).toBe(row.tx_count);
    expect(d.id.file_hash).toMatch(/^[0-9a-f]{64}$/);
    // lt order, then account
    for (let i = 1; i < d.transactions.length; i++) {
      const a = d.transactions[i - 1];
      const b = d.transactions[i];
      expect(a.lt < b.lt || (a.lt === b.lt && a.account < b.account)).toBe(true);
    }
    for (const t of d.transactions) {
      // (acton's emulated localnet gives lt past end_lt, so only the lower bound holds everywhere)
      expect(t.lt >= d.info.start_lt).toBe(true);
      expect(t.block_ref).toEqual({ workchain: d.id.workchain, shard: d.id.shard, seqno: d.id.seqno });
    }
  });

  it('file_hash is the sha256 of the bytes (canonical where the MANIFEST says so)', () => {
    const d = dec(blocks.find((b) => b.file.endsWith('localnet-ton4j-wc0-8000000000000000-212538.boc'))!);
    expect(d.id.file_hash).toBe('dab8870cce0cd3c17b91b1484005605f6a4b54bb8c6fe18a5800b6c723941fc1');
    const a = dec(blocks.find((b) => b.file.endsWith('localnet-acton-mc-1.boc'))!);
    expect(a.id.file_hash).toBe('163e5cb17f1e3adc1f8c10dd2f161962a72d22e19d37fdcea7faddc6347ad5a4');
  });

  it('linked localnet blocks: prev_ref of 212539 is 212538 (root and file hash)', () => {
    const b1 = dec(blocks.find((b) => b.file.endsWith('-212538.boc'))!);
    const b2 = dec(blocks.find((b) => b.file.endsWith('-212539.boc'))!);
    expect(b2.info.prev_ref).toHaveLength(1);
    expect(b2.info.prev_ref[0]).toEqual({
      workchain: 0,
      shard: '8000000000000000',
      seqno: 212538,
      end_lt: b1.info.end_lt,
      root_hash: b1.id.root_hash,
      file_hash: b1.id.file_hash,
    });
    expect(b2.info.master_ref?.seqno).toBe(216637);
    expect(b2.info.master_ref?.workchain).toBe(-1);
  });
});

describe('transactions vs tx-index.json and tongo', () => {
  const byBlock = new Map<string, TxIndexRow[]>();
  for (const t of txIndex) {
    const l = byBlock.get(t.block) ?? [];
    l.push(t);
    byBlock.set(t.block, l);
  }
  const withIndex = blocks.filter((b) => byBlock.has(b.file) || b.network !== 'localnet');

  it.each(withIndex.map((b) => [b.file, b] as const))('%s: same transactions as tx-index.json', (_f, row) => {
    const d = dec(row);
    const expected = byBlock.get(row.file) ?? [];
    expect(d.transactions.length).toBe(expected.length);
    const mine = new Map(d.transactions.map((t) => [t.hash, t]));
    for (const e of expected) {
      const t = mine.get(e.hash);
      expect(t, e.hash).toBeDefined();
      expect(t!.lt).toBe(BigInt(e.lt));
      expect(t!.account).toBe(e.account.split(':')[0] + ':' + e.account.split(':')[1].toUpperCase());
      expect(t!.now).toBe(e.now);
      expect(t!.orig_status).toBe(IDX_STATUS[e.orig] ?? e.orig);
      expect(t!.end_status).toBe(IDX_STATUS[e.end] ?? e.end);
      expect(t!.description.aborted ?? false).toBe(e.aborted);
    }
  });

  const tongo: [string, string][] = [
    ['bundles/tongo-block-2.expected.json', 'blocks/mainnet/mainnet-wc0-8000000000000000-40484416.boc'],
    ['bundles/tongo-block-3.expected.json', 'blocks/mainnet/mainnet-wc0-8000000000000000-40484438.boc'],
    ['bundles/tongo-block-4.expected.json', 'blocks/mainnet/mainnet-wc0-0d83800000000000-4168601.boc'],
    ['bundles/tongo-block-5.expected.json', 'blocks/mainnet/mainnet-mc-17734191.boc'],
  ];
  it.each(tongo)('%s: tx hashes and per-account fields equal tongo', (bundle, file) => {
    const exp = JSON.parse(read(bundle).toString('utf8')) as {
      TxHashes: string[] | null;
      Accounts: Record<string, { Transactions: Record<string, { Lt: number; PrevTransHash: string; PrevTransLt: number; Now: number; OutMsgCnt: number; OrigStatus: string; EndStatus: string }> }>;
    };
    const d = dec(blocks.find((b) => b.file === file)!);
    expect(d.transactions.map((t) => t.hash).sort()).toEqual([...(exp.TxHashes ?? [])].sort());
    let n = 0;
    for (const [addr, acc] of Object.entries(exp.Accounts)) {
      for (const [lt, e] of Object.entries(acc.Transactions)) {
        const t = d.transactions.find((x) => x.lt === BigInt(lt) && x.account.endsWith(':' + addr.toUpperCase()));
        expect(t, `${addr} ${lt}`).toBeDefined();
        expect(t!.prev_trans_hash).toBe(e.PrevTransHash);
        expect(t!.prev_trans_lt).toBe(BigInt(e.PrevTransLt));
        expect(t!.now).toBe(e.Now);
        expect(t!.outmsg_cnt).toBe(e.OutMsgCnt);
        expect(t!.orig_status).toBe(e.OrigStatus);
        expect(t!.end_status).toBe(e.EndStatus);
        n++;
      }
    }
    expect(n).toBe(d.transactions.length);
  });
});

/** All Transaction cells of a block as @ton/core cells, keyed by hash. */
function tonCoreTxCells(boc: Buffer): Map<string, Cell> {
  const out = new Map<string, Cell>();
  const seen = new Set<Cell>();
  const root = Cell.fromBoc(boc)[0];
  // Block -> extra (ref 3) -> account_blocks (ref 2); Transaction cells start with 0111 and have >= 3 refs
  const ab = root.refs[3].refs[2];
  const visit = (c: Cell) => {
    if (seen.has(c) || c.isExotic) return;
    seen.add(c);
    if (c.bits.length > 4 + 256 + 64 && c.refs.length >= 3 && c.beginParse().preloadUint(4) === 0b0111) {
      try {
        loadTransaction(c.beginParse());
        out.set(c.hash().toString('hex'), c);
        return;
      } catch {
        // not a transaction
      }
    }
    for (const r of c.refs) visit(r);
  };
  visit(ab);
  return out;
}

describe('every transaction agrees with @ton/core loadTransaction', () => {
  it.each(blocks.filter((b) => (b.tx_count ?? 0) > 0).map((b) => [b.file, b] as const))('%s', (_f, row) => {
    const d = dec(row);
    const ref = tonCoreTxCells(read(row.file));
    expect(ref.size).toBe(d.transactions.length);
    for (const t of d.transactions) {
      const c = ref.get(t.hash);
      expect(c, t.hash).toBeDefined();
      compareWithTonCore(t, c!);
    }
  });
});

describe('account states from state_update', () => {
  it.each(blocks.filter((b) => (b.tx_count ?? 0) > 0).map((b) => [b.file, b] as const))(
    '%s: account cell hash = new_hash of the account\'s last transaction',
    (_f, row) => {
      const d = dec(row);
      const last = new Map<string, TransactionRow>();
      for (const t of d.transactions) last.set(t.account, t);
      expect(d.account_states.map((a) => a.account).sort()).toEqual([...last.keys()].sort());
      for (const a of d.account_states) {
        const t = last.get(a.account)!;
        expect(a.hash).toBe(t.account_state_hash_after);
        expect(a.last_trans_hash).toBe(t.hash);
        expect(a.last_trans_lt).toBe(t.lt);
        expect(a.account_status).toBe(t.end_status);
        expect(a.timestamp).toBe(d.info.gen_utime);
        if (a.account_status === 'active') {
          expect(a.code_hash).toMatch(/^[0-9a-f]{64}$/);
          if (a.code_boc) expect(Cell.fromBase64(a.code_boc).hash().toString('hex')).toBe(a.code_hash);
          if (a.data_boc) expect(Cell.fromBase64(a.data_boc).hash().toString('hex')).toBe(a.data_hash);
        } else {
          expect(a.code_hash).toBeNull();
        }
      }
    },
  );
});
