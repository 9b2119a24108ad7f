import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignMcSeqnos } from '../../pipelines/index.ts';
import { blockToRows, shardToBigint } from '../../src/decode/index.ts';
import { encodeCompact, encodeJsonLines } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { FIXTURES } from '../store/helpers.ts';

const block = (rel: string) => decodeBlock(readFileSync(join(FIXTURES, 'blocks', rel)));

describe('blockToRows (pure mapping, no database)', () => {
  const b = block('mainnet/mainnet-wc0-8000000000000000-71398501.boc');
  const rows = blockToRows(b, { mcSeqno: 51_000_000 });

  it('one row per transaction, per message direction, per touched account', () => {
    expect(rows.transactions).toHaveLength(269);
    expect(rows.transactions_by_hash).toHaveLength(269);
    expect(rows.transactions_by_lt).toHaveLength(269);
    const msgs = b.transactions.reduce((n, t) => n + (t.in_msg ? 1 : 0) + t.out_msgs.length, 0);
    expect(rows.messages).toHaveLength(msgs);
    // end states and the states between an account's transactions; a state before the first is the previous block's
    // end state, which that block writes (the documents carry it)
    const between = b.intermediate_states.length;
    expect(between).toBeGreaterThan(20);
    expect(rows.account_states).toHaveLength(b.account_states.length + between);
    expect(new Set(rows.account_states.map((s) => `${s.account}|${s.hash}`)).size).toBe(rows.account_states.length);
    expect(rows.blocks).toHaveLength(1);
    expect(rows.ingested_blocks).toHaveLength(1);
    expect(rows.shard_state).toHaveLength(0); // shard blocks carry no shard descriptors
  });

  it('keeps lt / coins as bigint, ids as stored (upper-case raw address, lower-case hex)', () => {
    const t = rows.transactions.find((r) => r.hash === '0de37bebc9908e2042c64aa16ac911bf7affbd05545dd150b5fdaecfc2442e12')!;
    expect(t).toMatchObject({
      account: '0:158136239ADB15DD59DF90C641F9EFD312CFEB8664F218F4C3E5FCE9D95E6C07',
      lt: 76734069000029n,
      mc_block_seqno: 51_000_000,
      block_seqno: 71398501,
      block_shard: 0x8000000000000000n,
      descr: 'ord',
    });
    expect(typeof t.total_fees).toBe('bigint');
    expect(rows.blocks[0]).toMatchObject({ seqno: 71398501, shard: 0x8000000000000000n, mc_block_seqno: 51_000_000, tx_count: 269 });
  });

  it('tables: the traced three (transactions, messages, transaction_docs_kv) and the rest split the same rows between them', () => {
    const traced = blockToRows(b, { mcSeqno: 51_000_000, tables: 'traced' });
    const untraced = blockToRows(b, { mcSeqno: 51_000_000, tables: 'untraced' });
    for (const [table, all] of Object.entries(rows)) {
      const isTraced = table === 'transactions' || table === 'messages' || table === 'transaction_docs_kv';
      expect(traced[table as keyof typeof rows], table).toEqual(isTraced ? all : []);
      expect(untraced[table as keyof typeof rows], table).toEqual(isTraced ? [] : all);
    }
    expect(traced.messages.length).toBeGreaterThan(269);
  });

  it('masterchain blocks commit themselves, whatever mcSeqno says', () => {
    const mc = block('mainnet/mainnet-mc-17734191.boc');
    const r = blockToRows(mc, { mcSeqno: 5 });
    expect(r.blocks[0].mc_block_seqno).toBe(17734191);
    expect(r.transactions.every((t) => t.mc_block_seqno === 17734191)).toBe(true);
    // the shard state: the mc block itself + one row per shard descriptor
    expect(r.shard_state).toHaveLength(1 + mc.shards!.length);
  });

  it('an external-in message gets a second hash row for its normalized hash', () => {
    const ext = rows.messages.filter((m) => m.message_type === 'ext_in' && m.msg_hash_norm !== null);
    expect(ext.length).toBeGreaterThan(0);
    expect(rows.message_hashes).toHaveLength(rows.messages.length + ext.length);
    expect(rows.message_hashes.filter((h) => h.is_norm === 1).map((h) => h.hash).sort()).toEqual(ext.map((m) => m.msg_hash_norm).sort());
  });

  it('encoders write 64-bit and wider integers as exact decimal strings', () => {
    const big = [{ a: 2n ** 120n - 1n, b: null, c: 'x"y', d: { 7: 2n ** 64n }, e: true, f: [{ s: 1n }] }];
    expect(encodeCompact(big).body).toBe('["1329227995784915872903807060280344575",null,"x\\"y",{"7":"18446744073709551616"},true,[{"s":"1"}]]\n');
    expect(encodeJsonLines(big)).toBe('{"a":"1329227995784915872903807060280344575","b":null,"c":"x\\"y","d":{"7":"18446744073709551616"},"e":true,"f":[{"s":"1"}]}\n');
    const line = encodeCompact(rows.transactions.slice(0, 1)).body;
    expect(line).toContain(`"${rows.transactions[0].lt}"`);
  });

  it('rejects a malformed shard id', () => {
    expect(shardToBigint('8000000000000000')).toBe(0x8000000000000000n);
    expect(() => shardToBigint('zz')).toThrow('invalid shard "zz"');
  });
});

describe('assignMcSeqnos (commit walk inside an import set)', () => {
  const files = ['localnet-acton-mc-1.boc', 'localnet-acton-mc-2.boc', 'localnet-acton-wc0-8000000000000000-1.boc', 'localnet-acton-wc0-8000000000000000-2.boc'];
  const set = files.map((f) => block('localnet/' + f));

  it('each shard block gets the first masterchain block that reaches it', () => {
    const mc = assignMcSeqnos(set);
    expect(set.map((b) => `${b.id.workchain}:${b.id.seqno}->${mc.get(b.id.root_hash)}`)).toEqual(['-1:1->1', '-1:2->2', '0:1->1', '0:2->2']);
  });

  it('without its masterchain block a shard block stays unknown (0)', () => {
    const mc = assignMcSeqnos([set[0], set[3]]);
    expect(mc.get(set[3].id.root_hash)).toBe(0);
    // mc 2 alone reaches wc0:2 and, through its prev link, wc0:1
    const only2 = assignMcSeqnos([set[1], set[2], set[3]]);
    expect(only2.get(set[2].id.root_hash)).toBe(2);
    expect(only2.get(set[3].id.root_hash)).toBe(2);
  });
});
