// labels.py: `labeled(label, matcher, call_build_block)` — the labelled block is the wrapped matcher's own build
// (newer upstream's labels.py; liquidity.py's DeDust deposit labels its jetton excess payouts that way).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/actions/adapters/toncenter-json.ts';
import { getLabeled } from '../../src/actions/block-utils.ts';
import { withTraceContext } from '../../src/actions/context.ts';
import { Block } from '../../src/actions/core.ts';
import { JettonTransferBlock, JettonTransferBlockMatcher } from '../../src/actions/families/jettons.ts';
import { labeled } from '../../src/actions/labels.ts';
import type { AccountInterfaces } from '../../src/actions/model.ts';
import { initBlock } from '../../src/actions/processing.ts';
import { toTree } from '../../src/actions/tree.ts';
import { addr, buildTrace } from './trace-builder.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;
const STONFI = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json';
function bodyOf(file: string, opcode: number): Cell {
  const doc = parseJsonExact(readFileSync(join(DIR, file), 'utf8')) as { transactions: Array<{ messages: Array<{ direction: string; opcode: string | null; message_content: { body: string } }> }> };
  for (const t of doc.transactions) for (const m of t.messages) if (m.direction === 'in' && m.opcode !== null && Number(m.opcode) >>> 0 === opcode) return Cell.fromBase64(m.message_content.body);
  throw new Error(`no 0x${opcode.toString(16)}`);
}

const USER = addr(0, 'a1'), SENDER_WALLET = addr(0, 'b2'), RECEIVER_WALLET = addr(0, 'c3'), RECEIVER = addr(0, 'd4'), MASTER = addr(0, 'e5');
const jw = (owner: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton: MASTER, balance: 0 } } });

describe('labeled(..., callBuildBlock)', () => {
  const spec = { account: USER, from: null, out: [{ account: SENDER_WALLET, from: USER, body: bodyOf(STONFI, 0x0f8a7ea5), out: [{ account: RECEIVER_WALLET, from: SENDER_WALLET, body: bodyOf(STONFI, 0x178d4519) }] }] };
  const trace = buildTrace(spec, { interfaces: { [RECEIVER_WALLET]: jw(RECEIVER), [SENDER_WALLET]: jw(USER) } });
  const transferCall = () => {
    const root = new Block('root', [], null);
    root.connect(initBlock(toTree(trace)));
    return root.nextBlocks[0].nextBlocks[0];
  };

  it('labels the block the wrapped matcher builds', () => {
    withTraceContext(trace, () => {
      const r = labeled('jetton_excess', new JettonTransferBlockMatcher(), true).tryBuild(transferCall())!;
      const t = getLabeled('jetton_excess', r, JettonTransferBlock);
      expect(t).not.toBeNull();
      expect(t!.btype).toBe('jetton_transfer');
      expect(r.filter((b) => b.btype === 'jetton_transfer')).toHaveLength(1);
    });
  });

  it('without it, labels the block the matcher tested (a call_contract here)', () => {
    withTraceContext(trace, () => {
      const r = labeled('jetton_excess', new JettonTransferBlockMatcher()).tryBuild(transferCall())!;
      expect(getLabeled('jetton_excess', r, JettonTransferBlock)).toBeNull();
      expect(getLabeled('jetton_excess', r)!.btype).toBe('call_contract');
    });
  });

  it('a wrapped build that makes nothing is no match (upstream indexes the empty result)', () => {
    const unknownWallets = buildTrace(spec); // no interface records: the transfer matcher builds nothing
    withTraceContext(unknownWallets, () => {
      const root = new Block('root', [], null);
      root.connect(initBlock(toTree(unknownWallets)));
      expect(labeled('x', new JettonTransferBlockMatcher(), true).tryBuild(root.nextBlocks[0].nextBlocks[0])).toBeNull();
    });
  });
});
