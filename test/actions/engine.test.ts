// The classifier engine (port of toncenter's indexer/events): event tree, block merging, matcher combinators,
// serializer identities, and the driver's fallbacks. Real traces from the fixtures where they show the behaviour,
// hand-built ones (test/actions/trace-builder.ts, bodies from real messages) for the branches no fixture has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CallContractBlock, ContractDeploy, TonTransferBlock } from '../../src/actions/basic-blocks.ts';
import { findCallContract, getLabeled } from '../../src/actions/block-utils.ts';
import { classifyTrace } from '../../src/actions/classify.ts';
import { withTraceContext } from '../../src/actions/context.ts';
import { Block, ensureEarliestCommonBlock } from '../../src/actions/core.ts';
import { FAMILY_MATCHERS } from '../../src/actions/families/index.ts';
import { JettonTransferBlockMatcher } from '../../src/actions/families/jettons.ts';
import { labeled } from '../../src/actions/labels.ts';
import { MATCHER_ORDER } from '../../src/actions/matcher-order.ts';
import {
  BlockMatcher, BlockTypeMatcher, ContractMatcher, ExclusiveOrMatcher, GenericMatcher, OrMatcher, RecursiveMatcher, childSequenceMatcher,
} from '../../src/actions/matchers.ts';
import type { Trace } from '../../src/actions/model.ts';
import { initBlock, matchers, processEventWithPostprocessing, unwindDeployments } from '../../src/actions/processing.ts';
import { blockToAction, calcActionId, DuplicateActionError, serializeBlocks, V1_OPS } from '../../src/actions/serializer.ts';
import { toTree } from '../../src/actions/tree.ts';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;
const load = (f: string): Trace => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, f), 'utf8')));
const STONFI_JETTON_TO_TON = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json';

/** The basic block graph of a trace, under a root block, as process_event builds it before matching. */
function graph(trace: Trace): Block {
  const root = new Block('root', [], null);
  root.connect(initBlock(toTree(trace)));
  return root;
}
const op = (n: number, extra = 0) => beginCell().storeUint(n, 32).storeUint(extra, 64).endCell();
const blocks = (root: Block) => [...root.bfsIter()].filter((b) => b.btype !== 'root');

describe('event tree (tree_utils.to_tree)', () => {
  it('links every transaction of a real trace under the external, with a node per external-out message', () => {
    const trace = load('1VcQkyvd9V-HG0lNytSst83ap9KP46eoVvLvQi7wsx0=.json');
    const root = toTree(trace);
    expect(root.getType()).toBe('external');
    const all: ReturnType<typeof toTree>[] = [];
    const walk = (n: typeof root) => { all.push(n); n.children.forEach(walk); };
    walk(root);
    const logs = trace.transactions.flatMap((t) => t.outMsgs.filter((m) => m.destination === null));
    expect(logs.length).toBe(1);
    expect(all.length).toBe(trace.transactions.length + logs.length);
    const log = all.find((n) => n.getType() === 'notification')!;
    // a log has no receiving transaction; its tx hash is the sender's, its lt the message's
    expect(log.getTx()).toBeNull();
    expect(log.getTxHash()).toBe(log.parent!.getTxHash());
    expect(log.getLt()).toBe(logs[0].createdLt);
  });

  it('fails on an out-message the trace has no receiver for (an incomplete trace), and the classification says so', () => {
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: op(1), out: [{ account: addr(0, 'b2'), from: addr(0, 'a1') }] });
    trace.transactions.pop();
    expect(() => toTree(trace)).toThrow(/no receiving transaction/);
    const res = classifyTrace(trace);
    expect(res.state).toBe('failed');
    // the basic-actions fallback builds the same tree and fails too: no actions, as upstream
    expect(res.actions).toEqual([]);
  });

  it('makes a tick-tock node, and a lone tick-tock trace has no actions', () => {
    const trace = buildTrace({ account: addr(-1, '55'), from: null });
    const tx = trace.transactions[0];
    tx.inMsg = null;
    tx.descr = 'tick_tock';
    const node = toTree(trace);
    expect(node.isTickTock).toBe(true);
    expect(node.getLt()).toBe(tx.lt);
    expect(classifyTrace(trace)).toMatchObject({ actions: [], state: 'ok' });
  });
});

