/**
 * The devnet chain generator end to end: a small chain generated twice into temp dirs (same seed), then every
 * block decoded with the project's decoder (src/ton) and checked against chain.json, the emulator's own
 * transactions and account states, the chain links (prev / master refs, split and merge) and the scenarios.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cell, Dictionary, loadShardAccount, type Slice } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { decodeBlock, type DecodedBlock, type TransactionRow } from '../../src/ton/index.ts';
import { createDevnet, generateDevnet, walletExternal, comment, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { devnetGenerateCommand } from '../../src/cli/commands/devnet-generate.ts';
import { CliError } from '../../src/cli/command.ts';

interface ChainJson {
  global_id: number;
  zero_state: { root_hash: string; file_hash: string };
  shard_zero_state: { workchain: number; shard: string; root_hash: string; file_hash: string };
  blocks: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }[];
  transactions: { hash: string; lt: string; account: string; workchain: number; shard: string; seqno: number }[];
  in_flight: { hash: string; destination: string; created_lt: string; external: boolean }[];
}

const OPTS = { seed: 7, blocks: 16, bulkWallets: 2, bulkFanout: 2 } as const;
const dirs: string[] = [];
let res: GenerateResult;
let dir: string;
let chain: ChainJson;
let decoded: DecodedBlock[];

const key = (b: { workchain: number; shard: string; seqno: number }) => `${b.workchain}:${b.shard.toLowerCase()}:${b.seqno}`;
const fileOf = (d: string, b: { workchain: number; shard: string; seqno: number }) => join(d, 'blocks', `${b.workchain}_${b.shard}_${b.seqno}.boc`);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const u32 = (op: number | null) => (op === null ? null : op >>> 0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'devnet-gen-a-'));
  dirs.push(dir);
  res = await generateDevnet(dir, OPTS);
  chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as ChainJson;
  decoded = chain.blocks.map((b) => decodeBlock(readFileSync(fileOf(dir, b))));
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('devnet generate: files', () => {
  it('is deterministic: same seed, byte-identical chain.json, blocks, states and key', async () => {
    const other = mkdtempSync(join(tmpdir(), 'devnet-gen-b-'));
    dirs.push(other);
    await generateDevnet(other, OPTS);
    expect(readFileSync(join(other, 'chain.json'), 'utf8')).toBe(readFileSync(join(dir, 'chain.json'), 'utf8'));
    expect(readFileSync(join(other, 'liteserver.key'), 'utf8')).toBe(readFileSync(join(dir, 'liteserver.key'), 'utf8'));
    for (const sub of ['blocks', 'states']) {
      const names = readdirSync(join(dir, sub)).sort();
      expect(readdirSync(join(other, sub)).sort()).toEqual(names);
      for (const n of names) expect(readFileSync(join(other, sub, n)).equals(readFileSync(join(dir, sub, n)))).toBe(true);
    }
  });

  it('writes a chain with masterchain and basechain blocks, the split shards and transactions', () => {
    expect(chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    const shards = new Set(chain.blocks.filter((b) => b.workchain === 0).map((b) => b.shard));
    expect([...shards].sort()).toEqual(['4000000000000000', '8000000000000000', 'c000000000000000']);
    expect(chain.transactions.length).toBe(res.transactions);
    expect(chain.transactions.length).toBeGreaterThan(60);
    // Masterchain transactions too: a wallet in workchain -1 sends to the basechain and receives from it.
    const mcTxs = chain.transactions.filter((t) => t.workchain === -1);
    expect(mcTxs.length).toBeGreaterThanOrEqual(2);
    expect(mcTxs.every((t) => t.account.startsWith('-1:'))).toBe(true);
    // Chain order: each masterchain block comes right after the shard blocks it commits.
    expect(chain.blocks[chain.blocks.length - 1].workchain).toBe(-1);
  });

  it('every block decodes, with the root and file hashes chain.json lists', () => {
    for (const [i, b] of chain.blocks.entries()) {
      const d = decoded[i];
      const bytes = readFileSync(fileOf(dir, b));
      expect(sha256(bytes)).toBe(b.file_hash);
      expect(d.id.root_hash).toBe(b.root_hash);
      expect(d.id.file_hash).toBe(b.file_hash);
      expect(key(d.id)).toBe(key(b));
      expect(d.global_id).toBe(chain.global_id);
      // Our own writer's root hash agrees with @ton/core's reading of the same bytes.
      expect(Cell.fromBoc(bytes)[0].hash().toString('hex')).toBe(b.root_hash);
    }
  });

  it('liteserver.json and liteserver.key describe a key derived from the seed and the zero state', () => {
    const text = readFileSync(join(dir, 'liteserver.json'), 'utf8');
    const ls = JSON.parse(text) as { liteservers: { ip: number; port: number; id: { '@type': string; key: string } }[]; validator: { zero_state: { root_hash: string; file_hash: string; seqno: number; workchain: number } } };
    expect(ls.liteservers[0].ip).toBe(2130706433);
    expect(ls.liteservers[0].id['@type']).toBe('pub.ed25519');
    const seed = Buffer.from(readFileSync(join(dir, 'liteserver.key'), 'utf8').trim(), 'hex');
    expect(seed.length).toBe(32);
    expect(ls.liteservers[0].id.key).toBe(keyPairFromSeed(seed).publicKey.toString('base64'));
    expect(text).toContain('"shard": -9223372036854775808');
    expect(Buffer.from(ls.validator.zero_state.root_hash, 'base64').toString('hex')).toBe(chain.zero_state.root_hash);
    expect(Buffer.from(ls.validator.zero_state.file_hash, 'base64').toString('hex')).toBe(chain.zero_state.file_hash);
    // The zero state file is there and hashes to what chain.json says.
    const zs = readFileSync(join(dir, 'states', '-1_8000000000000000_0.boc'));
    expect(sha256(zs)).toBe(chain.zero_state.file_hash);
    expect(Cell.fromBoc(zs)[0].hash().toString('hex')).toBe(chain.zero_state.root_hash);
  });

  it('the local liteserver loader accepts the directory (it re-verifies every hash)', () => {
    const served = loadChainDir(dir);
    expect(served.lastMasterchain().id.seqno).toBe(16);
    expect(served.masterchainLength).toBe(16);
  });
});

describe('devnet generate: chain links', () => {
  it("each shard block's prev is the previous block of its shard (parent after the split, both children after the merge)", () => {
    const last = new Map<string, { seqno: number; root_hash: string; file_hash: string; end_lt: bigint }>();
    const z = chain.shard_zero_state;
    last.set('0:8000000000000000', { seqno: 0, root_hash: z.root_hash, file_hash: z.file_hash, end_lt: 0n });
    let mcPrev = { seqno: 0, root_hash: chain.zero_state.root_hash, file_hash: chain.zero_state.file_hash };
    let splits = 0;
    let merges = 0;
    for (const d of decoded) {
      const i = d.info;
      const shard = i.shard.toLowerCase();
      const prevOf = (s: string) => {
        const p = last.get(`${i.workchain}:${s}`);
        if (!p) throw new Error(`no previous block for ${s} before ${key(d.id)}`);
        return p;
      };
      if (i.workchain === -1) {
        expect(i.prev_ref).toHaveLength(1);
        expect({ seqno: i.prev_ref[0].seqno, root_hash: i.prev_ref[0].root_hash, file_hash: i.prev_ref[0].file_hash }).toEqual(mcPrev);
        expect(i.key_block).toBe(i.seqno === 1);
        expect(i.master_ref).toBeNull();
        mcPrev = { seqno: i.seqno, root_hash: d.id.root_hash, file_hash: d.id.file_hash };
        continue;
      }
      // master_ref: the newest masterchain block before this shard block.
      expect(i.master_ref?.seqno).toBe(mcPrev.seqno);
      expect(i.master_ref?.root_hash).toBe(mcPrev.root_hash);
      expect(i.master_ref?.file_hash).toBe(mcPrev.file_hash);
      let expected: string[];
      if (i.after_merge) {
        merges++;
        expect(shard).toBe('8000000000000000');
        expected = ['4000000000000000', 'c000000000000000'];
      } else if (i.after_split) {
        splits++;
        expected = ['8000000000000000'];
      } else {
        expected = [shard];
      }
      expect(i.prev_ref).toHaveLength(expected.length);
      for (const [k, p] of i.prev_ref.entries()) {
        const want = prevOf(expected[k]);
        expect({ seqno: p.seqno, root_hash: p.root_hash, file_hash: p.file_hash, end_lt: p.end_lt }).toEqual(want);
      }
      expect(i.seqno).toBe(Math.max(...i.prev_ref.map((p) => p.seqno)) + 1);
      last.set(`0:${shard}`, { seqno: i.seqno, root_hash: d.id.root_hash, file_hash: d.id.file_hash, end_lt: i.end_lt });
    }
    expect(splits).toBe(2); // both children point to the parent
    expect(merges).toBe(1);
    const beforeSplit = decoded.filter((d) => d.info.before_split);
    expect(beforeSplit).toHaveLength(1);
    expect(beforeSplit[0].info.shard).toBe('8000000000000000');
  });

  it("each masterchain block's shard descriptors name the current shard tops", () => {
    const tops = new Map<string, DecodedBlock>();
    for (const d of decoded) {
      if (d.info.workchain === 0) {
        const s = d.info.shard.toLowerCase();
        if (d.info.after_split) tops.delete('8000000000000000');
        if (d.info.after_merge) {
          tops.delete('4000000000000000');
          tops.delete('c000000000000000');
        }
        tops.set(s, d);
        continue;
      }
      const descrs = d.shards ?? [];
      expect(descrs.map((s) => s.shard.toLowerCase()).sort()).toEqual([...tops.keys()].sort());
      for (const s of descrs) {
        const top = tops.get(s.shard.toLowerCase())!;
        expect(s.workchain).toBe(0);
        expect(s.seqno).toBe(top.info.seqno);
        expect(s.root_hash).toBe(top.id.root_hash);
        expect(s.file_hash).toBe(top.id.file_hash);
        expect(s.start_lt).toBe(top.info.start_lt);
        expect(s.end_lt).toBe(top.info.end_lt);
        expect(s.before_split).toBe(top.info.before_split);
      }
      // The key block carries the config the emulator ran with.
      if (d.info.key_block) {
        expect(d.config).not.toBeNull();
        expect(d.config!.params.length).toBeGreaterThan(20);
      }
    }
  });
});

describe('devnet generate: transactions and states', () => {
  it('every emulator transaction is found in exactly one block, the block chain.json names', () => {
    const where = new Map<string, string[]>();
    decoded.forEach((d) => {
      for (const t of d.transactions) where.set(t.hash, [...(where.get(t.hash) ?? []), key(d.id)]);
    });
    const emulated = res.devnet.blocks.flatMap((b) => b.txs.map((t) => ({ hash: t.hash.toString('hex'), block: `${b.ref.workchain}:${b.ref.shard.toString(16).padStart(16, '0')}:${b.ref.seqno}`, lt: t.lt })));
    expect(emulated.length).toBe(chain.transactions.length);
    expect(where.size).toBe(emulated.length);
    const listed = new Map(chain.transactions.map((t) => [t.hash, t]));
    for (const t of emulated) {
      expect(where.get(t.hash)).toEqual([t.block]);
      const j = listed.get(t.hash)!;
      expect(key(j)).toBe(t.block);
      expect(j.lt).toBe(t.lt.toString());
    }
    // Every transaction cell the decoder saw is byte-identical to the emulator's (same hash, same lt).
    const byHash = new Map(res.devnet.blocks.flatMap((b) => b.txs).map((t) => [t.hash.toString('hex'), t]));
    for (const d of decoded) for (const t of d.transactions) expect(byHash.get(t.hash)?.lt).toBe(t.lt);
  });

  it("account states read from each block's state_update equal the emulator's", () => {
    let checked = 0;
    for (const [i, b] of res.devnet.blocks.entries()) {
      const d = decoded[i];
      expect(d.id.root_hash).toBe(b.ref.rootHash.toString('hex'));
      // The merkle update's new hash is the full state written to states/.
      expect(d.state_update.new_hash).toBe(b.state.hash().toString('hex'));
      const rows = new Map(d.account_states.map((a) => [a.account.toLowerCase(), a]));
      for (const a of b.accounts) {
        const row = rows.get(`${b.ref.workchain}:${a.id.toString(16).padStart(64, '0')}`);
        expect(row).toBeDefined();
        if (!a.shardAccount) {
          expect(row!.account_status).toBe('nonexist');
          continue;
        }
        const sa = a.shardAccount.beginParse();
        const accountCell = sa.loadRef();
        expect(row!.hash).toBe(accountCell.hash().toString('hex'));
        expect(row!.last_trans_hash).toBe(sa.loadBuffer(32).toString('hex'));
        expect(row!.last_trans_lt).toBe(sa.loadUintBig(64));
        expect(row!.balance).toBe(loadShardAccount(a.shardAccount.beginParse()).account!.storage.balance.coins);
        checked++;
      }
      expect(d.account_states.length).toBe(b.accounts.length);
    }
    expect(checked).toBeGreaterThan(50);
    // Consecutive states link: each block's old state hash is the previous block's new state (same shard, no split/merge).
    const stateOf = new Map<string, string>();
    stateOf.set('-1:8000000000000000', chain.zero_state.root_hash);
    stateOf.set('0:8000000000000000', chain.shard_zero_state.root_hash);
    for (const d of decoded) {
      const k = `${d.info.workchain}:${d.info.shard.toLowerCase()}`;
      if (!d.info.after_split && !d.info.after_merge) expect(d.state_update.old_hash).toBe(stateOf.get(k));
      stateOf.set(k, d.state_update.new_hash);
    }
  });
});

describe('devnet generate: scenarios', () => {
  const all = () => decoded.flatMap((d) => d.transactions.map((t) => ({ t, d })));
  const withOp = (op: number) => all().filter(({ t }) => u32(t.in_msg?.opcode ?? null) === op);

  it('has the jetton, NFT and comment messages', () => {
    expect(withOp(0x7362d09c).length).toBeGreaterThan(0); // transfer_notification
    expect(withOp(0xd53276db).length).toBeGreaterThan(0); // excesses
    expect(withOp(0x595f07bc).length).toBeGreaterThan(0); // burn
    expect(withOp(0x7bdd97de).length).toBeGreaterThan(0); // burn_notification
    expect(withOp(0x178d4519).length).toBeGreaterThan(0); // internal_transfer
    expect(withOp(0x5fcc3d14).length).toBeGreaterThan(0); // NFT transfer
    expect(withOp(0x05138d91).length).toBeGreaterThan(0); // ownership_assigned
    // Every jetton/NFT step succeeded (the real contracts accepted our messages).
    for (const op of [0x7362d09c, 0x595f07bc, 0x7bdd97de, 0x178d4519, 0x5fcc3d14]) {
      for (const { t } of withOp(op)) expect(t.description.aborted).toBe(false);
    }
    // The forward payload of the jetton transfer reached dave's wallet in transfer_notification.
    expect(withOp(0x7362d09c).some(({ t }) => Buffer.from(t.in_msg!.body_boc, 'base64').toString('latin1').includes('jetton payment'))).toBe(true);
    // Text comments (op 0).
    expect(withOp(0).length).toBeGreaterThan(5);
    // Messages cross between the masterchain and the basechain in both directions.
    const cross = all().filter(({ t, d }) => t.in_msg?.message_type === 'int' && t.in_msg.source!.startsWith('-1:') !== (d.info.workchain === -1));
    expect(new Set(cross.map(({ d }) => d.info.workchain))).toEqual(new Set([-1, 0]));
  });

  it('has deploys, a bounced message and an aborted transaction', () => {
    const deploys = all().filter(({ t }) => t.orig_status !== 'active' && t.end_status === 'active');
    // fresh wallet (external with StateInit), jetton minter, NFT collection, jetton wallets, NFT item
    expect(deploys.length).toBeGreaterThanOrEqual(5);
    expect(deploys.some(({ t }) => t.in_msg?.message_type === 'ext_in')).toBe(true);
    const bounced = all().filter(({ t }) => t.in_msg?.bounced === true);
    expect(bounced.length).toBeGreaterThan(0);
    const aborted = all().filter(({ t }) => t.description.aborted === true);
    expect(aborted.length).toBeGreaterThan(0);
    // The bounce is the answer to the aborted transaction's inbound message.
    const abortedOuts = new Set(aborted.flatMap(({ t }) => t.out_msgs.map((m) => m.msg_hash)));
    expect(bounced.some(({ t }) => abortedOuts.has(t.in_msg!.msg_hash))).toBe(true);
  });

  it('has a trace whose transactions land in three or more consecutive blocks', () => {
    const txs = all();
    const byIn = new Map<string, { t: TransactionRow; d: DecodedBlock }>();
    for (const x of txs) if (x.t.in_msg) byIn.set(x.t.in_msg.msg_hash, x);
    let longest = 0;
    for (const root of txs.filter(({ t }) => t.in_msg?.message_type === 'ext_in')) {
      const rounds = new Set<number>();
      const stack = [root];
      while (stack.length > 0) {
        const x = stack.pop()!;
        rounds.add(x.d.info.workchain === -1 ? x.d.info.seqno : x.d.info.master_ref!.seqno + 1);
        for (const m of x.t.out_msgs) {
          const next = byIn.get(m.msg_hash);
          if (next) stack.push(next);
        }
      }
      const sorted = [...rounds].sort((a, b) => a - b);
      let run = 1;
      for (let k = 1; k < sorted.length; k++) {
        run = sorted[k] === sorted[k - 1] + 1 ? run + 1 : 1;
        longest = Math.max(longest, run);
      }
    }
    expect(longest).toBeGreaterThanOrEqual(3);
  });

  it('has internal messages still in flight at the tip', () => {
    expect(chain.in_flight.length).toBeGreaterThan(0);
    const outs = new Set(decoded.flatMap((d) => d.transactions.flatMap((t) => t.out_msgs.map((m) => m.msg_hash))));
    const ins = new Set(decoded.flatMap((d) => d.transactions.map((t) => t.in_msg?.msg_hash)));
    const lastRoundBlocks = decoded.filter((d) => d.info.workchain === 0 && d.info.master_ref!.seqno === 15);
    const lastOuts = new Set(lastRoundBlocks.flatMap((d) => d.transactions.flatMap((t) => t.out_msgs.map((m) => m.msg_hash))));
    for (const m of chain.in_flight) {
      expect(m.external).toBe(false);
      expect(outs.has(m.hash)).toBe(true);
      expect(ins.has(m.hash)).toBe(false);
      expect(lastOuts.has(m.hash)).toBe(true);
    }
  });
});

/** Leaves of a HashmapAugE n X Y: [key, slice at the extra+value]; reads HmLabel as block.tlb defines it. */
function augLeaves(root: Cell, n: number): { key: bigint; leaf: Slice }[] {
  const s = root.beginParse();
  if (!s.loadBit()) return [];
  const out: { key: bigint; leaf: Slice }[] = [];
  const walk = (c: Cell, bits: number, prefix: bigint) => {
    const e = c.beginParse();
    let len = 0;
    let label: bigint;
    const lenBits = bits.toString(2).length;
    const first = e.loadBit();
    const second = first ? e.loadBit() : false;
    if (!first) {
      // hml_short$0 len:(Unary ~n) s:(n * Bit)
      while (e.loadBit()) len++;
      label = len ? e.loadUintBig(len) : 0n;
    } else if (!second) {
      // hml_long$10 n:(#<= m) s:(n * Bit)
      len = e.loadUint(lenBits);
      label = len ? e.loadUintBig(len) : 0n;
    } else {
      // hml_same$11 v:Bit n:(#<= m)
      const v = e.loadBit();
      len = e.loadUint(lenBits);
      label = v && len ? (1n << BigInt(len)) - 1n : 0n;
    }
    const key = (prefix << BigInt(len)) | label;
    const rest = bits - len;
    if (rest === 0) out.push({ key, leaf: e });
    else {
      walk(e.loadRef(), rest - 1, key << 1n);
      walk(e.loadRef(), rest - 1, (key << 1n) | 1n);
    }
  };
  walk(s.loadRef(), n, 0n);
  return out;
}

