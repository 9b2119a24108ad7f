/**
 * The devnet's validators and out message queues, read back from the files it writes: config param 34 lists
 * its own validator keys, every block header names its validator group (recomputed from params 28/34 with the
 * algorithm checked against mainnet in test/ton/validators.test.ts), every masterchain block has a BlockProof
 * in proofs/ whose signatures verify (@noble/ed25519) with the param-34 keys, and every state's out queue holds
 * exactly the internal messages its block created (they are delivered in the next round).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cell, Dictionary, type Slice } from '@ton/core';
import * as ed from '@noble/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { startLiteServer } from '../../src/devnet/liteserver/index.ts';
import { checkProofChain } from '../../src/api/v2/proofs.ts';
import type { TlObject } from '../../src/tl/index.ts';
import { RawClient } from './liteserver-helpers.ts';
import { computeValidatorSubset, decodeBlock, validatorSetHashShort } from '../../src/ton/index.ts';

interface BlockJson {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

let dir: string;
let blocks: BlockJson[];
let inFlight: { external: boolean }[];
const file = (sub: string, b: BlockJson) => join(dir, sub, `${b.workchain}_${b.shard}_${b.seqno}.boc`);
const cell = (sub: string, b: BlockJson) => Cell.fromBoc(readFileSync(file(sub, b)))[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'devnet-vq-'));
  // 10 rounds: the basechain splits at round 3 and merges at round 6
  await generateDevnet(dir, { seed: 'validators-queue', blocks: 10, bulkWallets: 2, bulkFanout: 2 });
  const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: BlockJson[]; in_flight: { external: boolean }[] };
  blocks = chain.blocks;
  inFlight = chain.in_flight;
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** BlockInfo fields after the tag: shard, gen_validator_list_hash_short, gen_catchain_seqno. */
function header(block: Cell) {
  const s = block.refs[0].beginParse();
  s.skip(32 + 32 + 8 + 8 + 32 + 32 + 2);
  const pfx = s.loadUint(6);
  const workchain = s.loadInt(32);
  const shard = s.loadUintBig(64) | (1n << BigInt(63 - pfx));
  s.skip(32 + 64 + 64);
  return { workchain, shard, hashShort: s.loadUint(32), ccSeqno: s.loadUint(32) };
}

function devnetConfig() {
  const key = blocks.find((b) => b.workchain === -1 && b.seqno === 1)!;
  const mc = cell('blocks', key).refs[3].refs[3];
  const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), mc.refs[mc.refs.length - 1]);
  // validators_ext#12 utime_since utime_until total:(## 16) main:(## 16) total_weight:uint64 list:(HashmapE 16 ValidatorDescr)
  const s = config.get(34)!.beginParse();
  expect(s.loadUint(8)).toBe(0x12);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  const totalWeight = s.loadUintBig(64);
  const list = s.loadDict(Dictionary.Keys.Uint(16), {
    serialize: () => undefined,
    parse: (v: Slice) => {
      expect(v.loadUint(8)).toBe(0x53); // validator#53
      expect(v.loadUint(32)).toBe(0x8e81278a); // ed25519_pubkey
      return { publicKey: v.loadBuffer(32), weight: v.loadUintBig(64), adnlAddr: null };
    },
  });
  const p28 = config.get(28)!.beginParse();
  expect(p28.loadUint(8)).toBe(0xc2);
  p28.skip(7);
  const shuffleMcValidators = p28.loadBit();
  p28.skip(96);
  return {
    config,
    vset: { utimeSince, utimeUntil, total, main, totalWeight, list: [...list.keys()].sort((a, b) => a - b).map((k) => list.get(k)!) },
    ccv: { shuffleMcValidators, shardValidatorsNum: p28.loadUint(32) },
  };
}