describe('blocks and merging (core.py)', () => {
  it('a jetton transfer merge takes the transfer chain, keeps the links around it, and marks what it absorbed', () => {
    const trace = load(STONFI_JETTON_TO_TON);
    withTraceContext(trace, () => {
      const root = graph(trace);
      const transfer = blocks(root).find((b) => b instanceof CallContractBlock && b.opcode === 0x0f8a7ea5)!;
      const before = transfer.previousBlock!;
      const res = new JettonTransferBlockMatcher().tryBuild(transfer)!;
      const jt = res[0];
      expect(jt.btype).toBe('jetton_transfer');
      // the transfer, the internal transfer with its notification and the excess the receiving wallet returned
      // (auto-appended by the internal transfer's matcher, so merged)
      expect(jt.childrenBlocks.map((b) => (b as CallContractBlock).opcode).sort()).toEqual([0x0f8a7ea5, 0x178d4519, 0x7362d09c, 0xd53276db].sort());
      for (const c of jt.childrenBlocks) expect(c.parent).toBe(jt);
      expect(res).toEqual([jt]);
      // linked in the place of the transfer: the block before it now leads to the new block
      expect(jt.previousBlock).toBe(before);
      expect(before.nextBlocks).toContain(jt);
      expect(before.nextBlocks).not.toContain(transfer);
      // what followed the merged blocks follows the new block
      for (const n of jt.nextBlocks) expect(n.previousBlock).toBe(jt);
      expect(jt.nextBlocks.some((n) => (n as CallContractBlock).opcode === 0x25938561)).toBe(true); // the router's swap call
      expect(jt.minLt).toBe(transfer.minLt);
      expect(jt.maxLt >= jt.minLt).toBe(true);
      expect(jt.initiatingEventNode).toBe(transfer.initiatingEventNode);
    });
  });

  it('refuses to merge blocks with no common earliest block', () => {
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: op(1), out: [{ account: addr(0, 'b2'), from: addr(0, 'a1'), body: op(2), out: [{ account: addr(0, 'c3'), from: addr(0, 'b2'), body: op(3) }] }] });
    const [, a, b, c] = [...graph(trace).bfsIter()];
    expect(ensureEarliestCommonBlock([a, c])).toBeNull();
    expect(ensureEarliestCommonBlock([b, a])).toBe(a);
    expect(() => new Block('x', [], null).mergeBlocks([a, c])).toThrow(/Earliest common block not found/);
  });
});