describe('devnet generate: message descriptors', () => {
  it('InMsgDescr and OutMsgDescr list every message of the block, keyed by message hash, with its transaction', () => {
    let ins = 0;
    let outs = 0;
    for (const b of res.devnet.blocks) {
      const root = Cell.fromBoc(b.boc)[0];
      const extra = root.refs[3];
      const txHashes = new Set(b.txs.map((t) => t.hash.toString('hex')));
      const wantIn = new Set<string>();
      const wantOut = new Set<string>();
      for (const t of b.txs) {
        const io = t.cell.refs[0].beginParse();
        const inMsg = io.loadMaybeRef();
        if (inMsg) wantIn.add(inMsg.hash().toString('hex'));
        const dict = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
        for (const m of dict.values()) wantOut.add(m.hash().toString('hex'));
      }
      const inLeaves = augLeaves(extra.refs[0], 256);
      expect(new Set(inLeaves.map((l) => l.key.toString(16).padStart(64, '0')))).toEqual(wantIn);
      for (const { key: k, leaf } of inLeaves) {
        // import_fees$_ fees_collected:Grams value_imported:CurrencyCollection, then InMsg
        leaf.loadCoins();
        leaf.loadCoins();
        leaf.loadMaybeRef();
        const tag = leaf.loadUint(3);
        expect([0b000, 0b100]).toContain(tag);
        const msg = tag === 0 ? leaf.loadRef() : leaf.loadRef().refs[0];
        expect(msg.hash().toString('hex')).toBe(k.toString(16).padStart(64, '0'));
        expect(txHashes.has(leaf.loadRef().hash().toString('hex'))).toBe(true);
        ins++;
      }
      const outLeaves = augLeaves(extra.refs[1], 256);
      expect(new Set(outLeaves.map((l) => l.key.toString(16).padStart(64, '0')))).toEqual(wantOut);
      for (const { leaf } of outLeaves) {
        leaf.loadCoins();
        leaf.loadMaybeRef();
        expect([0b000, 0b001]).toContain(leaf.loadUint(3));
        leaf.loadRef();
        expect(txHashes.has(leaf.loadRef().hash().toString('hex'))).toBe(true);
        outs++;
      }
    }
    expect(ins).toBe(res.transactions);
    expect(outs).toBeGreaterThan(res.transactions / 2);
  });
});

