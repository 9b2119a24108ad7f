/**
 * A live devnet directory (`demo`): made blocks are released, then new rounds are made for as long as it is stepped;
 * a restart resumes the same chain: the blocks shown before are served unchanged, and the next rounds are the ones
 * the uninterrupted generator makes. After a pause the chain's clock jumps to the wall clock.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveDevnetDir, LiveDirError } from '../../src/devnet/live/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { ChainMessageError, parseBlock, SHARD_ALL } from '../../src/devnet/chain/index.ts';
import { beginCell, external, loadTransaction, storeMessage, toNano } from '@ton/core';
import { comment, walletExternal } from '../../src/devnet/generate/index.ts';

const root = mkdtempSync(join(tmpdir(), 'tg-live-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = 1_800_000_000;
const OPTS = { seed: 3, blocks: 6, blockInterval: 2, startTime: T0, now: () => T0 };

function mcHashes(live: LiveDevnetDir): string[] {
  return live.chain.shardBlocks(-1, SHARD_ALL).map((b) => `${b.id.seqno}:${b.id.rootHash.toString('hex')}`);
}

describe('LiveDevnetDir', () => {
  let uninterrupted: string[] = [];

  it('releases the made blocks one a step, then makes new rounds (blocks, proofs, states on disk; times from the start time)', async () => {
    const dir = join(root, 'a');
    const live = await LiveDevnetDir.open(dir, OPTS);
    expect(live.fresh).toBe(true);
    expect(live.tip).toBe(1);
    expect(live.round).toBe(6);
    for (let i = 2; i <= 10; i++) expect(await live.step()).toBe(i);
    expect(live.round).toBe(10);
    uninterrupted = mcHashes(live);
    expect(uninterrupted).toHaveLength(10);
    const tip = live.chain.lastMasterchain();
    expect(tip.header.genUtime).toBe(T0 + 10 * 2);
    // the made rounds carry transactions (bulk transfers every round) and real signatures
    expect(tip.transactions.length + live.chain.allBlocks().filter((b) => b.mcSeqno === 10 && b.id.workchain === 0).reduce((n, b) => n + b.transactions.length, 0)).toBeGreaterThan(0);
    expect(live.chain.getBlockProof(tip.id)).toBeDefined();
    expect(live.chain.getState(tip.id)).toBeDefined();
    const file = join(dir, 'blocks', `-1_8000000000000000_10.boc`);
    expect(parseBlock(readFileSync(file)).id.rootHash.equals(tip.id.rootHash)).toBe(true);
    expect(readFileSync(join(dir, 'blocks.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(8);
    await live.close();
  });

  it('a restart serves every block shown before at once, and goes on with the same rounds', async () => {
    const dir = join(root, 'b');
    const first = await LiveDevnetDir.open(dir, OPTS);
    for (let i = 2; i <= 8; i++) await first.step();
    await first.close();
    const again = await LiveDevnetDir.open(dir, OPTS);
    expect(again.fresh).toBe(false);
    expect(again.tip).toBe(8);
    expect(mcHashes(again)).toEqual(uninterrupted.slice(0, 8));
    expect(await again.step()).toBe(9);
    expect(await again.step()).toBe(10);
    expect(mcHashes(again)).toEqual(uninterrupted);
    await again.close();
  });

  it('a restart before the made blocks were all shown shows what was shown, then releases the rest', async () => {
    const dir = join(root, 'c');
    const first = await LiveDevnetDir.open(dir, OPTS);
    await first.step();
    await first.step();
    const again = await LiveDevnetDir.open(dir, OPTS);
    expect(again.tip).toBe(3);
    expect(again.round).toBe(6);
    expect(await again.step()).toBe(4);
    expect(mcHashes(again)).toEqual(uninterrupted.slice(0, 4));
  });

  it('resumed after a pause: the next round is at the wall clock (a gap), later rounds follow by the interval', async () => {
    const dir = join(root, 'd');
    const first = await LiveDevnetDir.open(dir, OPTS);
    for (let i = 2; i <= 7; i++) await first.step();
    const later = T0 + 3600;
    const again = await LiveDevnetDir.open(dir, { ...OPTS, now: () => later });
    expect(again.chain.lastMasterchain().header.genUtime).toBe(T0 + 7 * 2);
    await again.step();
    expect(again.chain.lastMasterchain().header.genUtime).toBe(later);
    await again.step();
    expect(again.chain.lastMasterchain().header.genUtime).toBe(later + 2);
    // saved: one more restart keeps the new time base
    const third = await LiveDevnetDir.open(dir, { ...OPTS, now: () => later + 4 });
    await third.step();
    expect(third.chain.lastMasterchain().header.genUtime).toBe(later + 4);
  });

  it('states older than keepStates rounds are pruned from memory and disk', async () => {
    const dir = join(root, 'e');
    const live = await LiveDevnetDir.open(dir, { ...OPTS, keepStates: 2 });
    for (let i = 2; i <= 10; i++) await live.step();
    const mc = (s: number) => live.chain.getBlock({ workchain: -1, shard: SHARD_ALL, seqno: s })!;
    expect(live.chain.getState(mc(7).id)).toBeUndefined();
    expect(existsSync(join(dir, 'states', '-1_8000000000000000_7.boc'))).toBe(false);
    expect(live.chain.getState(mc(9).id)).toBeDefined();
    expect(live.chain.getState(mc(10).id)).toBeDefined();
    // the made blocks keep theirs (written with the directory)
    expect(live.chain.getState(mc(6).id)).toBeDefined();
  });

  it('a message sent to its liteserver is checked as a full node checks it, then included in the next round made', async () => {
    const dir = join(root, 'send');
    const live = await LiveDevnetDir.open(dir, { ...OPTS, blocks: 4 });
    for (let i = 2; i <= 4; i++) await live.step();
    const { dave, bob } = live.scenarios;
    const msg = walletExternal(dave, [{ to: bob.address, value: toNano('1'), bounce: true, body: comment('sent to the liteserver') }], T0 + 1_000_000);
    await live.chain.sendMessage!(msg.toBoc());
    // an unsigned message: refused with the account's reason, nothing queued
    const unsigned = beginCell().store(storeMessage(external({ to: dave.address, body: comment('unsigned') }))).endCell();
    const refused = await live.chain.sendMessage!(unsigned.toBoc()).then(() => null, (e: Error) => e);
    expect(refused).toBeInstanceOf(ChainMessageError);
    expect(refused!.message).toMatch(/^cannot apply external message to current state : External message was not accepted\n.*exit/s);
    expect(await live.step()).toBe(5);
    const txs = live.chain.allBlocks().filter((b) => b.mcSeqno === 5).flatMap((b) => b.transactions);
    const inHashes = txs.map((t) => loadTransaction(t.cell.beginParse()).inMessage).filter((m) => m?.info.type === 'external-in').map((m) => beginCell().store(storeMessage(m!)).endCell().hash().toString('hex'));
    expect(inHashes).toContain(msg.hash().toString('hex'));
    expect(inHashes).not.toContain(unsigned.hash().toString('hex'));
    await live.close();
  });

  it('a directory made by `devnet generate` (no generator state) is refused with what to do, not served half', async () => {
    const dir = join(root, 'f');
    await generateDevnet(dir, { seed: 3, blocks: 4, bulkWallets: 0 });
    await expect(LiveDevnetDir.open(dir, OPTS)).rejects.toThrow(LiveDirError);
    await expect(LiveDevnetDir.open(dir, OPTS)).rejects.toThrow(/without a live generator's state .*remove it/);
  });
});