describe('matcher combinators (basic_matchers.py)', () => {
  // a -> b with two 0x22 children (one with a 0x33 child), a 0x44, an excess and a bounce
  const spec: TxSpec = {
    account: addr(0, 'a1'), from: null, body: op(0x11),
    out: [{
      account: addr(0, 'b2'), from: addr(0, 'a1'), body: op(0x11),
      out: [
        { account: addr(0, 'c3'), from: addr(0, 'b2'), body: op(0x22), out: [{ account: addr(0, 'f6'), from: addr(0, 'c3'), body: op(0x33) }] },
        { account: addr(0, 'd4'), from: addr(0, 'b2'), body: op(0x22) },
        { account: addr(0, 'e5'), from: addr(0, 'b2'), body: op(0x44) },
        { account: addr(0, 'a1'), from: addr(0, 'b2'), body: op(0xd53276db) },
        { account: addr(0, 'a1'), from: addr(0, 'b2'), body: op(0xffffffff) },
      ],
    }],
  };
  const b2 = () => graph(buildTrace(spec)).nextBlocks[0].nextBlocks[0];
  const ops = (bs: Block[] | null) => bs!.map((b) => (b as CallContractBlock).opcode);

  it('a child matcher collects every next block it matches; excess and bounce calls are appended', () => {
    const r = new ContractMatcher(0x11, { childMatcher: new ContractMatcher(0x22, { includeExcess: false }) }).tryBuild(b2());
    expect(ops(r)).toEqual([0x11, 0x22, 0x22, 0xd53276db, 0xffffffff]);
    const plain = new BlockMatcher({ childMatcher: new ContractMatcher(0x22, { includeExcess: false }), includeExcess: false, includeBounces: false });
    expect(ops(plain.tryBuild(b2()))).toEqual([0x11, 0x22, 0x22]);
    // pre-build auto-append hands them to buildBlock instead
    const seen: number[][] = [];
    class Spy extends BlockMatcher {
      override buildBlock(block: Block, others: Block[]) {
        seen.push(ops(others) as number[]);
        return [block];
      }
    }
    new Spy({ preBuildAutoAppend: true }).tryBuild(b2());
    expect(seen[0]).toEqual([0xd53276db, 0xffffffff]);
  });

  it('a required child matcher with no match fails; an optional one passes', () => {
    expect(new ContractMatcher(0x11, { childMatcher: new ContractMatcher(0x99) }).tryBuild(b2())).toBeNull();
    expect(ops(new ContractMatcher(0x11, { childMatcher: new ContractMatcher(0x99, { optional: true }), includeExcess: false }).tryBuild(b2()))).toEqual([0x11, 0xffffffff]);
  });

  it('children matchers take distinct next blocks in order; a missing required one fails the match', () => {
    const m = new BlockMatcher({
      childrenMatchers: [new ContractMatcher(0x44, { includeExcess: false }), new ContractMatcher(0x22, { includeExcess: false }), new ContractMatcher(0x22, { includeExcess: false })],
      includeExcess: false, includeBounces: false,
    });
    expect(ops(m.tryBuild(b2()))).toEqual([0x11, 0x44, 0x22, 0x22]);
    const third = new BlockMatcher({ childrenMatchers: [new ContractMatcher(0x22), new ContractMatcher(0x22), new ContractMatcher(0x22)] });
    expect(third.tryBuild(b2())).toBeNull();
    const optional = new BlockMatcher({ childrenMatchers: [new ContractMatcher(0x55, { optional: true }), new ContractMatcher(0x44, { includeExcess: false })], includeExcess: false, includeBounces: false });
    expect(ops(optional.tryBuild(b2()))).toEqual([0x11, 0x44]);
  });

  it('a parent matcher reads the previous block; a test on a missing previous block fails as upstream does', () => {
    const b = b2();
    expect(new ContractMatcher(0x11, { parentMatcher: new ContractMatcher(0x11), includeExcess: false }).tryBuild(b)!.length).toBe(3);
    const top = b.previousBlock!; // a1's block: its previous is the root
    expect(new BlockMatcher({ parentMatcher: new BlockTypeMatcher('root') }).tryBuild(top)).not.toBeNull();
    const rootChild = graph(buildTrace(spec)).nextBlocks[0];
    const root = rootChild.previousBlock!;
    // the root has no previous block: upstream's lambda reads None and fails; the failure escapes try_build
    const reading = new GenericMatcher((x) => x.btype === 'root');
    expect(() => new BlockMatcher({ parentMatcher: reading }).tryBuild(root)).toThrow(TypeError);
  });

  it('Or takes the first matcher that builds; ExclusiveOr tests that exactly one fits', () => {
    const b = b2();
    const or = new OrMatcher([new ContractMatcher(0x99), new ContractMatcher(0x11, { includeExcess: false })]);
    expect(ops(or.tryBuild(b))).toEqual([0x11, 0xffffffff]);
    expect(new ExclusiveOrMatcher([new ContractMatcher(0x11), new BlockTypeMatcher('call_contract')]).testSelf(b)).toBe(false);
    expect(new ExclusiveOrMatcher([new ContractMatcher(0x11), new BlockTypeMatcher('ton_transfer')]).testSelf(b)).toBe(true);
  });

  it('a failing build makes the match fail (null) instead of failing the trace', () => {
    class Broken extends BlockMatcher {
      override buildBlock(): Block[] {
        throw new Error('bad body');
      }
    }
    expect(new Broken().tryBuild(b2())).toBeNull();
    // upstream's error log reads the block's first node: on a block without nodes the failure escapes
    expect(() => new Broken().tryBuild(new Block('empty', [], null))).toThrow('bad body');
  });

  it('a recursive matcher follows a chain level by level until its exit matcher', () => {
    const chain = buildTrace({
      account: addr(0, 'a1'), from: null, body: op(0x11),
      out: [{ account: addr(0, 'b2'), from: addr(0, 'a1'), body: op(0x22), out: [{ account: addr(0, 'c3'), from: addr(0, 'b2'), body: op(0x22), out: [{ account: addr(0, 'd4'), from: addr(0, 'c3'), body: op(0x33) }] }] }],
    });
    const first = graph(chain).nextBlocks[0].nextBlocks[0];
    const r = new RecursiveMatcher(new ContractMatcher(0x22, { includeExcess: false }), new ContractMatcher(0x33)).tryBuild(first);
    expect(ops(r)).toEqual([0x22, 0x22, 0x22, 0x33]); // the start block, then what the chain collected (the start again included)
    // without the exit the walk ends where the chain does, and what it collected still counts as a match
    const noExit = new RecursiveMatcher(new ContractMatcher(0x22, { includeExcess: false }), new ContractMatcher(0x77));
    expect(ops(noExit.tryBuild(first))).toEqual([0x22, 0x22, 0x22]);
    // a start the repeating matcher does not take is no match
    expect(new RecursiveMatcher(new ContractMatcher(0x33), null).tryBuild(first)).toBeNull();
  });

  it('child_sequence_matcher chains, and labels name the blocks they take', () => {
    const seq = childSequenceMatcher([new ContractMatcher(0x11), labeled('grand', new ContractMatcher(0x22)), new ContractMatcher(0x33)])!;
    const r = seq.tryBuild(b2())!;
    const grand = getLabeled('grand', r, CallContractBlock)!;
    expect(grand.opcode).toBe(0x22);
    expect(findCallContract(r, 0x33)).not.toBeNull();
    // a label block is transient: merging skips it
    const merged = new Block('x', [], null);
    merged.mergeBlocks(r);
    expect(merged.childrenBlocks.some((b) => b.btype === 'label')).toBe(false);
  });
});