describe('devnet validators', () => {
  it('config param 34 is the devnet set (4 ed25519 keys, equal weights); no other set (32, 36) is listed', () => {
    const { config, vset } = devnetConfig();
    expect([vset.total, vset.main, vset.list.length]).toEqual([4, 4, 4]);
    expect(vset.list.reduce((t, v) => t + v.weight, 0n)).toBe(vset.totalWeight);
    expect(new Set(vset.list.map((v) => v.publicKey.toString('hex'))).size).toBe(4);
    expect(config.get(32)).toBeUndefined();
    expect(config.get(36)).toBeUndefined();
  });

  it('every block header names the validator group of its shard computed from params 28 and 34', () => {
    const { vset, ccv } = devnetConfig();
    const shards = new Set<string>();
    for (const b of blocks) {
      const h = header(cell('blocks', b));
      const nodes = computeValidatorSubset(ccv, { workchain: h.workchain, shard: h.shard }, vset, h.ccSeqno);
      expect(validatorSetHashShort(h.ccSeqno, nodes), `${b.workchain}:${b.shard}:${b.seqno}`).toBe(h.hashShort);
      shards.add(`${b.workchain}:${b.shard}`);
    }
    expect(shards.size).toBe(4); // masterchain, the basechain and its two children
  });

  it('every masterchain block has a BlockProof whose signatures by all four validators verify over ton.blockId', async () => {
    const { vset } = devnetConfig();
    const byNodeId = new Map(vset.list.map((v) => [createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(v.publicKey).digest('hex'), v]));
    const mcBlocks = blocks.filter((b) => b.workchain === -1);
    expect(mcBlocks).toHaveLength(10);
    for (const b of mcBlocks) {
      // block_proof#c3 proof_for:BlockIdExt root:^Cell signatures:(Maybe ^BlockSignatures)
      const p = cell('proofs', b).beginParse();
      expect(p.loadUint(8)).toBe(0xc3);
      p.skip(104 + 32);
      expect(p.loadBuffer(32).toString('hex')).toBe(b.root_hash);
      expect(p.loadBuffer(32).toString('hex')).toBe(b.file_hash);
      const root = p.loadRef();
      expect(root.isExotic).toBe(true);
      expect(root.refs[0].hash(0).toString('hex')).toBe(b.root_hash);
      // block_signatures#11 validator_info:ValidatorBaseInfo pure_signatures:BlockSignaturesPure
      const s = p.loadRef().beginParse();
      expect(s.loadUint(8)).toBe(0x11);
      expect(s.loadUint(32)).toBe(header(cell('blocks', b)).hashShort);
      s.skip(32);
      expect(s.loadUint(32)).toBe(4); // sig_count
      expect(s.loadUintBig(64)).toBe(vset.totalWeight);
      const sigs = s.loadDict(Dictionary.Keys.Uint(16), {
        serialize: () => undefined,
        parse: (v: Slice) => {
          const node = v.loadBuffer(32).toString('hex');
          expect(v.loadUint(4)).toBe(5); // ed25519_signature#5
          return { node, sig: v.loadBuffer(64) };
        },
      });
      const signed = Buffer.concat([Buffer.from('706e0bc5', 'hex'), Buffer.from(b.root_hash, 'hex'), Buffer.from(b.file_hash, 'hex')]);
      for (const { node, sig } of sigs.values()) {
        const v = byNodeId.get(node);
        expect(v, 'a signer of the validator set').toBeDefined();
        expect(await ed.verifyAsync(sig, signed, v!.publicKey)).toBe(true);
        expect(await ed.verifyAsync(sig, Buffer.concat([signed.subarray(0, 67), Buffer.from([signed[67] ^ 1])]), v!.publicKey)).toBe(false);
      }
    }
    expect(existsSync(join(dir, 'proofs', '0_8000000000000000_1.boc'))).toBe(false); // shard blocks carry no proof file
  });
});

/** Entries of the OutMsgQueue (HashmapAugE 352 EnqueuedMsg uint64) and the out_queue_size of OutMsgQueueExtra. */
function queueOf(state: Cell): { entries: number; size: bigint } {
  const info = state.refs[0].beginParse();
  let entries = 0;
  if (info.loadBit()) {
    const count = (c: Cell, bits: number): void => {
      const s = c.beginParse();
      // label: hml_short$0 / hml_long$10 / hml_same$11
      let len: number;
      const lenBits = Math.ceil(Math.log2(bits + 1));
      const b0 = s.loadBit();
      const b1 = b0 ? s.loadBit() : false;
      if (!b0) {
        len = 0;
        while (s.loadBit()) len++;
      } else if (!b1) {
        len = s.loadUint(lenBits);
      } else {
        s.skip(1);
        len = s.loadUint(lenBits);
      }
      if (len === bits) entries++;
      else for (const r of c.refs) count(r, bits - len - 1);
    };
    count(info.loadRef(), 352);
  }
  info.skip(64);
  expect(info.loadBit()).toBe(false); // proc_info: empty
  expect(info.loadBit()).toBe(true); // extra: just out_msg_queue_extra#0
  expect(info.loadUint(4)).toBe(0);
  info.skip(65);
  expect(info.loadBit()).toBe(true);
  return { entries, size: info.loadUintBig(48) };
}

