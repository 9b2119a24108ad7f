// Helpers of the DeFi family tests (staking, ethena, evaa, tgbtc, layerzero, cocoon): real traces of toncenter's
// suite (test/fixtures/traces/toncenter-indexer/json), the bodies of their messages, and the matcher-level harness
// for blocks another family file builds (nft.py's nft_mint is not ported on every branch).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Builder, beginCell, Cell } from '@ton/core';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { Block } from '../../src/actions/core.ts';
import type { Trace } from '../../src/actions/model.ts';
import { initBlock } from '../../src/actions/processing.ts';
import { toTree } from '../../src/actions/tree.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;

interface Doc {
  transactions: Array<{ messages: Array<{ direction: string; opcode: string | null; destination: string | null; message_content: { body: string } }> }>;
}
const doc = (f: string) => parseJsonExact(readFileSync(join(DIR, f), 'utf8')) as Doc;

export const load = (f: string): Trace => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, f), 'utf8')));

/** The body of the n-th message with this opcode in a fixture trace (received ones; `log` for external-out ones). */
export function bodyOf(file: string, opcode: number, opts: { n?: number; log?: boolean } = {}): Cell {
  let n = opts.n ?? 0;
  for (const t of doc(file).transactions) {
    for (const m of t.messages) {
      const dir = opts.log ? m.direction === 'out' && m.destination === null : m.direction === 'in';
      if (dir && m.opcode !== null && Number(m.opcode) >>> 0 === opcode && n-- === 0) return Cell.fromBase64(m.message_content.body);
    }
  }
  throw new Error(`no 0x${opcode.toString(16)} in ${file}`);
}

/** A body: opcode, then the rest written by `f` (a query id of 0 when `f` is absent). */
export function body(opcode: number, f?: (b: Builder) => Builder): Cell {
  const b = beginCell().storeUint(opcode, 32);
  return (f ? f(b) : b.storeUint(0, 64)).endCell();
}

/** A text comment body. */
export const comment = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

/** The basic block graph of a trace under a root block, as process_event builds it before matching. */
export function graph(trace: Trace): Block {
  const root = new Block('root', [], null);
  root.connect(initBlock(toTree(trace)));
  return root;
}

/** The top-level blocks of a graph (breadth first). */
export const topBlocks = (root: Block): Block[] => [...root.bfsIter()].filter((b) => b.btype !== 'root' && b.parent === null);

/** The action types of a classification, sorted. */
export const sortedTypes = (actions: Array<{ type: string }>): string[] => actions.map((a) => a.type).sort();