describe('serializer (block_tree_serializer.py)', () => {
  it('action id: sha256 of the earliest node message hash (base64) and the block type', () => {
    const trace = load('CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=.json');
    const b = blocks(graph(trace))[0];
    expect(calcActionId(b)).toBe('2w63ODTcF5Jcx0ff5OOJKZ9kMhn5BzeYKr3R+OLEZMU=');
  });

  it('tx_hashes and accounts take the initiating transaction in', () => {
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: op(1), out: [{ account: addr(0, 'b2'), from: addr(0, 'a1') }] });
    const ton = blocks(graph(trace)).find((b) => b instanceof TonTransferBlock)!;
    const a = blockToAction(ton, trace);
    expect(a.tx_hashes).toEqual([trace.transactions[1].hash, trace.transactions[0].hash]);
    expect(a.accounts.sort()).toEqual([addr(0, 'a1'), addr(0, 'b2')].sort());
    expect(a.start_lt).toBe(trace.transactions[1].inMsg!.createdLt);
    expect(a.end_lt).toBe(trace.transactions[1].lt);
  });

  it('stores the children of a type outside v1 with their ancestors; a repeated child id fails the trace', () => {
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: op(1), out: [{ account: addr(0, 'b2'), from: addr(0, 'a1'), body: op(0x22), out: [{ account: addr(0, 'c3'), from: addr(0, 'b2') }] }] });
    const [, call, ton] = blocks(graph(trace));
    const wrap = new Block('vesting_send_message', [], { sender: addr(0, 'a1'), vesting: addr(0, 'b2'), message_destination: null, message_value: 1n, query_id: 0n, message_boc_str: null });
    wrap.mergeBlocks([call, ton]);
    expect(V1_OPS.has('vesting_send_message')).toBe(false);
    const { actions, state } = serializeBlocks([wrap], trace);
    expect(state).toBe('ok');
    expect(actions.map((a) => a.type)).toEqual(['vesting_send_message', 'call_contract', 'ton_transfer']);
    expect(actions[1].parent_action_id).toBe(actions[0].action_id);
    expect(actions[2].ancestor_type).toEqual(['vesting_send_message']);
    // a v1 type keeps its children to itself
    const v1 = new Block('ton_transfer', [], ton.data);
    Object.assign(v1, { value: 1n });
    v1.mergeBlocks([call]);
    expect(serializeBlocks([v1], trace).actions).toHaveLength(1);
    // the same child twice: upstream raises, and the trace falls back to basic actions
    wrap.childrenBlocks.push(ton);
    expect(() => serializeBlocks([wrap], trace)).toThrow(DuplicateActionError);
    wrap.broken = true;
    wrap.childrenBlocks.pop();
    expect(serializeBlocks([wrap], trace).state).toBe('broken');
  });

  it('a block of a log alone (the tgbtc.py fallbacks) takes the sending transaction: mc seqno, transaction, account', () => {
    const log = beginCell().storeUint(0x453443a6, 32).storeUint(1n, 64).storeUint(2n, 256).endCell();
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: op(1), out: [{ account: addr(0, 'b2'), from: addr(0, 'a1'), body: op(0x22), logs: [log] }] });
    trace.transactions[1].mcSeqno = 7;
    const logBlock = blocks(graph(trace)).find((b) => b instanceof CallContractBlock && b.opcode === 0x453443a6)!;
    const wrap = new Block('tgbtc_dkg_log', [], { coordinator_contract: addr(0, 'b2'), timestamp: 1n, internal_pubkey: '2' });
    wrap.mergeBlocks([logBlock]);
    const a = blockToAction(wrap, trace);
    expect(a).toMatchObject({ type: 'tgbtc_dkg_log_fallback', mc_seqno_end: 7, source: addr(0, 'b2'), asset: '2', value: 1n });
    expect(a.tx_hashes).toEqual([trace.transactions[1].hash]);
    expect(a.accounts).toEqual([addr(0, 'b2')]);
  });

  it('an unknown trace gets one action named by the trace id', () => {
    // a lone external whose body is no wallet request
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, body: beginCell().storeUint(5, 8).endCell(), aborted: true });
    const { actions } = classifyTrace(trace);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ type: 'unknown', success: false, accounts: [addr(0, 'a1')], tx_hashes: [trace.transactions[0].hash] });
    expect(Buffer.from(actions[0].action_id, 'base64').toString('hex')).toBe(trace.traceId);
  });
});