describe('devnet out message queues', () => {
  it('the state after each block queues the internal messages its transactions created; out_queue_size counts them', () => {
    let nonEmpty = 0;
    for (const b of blocks) {
      // the block's own transactions (project decoder, checked against @ton/core in test/ton): internal messages
      // to the workchains the devnet runs are delivered next round, so they wait in the sender's queue
      const created = decodeBlock(readFileSync(file('blocks', b)))
        .transactions.flatMap((t) => t.out_msgs)
        .filter((m) => m.message_type === 'int' && m.destination !== null && /^(-1|0):/.test(m.destination)).length;
      const q = queueOf(cell('states', b));
      expect(q.entries, `${b.workchain}:${b.shard}:${b.seqno}`).toBe(created);
      expect(q.size).toBe(BigInt(created));
      if (created > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(5);
  });

  it('the tip blocks (after the merge: masterchain and 0:8000000000000000) queue exactly the internal messages in flight', () => {
    const lastOf = (workchain: number) => blocks.filter((b) => b.workchain === workchain && b.shard === '8000000000000000').at(-1)!;
    const queued = [lastOf(-1), lastOf(0)].reduce((t, b) => t + Number(queueOf(cell('states', b)).size), 0);
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBe(inFlight.filter((m) => !m.external).length);
  });
});

describe('liteServer.getBlockProof over ADNL (chains as the C++ liteserver builds them, checked link by link)', () => {
  const mc = (seqno: number) => {
    const b = seqno === 0 ? null : blocks.find((x) => x.workchain === -1 && x.seqno === seqno)!;
    const z = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')).zero_state as { root_hash: string; file_hash: string };
    const h = b ?? z;
    return { workchain: -1, shard: -(1n << 63n), seqno, root_hash: Buffer.from(h.root_hash, 'hex'), file_hash: Buffer.from(h.file_hash, 'hex') };
  };

  it('back to the key block, forward with signatures; backward straight to an older block; from the zero state; a wrong hash is refused', async () => {
    const server = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 3), port: 0 });
    const raw = await RawClient.open(server.port, server.publicKey);
    const shape = (p: TlObject) => (p.steps as TlObject[]).map((s) => `${s._ === 'liteServer.blockLinkForward' ? 'fwd' : 'back'} ${(s.from as TlObject).seqno}->${(s.to as TlObject).seqno}${s.to_key_block ? ' key' : ''}`);
    try {
      // block 1 is the key block: 4 -> 7 goes back to it, then forward to 7 with 7's signatures
      let p = await raw.call({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: mc(4), target_block: mc(7) });
      expect(shape(p)).toEqual(['back 4->1 key', 'fwd 1->7']);
      expect(checkProofChain(p, mc(4), mc(7)).length).toBe(2);
      p = await raw.call({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: mc(10), target_block: mc(2) });
      expect(shape(p)).toEqual(['back 10->2']);
      checkProofChain(p, mc(10), mc(2));
      p = await raw.call({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: mc(0), target_block: mc(1) });
      expect(shape(p)).toEqual(['fwd 0->1 key']);
      checkProofChain(p, mc(0), mc(1));
      // no target: up to the tip
      p = await raw.call({ _: 'liteServer.getBlockProof', mode: 0, known_block: mc(3) });
      expect(shape(p)).toEqual(['back 3->1 key', 'fwd 1->10']);
      expect(p.complete).toBe(true);
      const bad = await raw.call({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: { ...mc(4), root_hash: Buffer.alloc(32, 1) }, target_block: mc(7) });
      expect(bad).toEqual({ _: 'liteServer.error', code: 651, message: 'block is not applied' });
    } finally {
      raw.close();
      await server.close();
    }
  });
});
