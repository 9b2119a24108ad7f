// Real message bodies for hand-built traces (trace-builder.ts): taken from toncenter's trace fixtures
// (test/fixtures/traces/toncenter-indexer/json) and from the real blocks of test/fixtures/blocks (decoded with our
// own block decoder), by opcode. Provenance of both: test/fixtures/MANIFEST.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import type { Trace } from '../../src/actions/model.ts';
import { decodeBlock } from '../../src/ton/index.ts';

const FIX = new URL('../fixtures/', import.meta.url).pathname;
const TRACES = join(FIX, 'traces/toncenter-indexer/json');

type Doc = { transactions: Array<{ messages: Array<{ direction: string; opcode: string | number | null; message_content: { body: string } }> }> };

/** A toncenter fixture trace as the classifier reads it. */
export function loadTrace(file: string): Trace {
  return traceFromToncenterJson(parseJsonExact(readFileSync(join(TRACES, file), 'utf8')));
}

/** The body of the `nth` received message with this opcode in a toncenter fixture trace. */
export function traceBody(file: string, opcode: number, nth = 0): Cell {
  const doc = parseJsonExact(readFileSync(join(TRACES, file), 'utf8')) as Doc;
  const found: Cell[] = [];
  for (const t of doc.transactions) {
    for (const m of t.messages) if (m.direction === 'in' && m.opcode !== null && Number(m.opcode) >>> 0 === opcode) found.push(Cell.fromBase64(m.message_content.body));
  }
  if (found.length <= nth) throw new Error(`no 0x${opcode.toString(16)} #${nth} in ${file}`);
  return found[nth];
}

const blocks = new Map<string, ReturnType<typeof decodeBlock>>();

/** The body of the first message (received or sent) with this opcode in a real block of test/fixtures/blocks. */
export function blockBody(file: string, opcode: number): Cell {
  let b = blocks.get(file);
  if (!b) blocks.set(file, (b = decodeBlock(readFileSync(join(FIX, 'blocks', file)))));
  for (const tx of b.transactions) {
    for (const m of [tx.in_msg, ...tx.out_msgs]) if (m && m.opcode !== null && m.opcode >>> 0 === opcode) return Cell.fromBase64(m.body_boc);
  }
  throw new Error(`no 0x${opcode.toString(16)} in ${file}`);
}

/** A contract code of test/fixtures/codes and its hash in toncenter's form (base64). */
export function fixtureCode(file: string): { code: Cell; hashB64: string } {
  const code = Cell.fromBoc(readFileSync(join(FIX, 'codes', file)))[0];
  return { code, hashB64: code.hash().toString('base64') };
}