describe('driver (event_processing.py)', () => {
  it('runs upstream order: the jetton transfer matcher takes a transfer before the pTON one', () => {
    expect(MATCHER_ORDER.indexOf('JettonTransferBlockMatcher')).toBeLessThan(MATCHER_ORDER.indexOf('PTonTransferMatcher'));
    const names = matchers().map((m) => m.constructor.name);
    // every registered matcher, in upstream's order (the list grows as families are ported)
    expect(names).toEqual(MATCHER_ORDER.filter((n) => n in FAMILY_MATCHERS));
    const jettons = ['JettonTransferBlockMatcher', 'PTonTransferMatcher', 'JettonBurnBlockMatcher', 'JettonMintBlockMatcher'];
    expect(names.filter((n) => jettons.includes(n))).toEqual(jettons);
  });

  it('unwinds contract deploys from inside matched blocks to the top level', () => {
    const trace = load('MyrAUqqz_XH2D5bUdRd-YYCVo7JEEzjWX00gGXRFLLY=.json');
    const list = withTraceContext(trace, () => processEventWithPostprocessing(trace));
    const deploys = list.filter((b) => b instanceof ContractDeploy);
    expect(deploys).toHaveLength(1);
    const mint = list.find((b) => b.btype === 'jetton_mint')!;
    const inside = mint.childrenBlocks.flatMap((c) => c.childrenBlocks);
    expect(inside).toContain(deploys[0]);
    // as upstream's, it is not idempotent: run again it lifts the same deploy once more
    expect(unwindDeployments([...list]).filter((b) => b instanceof ContractDeploy)).toHaveLength(2);
  });

  it('a failure while matching falls back to the basic blocks, state failed', () => {
    const trace = load(STONFI_JETTON_TO_TON);
    const broken: Trace = { ...trace, transactions: trace.transactions.map((t) => ({ ...t, outMsgs: [...t.outMsgs] })) };
    // an external-out message without content: upstream's EventNode refuses it
    const tx = broken.transactions.find((t) => t.outMsgs.length > 0)!;
    tx.outMsgs.push({ ...tx.outMsgs[0], hash: 'ff'.repeat(32), destination: null, body: null, createdLt: tx.lt + 99n });
    const res = classifyTrace(broken);
    expect(res.state).toBe('failed');
    expect(res.error?.name).toBe('NoMessageBodyException');
    expect(res.actions).toEqual([]);
    const ok = classifyTrace(trace);
    expect(ok.state).toBe('ok');
    expect(ok.actions.length).toBeGreaterThan(0);
  });
});

