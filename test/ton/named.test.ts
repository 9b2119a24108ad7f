/** One named case each, on real blocks and transactions from test/fixtures/. */
import { Address, beginCell, Cell, Dictionary, loadMessage, loadShardAccount, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBlock, decodeMessage, decodeTransaction, DecodeError, type DecodedBlock, type MessageRow } from '../../src/ton/index.ts';
import { fullBlocks, listDir, manifest, read } from './fixtures.ts';
import { compareWithTonCore } from './compare.ts';

const cache = new Map<string, DecodedBlock>();
function block(rel: string): DecodedBlock {
  let d = cache.get(rel);
  if (!d) {
    d = decodeBlock(read(rel));
    cache.set(rel, d);
  }
  return d;
}

describe('merge block (two prev refs)', () => {
  it('mainnet wc0 0d83800000000000 4168601 has after_merge and prev_blks_info with both parents', () => {
    const d = block('blocks/mainnet/mainnet-wc0-0d83800000000000-4168601.boc');
    expect(d.info.after_merge).toBe(true);
    expect(d.info.not_master).toBe(true);
    expect(d.id).toMatchObject({ workchain: 0, shard: '0D83800000000000', seqno: 4168601 });
    expect(d.info.prev_ref).toHaveLength(2);
    // prev1 = left child, prev2 = right child of the merged shard
    expect(d.info.prev_ref.map((p) => [p.shard, p.seqno])).toEqual([
      ['0D83400000000000', 4168600],
      ['0D83C00000000000', 4168599],
    ]);
    for (const p of d.info.prev_ref) {
      expect(p.workchain).toBe(0);
      expect(p.root_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(p.root_hash).not.toBe(p.file_hash);
    }
    expect(d.info.master_ref?.seqno).toBe(3085312);
    expect(d.transactions).toHaveLength(0);
  });

  it('every other block has exactly one prev ref', () => {
    for (const row of fullBlocks()) {
      const d = block(row.file);
      expect(d.info.prev_ref.length, row.file).toBe(d.info.after_merge ? 2 : 1);
    }
  });
});

describe('masterchain shard descriptors', () => {
  const mcRows = manifest.filter((r) => r.file.startsWith('blocks/') && (r.kind ?? '').startsWith('full block') && r.workchain === -1) as (typeof manifest[number] & {
    shard_hashes?: { wc: number; shard: string; seq_no: number; reg_mc_seqno: number; start_lt: string; end_lt: string; root_hash: string; file_hash: string; tag: number }[];
  })[];
  it.each(mcRows.map((r) => [r.file, r] as const))('%s: shards equal the MANIFEST shard_hashes', (_f, row) => {
    const d = block(row.file);
    expect(d.shards).not.toBeNull();
    const exp = row.shard_hashes ?? [];
    expect(d.shards!.length).toBe(exp.length);
    d.shards!.forEach((s, i) => {
      const e = exp[i];
      expect(s.workchain).toBe(e.wc);
      expect(s.shard).toBe(e.shard.toUpperCase());
      expect(s.seqno).toBe(e.seq_no);
      expect(s.reg_mc_seqno).toBe(e.reg_mc_seqno);
      expect(s.start_lt).toBe(BigInt(e.start_lt));
      expect(s.end_lt).toBe(BigInt(e.end_lt));
      expect(s.root_hash).toBe(e.root_hash);
      expect(s.file_hash).toBe(e.file_hash);
      expect(s.descr_tag).toBe(e.tag === 10 ? 'a' : 'b');
    });
  });

  it('shard blocks have no shards/config', () => {
    const d = block('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc');
    expect(d.shards).toBeNull();
    expect(d.config).toBeNull();
  });
});

describe('key block config params', () => {
  it('mainnet mc 46991999: 35 params equal the published config of that block', () => {
    const d = block('blocks/mainnet/mainnet-mc-46991999.boc');
    expect(d.info.key_block).toBe(true);
    const c = d.config!;
    expect(c.params).toHaveLength(35);
    expect(c.config_addr).toBe('-1:' + '5'.repeat(64));
    expect(c.config_address).toBe('-1:' + '5'.repeat(64));
    expect(c.elector_address).toBe('-1:' + '3'.repeat(64));
    expect(c.minter_address).toBe('-1:' + '0'.repeat(64));
    expect(c.cur_validators).toMatchObject({ utime_since: 1745112840, utime_until: 1745178376, total: 400, main: 100 });
    // independent: ConfigParams fixture (tonlib_new) read with @ton/core
    const ref = Cell.fromBoc(read('config/mainnet-configparams-mc46991999-tonlib_new.boc'))[0];
    const dict = ref.refs[0].beginParse().loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
    expect(dict.size).toBe(35);
    for (const p of c.params) {
      expect(dict.get(p.id)!.hash().toString('hex'), `param ${p.id}`).toBe(p.hash);
      expect(Cell.fromBase64(p.boc).hash().toString('hex')).toBe(p.hash);
    }
  });

  it('localnet ton4j mc 189235 (KEY_BLOCK) carries its config', () => {
    const d = block('blocks/localnet/localnet-ton4j-mc-189235.boc');
    expect(d.info.key_block).toBe(true);
    expect(d.config!.params.length).toBeGreaterThan(20);
    expect(d.config!.params.map((p) => p.id)).toContain(34);
    expect(d.config!.cur_validators!.total).toBeGreaterThanOrEqual(1);
    const ids = d.config!.params.map((p) => p.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('non-key masterchain blocks have no config', () => {
    expect(block('blocks/mainnet/mainnet-mc-58508098.boc').config).toBeNull();
  });
});

describe('transactions', () => {
  it('tick-tock transactions of masterchain blocks', () => {
    const d = block('blocks/mainnet/mainnet-mc-46991999.boc');
    const tt = d.transactions.filter((t) => t.description.type === 'tick_tock');
    expect(tt.length).toBe(2);
    for (const t of tt) {
      expect(t.in_msg).toBeNull();
      expect(t.description.storage_ph).toBeDefined();
      expect(t.description.compute_ph?.skipped).toBe(false);
      expect(typeof t.description.is_tock).toBe('boolean');
    }
    // the standalone tx BoC cut from this block decodes to the same row
    const boc = read('txs/mainnet-tick-tock-mc-46991999-lt56255102000001-33333333.boc');
    const single = decodeTransaction(boc, -1);
    const inBlock = d.transactions.find((t) => t.hash === single.hash)!;
    expect(single).toEqual({ ...inBlock, block_ref: null });
    expect(single.account).toBe('-1:' + '3'.repeat(64));
    expect(single.description.is_tock).toBe(false);
    expect(d.transactions.some((t) => t.description.is_tock === true)).toBe(true);
  });

  it('bounced message: mainnet wc0 40484416 lt 43049060000005', () => {
    const t = decodeTransaction(read('txs/mainnet-bounced-in-wc0-40484416-lt43049060000005-fd7e5735.boc'));
    compareWithTonCore(t, Cell.fromBoc(read('txs/mainnet-bounced-in-wc0-40484416-lt43049060000005-fd7e5735.boc'))[0]);
    expect(t.lt).toBe(43049060000005n);
    expect(t.in_msg!.bounced).toBe(true);
    expect(t.in_msg!.bounce).toBe(false);
    expect(t.in_msg!.opcode).toBe(-1); // 0xffffffff prefix of bounced bodies
    const inBlock = block('blocks/mainnet/mainnet-wc0-8000000000000000-40484416.boc').transactions.find((x) => x.hash === t.hash);
    expect(inBlock?.in_msg).toEqual(t.in_msg);
  });

  it('aborted transaction with bounce phase: mainnet mc 1 lt 1000001 (no gas, bounce nofunds)', () => {
    const d = block('blocks/mainnet/mainnet-mc-1.boc');
    const t = d.transactions.find((x) => x.hash === 'e7472d76f471ef8090e3f256e738ab6a0ce82b36218310938cfb6bb630fad535')!;
    expect(t.description.type).toBe('ord');
    expect(t.description.aborted).toBe(true);
    expect(t.description.compute_ph).toEqual({ skipped: true, reason: 'no_gas' });
    expect(t.description.bounce?.type).toBe('nofunds');
    expect(t.description.bounce?.req_fwd_fees).toBeTypeOf('bigint');
    expect(t.description.destroyed).toBe(false);
  });

  it.each(listDir('txs').filter((f) => f.includes('compute-skipped')))('skipped compute: %s', (f) => {
    const boc = read(f);
    const t = decodeTransaction(boc);
    expect(t.description.compute_ph?.skipped).toBe(true);
    expect(['no_state', 'bad_state', 'no_gas', 'suspended']).toContain(t.description.compute_ph?.reason);
    expect(t.description.compute_ph?.gas_used).toBeUndefined();
    compareWithTonCore(t, Cell.fromBoc(boc)[0]);
  });

  it.each(listDir('txs'))('standalone tx BoC agrees with @ton/core: %s', (f) => {
    const boc = read(f);
    const wc = f.includes('-mc-') ? -1 : 0;
    const t = decodeTransaction(boc, wc);
    expect(t.account.startsWith(`${wc}:`)).toBe(true);
    compareWithTonCore(t, Cell.fromBoc(boc)[0]);
  });
});

describe('messages', () => {
  it('external-out messages (logs): mainnet wc0 54302203 lt 58969746000001', () => {
    const boc = read('txs/mainnet-ext-out-log-wc0-54302203-lt58969746000001-9b774106.boc');
    const t = decodeTransaction(boc);
    const ext = t.out_msgs.filter((m) => m.message_type === 'ext_out');
    expect(ext.length).toBeGreaterThan(0);
    const ref = loadTransaction(Cell.fromBoc(boc)[0].beginParse());
    for (const m of ext) {
      expect(m.source).toBe(t.account);
      expect(m.destination).toBeNull();
      expect(m.value).toBeNull();
      expect(m.fwd_fee).toBeNull();
      expect(m.created_lt! > t.lt).toBe(true);
      const r = [...ref.outMessages.values()].find((x) => x.body.hash().toString('hex') === m.body_hash)!;
      expect(r.info.type).toBe('external-out');
      if (r.info.type === 'external-out') {
        expect(m.destination_external).toBe(r.info.dest ? `${r.info.dest.bits}:${r.info.dest.value.toString(16).toUpperCase().padStart(Math.ceil(r.info.dest.bits / 8) * 2, '0')}` : null);
      }
    }
    // block decode sees the same messages
    const inBlock = block('blocks/mainnet/mainnet-wc0-a000000000000000-54302203.boc').transactions.find((x) => x.hash === t.hash)!;
    expect(inBlock.out_msgs).toEqual(t.out_msgs);
  });

  it('extra currencies: mainnet mc 1 (message value, credit phase, account balance)', () => {
    const d = block('blocks/mainnet/mainnet-mc-1.boc');
    const withExtra = d.transactions.flatMap((t) => [t.in_msg, ...t.out_msgs]).filter((m): m is MessageRow => !!m && m.value_extra_currencies !== null);
    expect(withExtra.length).toBeGreaterThan(0);
    for (const m of withExtra) {
      for (const [k, v] of Object.entries(m.value_extra_currencies!)) {
        expect(Number(k)).toBeGreaterThanOrEqual(0);
        expect(v).toBeTypeOf('bigint');
        expect(v > 0n).toBe(true);
      }
    }
    const credit = d.transactions.find((t) => t.description.credit_ph?.credit_extra_currencies);
    expect(credit).toBeDefined();
    expect(credit!.description.credit_ph!.credit_extra_currencies).toEqual(credit!.in_msg!.value_extra_currencies);
    const acc = d.account_states.find((a) => a.balance_extra_currencies !== null);
    expect(acc).toBeDefined();
    // independent: @ton/core reads the same currency dict from the message cell
    const m = withExtra[0];
    const core = loadMessage(Cell.fromBase64(msgBocByHash(d, m.msg_hash)).beginParse());
    if (core.info.type !== 'internal') throw new Error('expected internal');
    const other = core.info.value.other!;
    expect(Object.fromEntries(other.keys().map((k) => [String(k), other.get(k)!]))).toEqual(m.value_extra_currencies);
  });

  it('hash_norm of every external-in message equals the TEP-467 rebuild done with @ton/core', () => {
    let n = 0;
    let differs = 0;
    for (const row of fullBlocks()) {
      const d = block(row.file);
      for (const t of d.transactions) {
        const m = t.in_msg;
        if (!m || m.message_type !== 'ext_in') continue;
        const body = Cell.fromBase64(m.body_boc);
        const norm = beginCell()
          .storeUint(0b10, 2)
          .storeUint(0b00, 2)
          .storeAddress(Address.parse(m.destination!))
          .storeCoins(0)
          .storeBit(0)
          .storeBit(1)
          .storeRef(body)
          .endCell();
        expect(m.hash_norm).toBe(norm.hash().toString('hex'));
        if (m.hash_norm !== m.msg_hash) differs++;
        n++;
      }
    }
    expect(n).toBeGreaterThan(50);
    expect(differs).toBeGreaterThan(0);
  });

  it.each(listDir('msgs'))('standalone message BoC agrees with @ton/core: %s', (f) => {
    const boc = read(f);
    const m = decodeMessage(boc);
    const c = Cell.fromBoc(boc)[0];
    const r = loadMessage(c.beginParse());
    expect(m.msg_hash).toBe(c.hash().toString('hex'));
    expect(m.body_hash).toBe(r.body.hash().toString('hex'));
    const bs = r.body.beginParse(true);
    expect(m.opcode).toBe(bs.remainingBits >= 32 ? bs.loadInt(32) : null);
    if (r.info.type === 'internal') {
      expect(m.value).toBe(r.info.value.coins);
      expect(m.source).toBe(`${r.info.src.workChain}:${r.info.src.hash.toString('hex').toUpperCase()}`);
    }
  });
});

describe('account states', () => {
  it('code_hash read from the pruned state_update equals the code of the pre-block ShardAccount (block 71398501)', () => {
    const d = block('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc');
    let n = 0;
    let pruned = 0;
    for (const f of listDir('accounts').filter((x) => x.includes('before-block-wc0-71398501'))) {
      const sa = loadShardAccount(Cell.fromBoc(read(f))[0].beginParse());
      const a = sa.account;
      if (!a || a.storage.state.type !== 'active') continue;
      const raw = `${a.addr.workChain}:${a.addr.hash.toString('hex').toUpperCase()}`;
      const st = d.account_states.find((x) => x.account === raw);
      expect(st, raw).toBeDefined();
      expect(st!.account_status).toBe('active');
      expect(st!.code_hash).toBe(a.storage.state.state.code!.hash().toString('hex'));
      if (st!.code_boc === null) pruned++;
      n++;
    }
    expect(n).toBeGreaterThan(15);
    expect(pruned).toBeGreaterThan(0);
  });

  it('a deleted/absent account is reported nonexist with the account_none hash', () => {
    const d = block('blocks/mainnet/mainnet-mc-1.boc');
    const ne = d.account_states.filter((a) => a.account_status === 'nonexist');
    expect(ne.length).toBe(1);
    const last = d.transactions.filter((t) => t.account === ne[0].account).at(-1)!;
    expect(ne[0].hash).toBe(last.account_state_hash_after);
    expect(ne[0].balance).toBe(0n);
  });
});

describe('bad input', () => {
  it('throws DecodeError with a clear message', () => {
    expect(() => decodeBlock(Buffer.from('hello world'))).toThrow(DecodeError);
    expect(() => decodeBlock(Buffer.from('hello world'))).toThrow(/not a BoC/);
    expect(() => decodeBlock(Buffer.alloc(0))).toThrow(/not a BoC/);
    expect(() => decodeBlock(read('txs/mainnet-ext-out-log-wc0-54302203-lt58969746000001-9b774106.boc'))).toThrow(/not a block: root cell tag/);
    expect(() => decodeBlock(read('blocks/proofs/mainnet-mc-34288980.proof.boc'))).toThrow(DecodeError);
    expect(() => decodeBlock(read('blocks/mainnet/mainnet-mc-31440712.boc'))).toThrow(/pruned/);
    const full = read('blocks/mainnet/mainnet-mc-1.boc');
    expect(() => decodeBlock(full.subarray(0, full.length - 100))).toThrow(/truncated BoC/);
    expect(() => decodeTransaction(full)).toThrow(/Transaction: bad tag/);
  });
});

function msgBocByHash(d: DecodedBlock, hash: string): string {
  // the message cell itself, rebuilt from the tx BoC via @ton/core (independent of our serializer)
  for (const t of d.transactions) {
    const all = [t.in_msg, ...t.out_msgs];
    if (all.some((m) => m?.msg_hash === hash)) {
      const boc = read('blocks/mainnet/mainnet-mc-1.boc');
      const root = Cell.fromBoc(boc)[0];
      const found = findCell(root, hash);
      if (found) return found.toBoc().toString('base64');
    }
  }
  throw new Error('message not found');
}

function findCell(c: Cell, hash: string, seen = new Set<Cell>()): Cell | null {
  if (seen.has(c)) return null;
  seen.add(c);
  if (c.hash().toString('hex') === hash) return c;
  for (const r of c.refs) {
    const f = findCell(r, hash, seen);
    if (f) return f;
  }
  return null;
}