describe('devnet generate command', () => {
  it('rejects bad arguments with one clear line', async () => {
    await expect(devnetGenerateCommand.run([])).rejects.toThrow(/give the directory/);
    await expect(devnetGenerateCommand.run(['x', '--blocks', 'ten'])).rejects.toThrow(/--blocks must be an integer/);
    await expect(devnetGenerateCommand.run(['x', '--fanout', '9'])).rejects.toThrow(/--fanout must be an integer from 1 to 4/);
    await expect(devnetGenerateCommand.run(['x', '--states', 'some'])).rejects.toThrow(/--states must be all, last or none/);
    await expect(devnetGenerateCommand.run(['x', '--frobnicate'])).rejects.toThrow(CliError);
  });
});

describe('createDevnet (live)', () => {
  it('executes a message given to sendMessage in the next round and rejects what is not a message', async () => {
    const live = await createDevnet({ seed: 'live-test', startTime: 1_750_000_000 });
    const alice = live.scenarios.alice;
    const boc = walletExternal(alice, [{ to: live.scenarios.bob.address, value: 1_000_000_000n, bounce: true, body: comment('live hello') }], 1_750_000_600).toBoc();
    const hash = live.sendMessage(boc);
    // A client retrying the same message: one transaction, the duplicate is dropped.
    live.sendMessage(boc);
    const first = await live.produceRound();
    expect(first.map((b) => b.ref.workchain)).toEqual([0, -1]);
    const ext = decodeBlock(first[0].boc).transactions;
    expect(ext).toHaveLength(1);
    expect(ext[0].in_msg?.msg_hash).toBe(hash.toString('hex'));
    expect(ext[0].account.toLowerCase()).toBe(alice.address.toRawString());
    expect(live.devnet.rejected.map((x) => x.hash.toString('hex'))).toEqual([hash.toString('hex')]);
    const second = await live.produceRound();
    const recv = decodeBlock(second[0].boc).transactions;
    expect(recv).toHaveLength(1);
    expect(recv[0].account.toLowerCase()).toBe(live.scenarios.bob.address.toRawString());
    expect(recv[0].in_msg?.msg_hash).toBe(ext[0].out_msgs[0].msg_hash);
    expect(() => live.sendMessage(Buffer.from('not a boc'))).toThrow(/not a BoC/);
    expect(() => live.sendMessage(comment('x').toBoc())).toThrow(/not a Message|external-in/);
  });
});
