/**
 * BoCs as the node serializes them (std_boc_serialize: its cell order, CRC32-C where toncenter uses it), checked
 * against real toncenter output: every BoC string in toncenter's own trace fixtures (message bodies and init states
 * with CRC, account data without) comes out byte for byte from the cells it encodes, through our serializer, through
 * the message decoder, and from a @ton/core cell (API v2's path).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell, Cell, storeMessage, Address, type Message } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { bocOfCell, decodeBlock, decodeMessage, nodeBoc, parseBoc, serializeBoc } from '../../src/ton/index.ts';
import { FIXTURES, fullBlocks, read } from './fixtures.ts';

const TRACES = join(FIXTURES, 'traces', 'toncenter-indexer', 'json');

interface Found {
  file: string;
  field: string;
  boc: string;
}

/** Every BoC string in toncenter's trace JSON, with the key it sits under. */
const toncenter: Found[] = readdirSync(TRACES)
  .sort()
  .flatMap((file) => {
    const text = readFileSync(join(TRACES, file), 'utf8');
    return [...text.matchAll(/"([a-z_]+)":\s*"(te6cc[A-Za-z0-9+/=]+)"/g)].map((m) => ({ file, field: m[1], boc: m[2] }));
  });

const bodies = toncenter.filter((f) => f.boc.startsWith('te6cck'));
const cellCount = (b64: string) => parseBoc(Buffer.from(b64, 'base64')).count;

describe('toncenter BoC strings', () => {
  it('are many, most of them multi-cell, bodies with CRC and account data without', () => {
    expect(toncenter.length).toBeGreaterThan(2500);
    expect(bodies.filter((f) => cellCount(f.boc) > 1).length).toBeGreaterThan(1500);
    expect(bodies.filter((f) => cellCount(f.boc) === 1).length).toBeGreaterThan(500);
    const noCrc = toncenter.filter((f) => !f.boc.startsWith('te6cck'));
    expect(noCrc.length).toBeGreaterThan(0);
    expect(new Set(noCrc.map((f) => f.field))).toEqual(new Set(['data_boc']));
    expect(noCrc.some((f) => cellCount(f.boc) > 40)).toBe(true);
  });

  it('come out byte for byte when their cells are serialized again (single- and multi-cell)', () => {
    const bad: string[] = [];
    for (const f of toncenter) {
      const buf = Buffer.from(f.boc, 'base64');
      const cells = parseBoc(buf);
      const out = serializeBoc(cells, cells.roots[0], { crc: f.boc.startsWith('te6cck') }).toString('base64');
      if (out !== f.boc) bad.push(`${f.file} ${f.field}`);
    }
    expect(bad).toEqual([]);
  });

  it('come out byte for byte from a @ton/core cell (nodeBoc, the API v2 path), where @ton/core itself differs', () => {
    let coreDiffers = 0;
    const bad: string[] = [];
    for (const f of bodies) {
      const cell = Cell.fromBase64(f.boc);
      if (nodeBoc(cell, { crc: true }).toString('base64') !== f.boc) bad.push(`${f.file} ${f.field}`);
      if (cell.toBoc({ idx: false, crc32: true }).toString('base64') !== f.boc) coreDiffers++;
    }
    expect(bad).toEqual([]);
    // the reason for nodeBoc: @ton/core orders a good share of these trees otherwise
    expect(coreDiffers).toBeGreaterThan(100);
  });

  it('come out of the message decoder for the same message, body by reference and inline, init state by reference', () => {
    const dest = Address.parse('0:' + '11'.repeat(32));
    const src = Address.parse('0:' + '22'.repeat(32));
    const msg = (body: Cell, init?: Cell): Buffer => {
      const m: Message = {
        info: { type: 'internal', ihrDisabled: true, bounce: true, bounced: false, src, dest, value: { coins: 1n }, ihrFee: 0n, forwardFee: 0n, createdLt: 1n, createdAt: 1 },
        init: init ? { code: init.refs[0], data: init.refs[1] } : undefined,
        body,
      };
      return beginCell().store(storeMessage(m, { forceRef: true })).endCell().toBoc();
    };
    const bad: string[] = [];
    let inline = 0;
    for (const f of bodies.filter((x) => x.field === 'body')) {
      const body = Cell.fromBase64(f.boc);
      const row = decodeMessage(msg(body));
      if (row.body_boc !== f.boc || row.body_hash !== body.hash().toString('hex')) bad.push(`${f.file} ref`);
      // a short body inline: the decoder rebuilds it as its own cell, as toncenter does
      if (body.bits.length <= 400 && body.refs.length <= 3) {
        const m = beginCell()
          .store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, body }, { forceRef: false }))
          .endCell();
        if (m.refs.length === body.refs.length) {
          inline++;
          if (decodeMessage(m.toBoc()).body_boc !== f.boc) bad.push(`${f.file} inline`);
        }
      }
    }
    expect(inline).toBeGreaterThan(300);
    expect(bad).toEqual([]);
  });

  it('init states (StateInit code + data) come out of the decoder as toncenter stores them', () => {
    const inits = toncenter.filter((f) => f.field === 'body' && f.boc.startsWith('te6cck'));
    let tried = 0;
    const bad: string[] = [];
    for (const f of inits) {
      const c = Cell.fromBase64(f.boc);
      // a StateInit: split_depth:0 special:0 code:1 data:1 library:0 with two refs
      if (c.bits.length !== 5 || c.refs.length !== 2) continue;
      tried++;
      const dest = Address.parse('0:' + '33'.repeat(32));
      const m = beginCell()
        .store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, init: { code: c.refs[0], data: c.refs[1] }, body: Cell.EMPTY }, { forceRef: true }))
        .endCell();
      const row = decodeMessage(m.toBoc());
      if (row.init_state_boc !== f.boc) bad.push(f.file);
    }
    expect(tried).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });
});

describe('decoded blocks', () => {
  it.each(fullBlocks().filter((b) => (b.tx_count ?? 0) > 0).map((b) => b.file))(
    '%s: every body and init state is a fixed point of the node serializer, with CRC, and @ton/core reads it to its hash',
    (file) => {
      const block = decodeBlock(read(file));
      let n = 0;
      for (const tx of block.transactions) {
        for (const m of tx.in_msg ? [tx.in_msg, ...tx.out_msgs] : tx.out_msgs) {
          for (const [boc, hash] of [[m.body_boc, m.body_hash], [m.init_state_boc, m.init_state_hash]] as const) {
            if (!boc) continue;
            n++;
            expect(boc.startsWith('te6cck')).toBe(true);
            expect(bocOfCell(Buffer.from(boc, 'base64'), { crc: true }).toString('base64')).toBe(boc);
            expect(Cell.fromBase64(boc).hash().toString('hex')).toBe(hash);
          }
        }
      }
      expect(n).toBeGreaterThan(0);
    },
  );

  it('account code and data come without CRC (latest_account_states as toncenter stores them), in the node order', () => {
    const block = decodeBlock(read('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc'));
    const withCode = block.account_states.filter((s) => s.code_boc);
    expect(withCode.length).toBeGreaterThan(0);
    for (const s of block.account_states) {
      for (const boc of [s.code_boc, s.data_boc]) {
        if (!boc) continue;
        expect(boc.startsWith('te6ccg')).toBe(true);
        expect(bocOfCell(Buffer.from(boc, 'base64')).toString('base64')).toBe(boc);
      }
    }
  });
});

describe('the serializer on hand-made trees', () => {
  it('writes a one-cell BoC byte for byte (header, sizes, CRC32-C little-endian)', () => {
    const c = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const cells = parseBoc(c.toBoc());
    const out = serializeBoc(cells, cells.roots[0], { crc: true });
    // magic, flags (crc, ref size 1), offset size 1, 1 cell, 1 root, 0 absent, 6 data bytes, root 0, d1 d2 data
    expect(out.subarray(0, out.length - 4).toString('hex')).toBe('b5ee9c72' + '41' + '01' + '01' + '01' + '00' + '06' + '00' + '0008deadbeef');
    // @ton/core agrees on a single cell, CRC included
    expect(out.equals(c.toBoc({ idx: false, crc32: true }))).toBe(true);
    expect(serializeBoc(cells, cells.roots[0]).equals(c.toBoc({ idx: false, crc32: false }))).toBe(true);
  });

  it('deduplicates equal subtrees by hash even when the input BoC repeats them', () => {
    const leaf = () => beginCell().storeUint(7, 8).endCell();
    const root = beginCell().storeRef(leaf()).storeRef(leaf()).endCell();
    // a hand-written BoC with the leaf twice: 3 cells, 10 data bytes (root 2 + 2 refs, leaves 3 each), root -> 1, 2
    const raw = Buffer.from('b5ee9c72' + '01' + '01' + '03' + '01' + '00' + '0a' + '00' + '02000102' + '000207' + '000207', 'hex');
    const cells = parseBoc(raw);
    expect(cells.count).toBe(3);
    const out = serializeBoc(cells, cells.roots[0]);
    expect(parseBoc(out).count).toBe(2);
    expect(out.equals(nodeBoc(root))).toBe(true);
  });
});

describe('extra_flags (int_msg_info after global version 12) and ihr_fee', () => {
  const dest = Address.parse('0:' + '44'.repeat(32));
  const src = Address.parse('0:' + '55'.repeat(32));
  // the field after `value` holds 3 (new bounce format + whole body): @ton/core writes it as ihrFee
  const boc = beginCell()
    .store(storeMessage({ info: { type: 'internal', ihrDisabled: true, bounce: true, bounced: false, src, dest, value: { coins: 5n }, ihrFee: 3n, forwardFee: 7n, createdLt: 9n, createdAt: 10 }, body: Cell.EMPTY }))
    .endCell()
    .toBoc();

  it('from version 12 the field is extra_flags and the IHR fee is 0', () => {
    const m = decodeMessage(boc, 12);
    expect([m.extra_flags, m.ihr_fee, m.fwd_fee]).toEqual([3n, 0n, 7n]);
  });

  it('before version 12 (and when the block names none) it is ihr_fee and the extra flags are 0', () => {
    for (const m of [decodeMessage(boc, 11), decodeMessage(boc)]) expect([m.extra_flags, m.ihr_fee, m.fwd_fee]).toEqual([0n, 3n, 7n]);
  });

  it("a block passes its own version (gen_software): a version 13 block's internal messages carry extra_flags 0, externals none", () => {
    const block = decodeBlock(read('blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc'));
    expect(block.info.gen_software?.version).toBe(13);
    const msgs = block.transactions.flatMap((t) => (t.in_msg ? [t.in_msg, ...t.out_msgs] : t.out_msgs));
    const ints = msgs.filter((m) => m.message_type === 'int');
    expect(ints.length).toBeGreaterThan(100);
    expect(ints.every((m) => m.extra_flags === 0n && m.ihr_fee === 0n)).toBe(true);
    const exts = msgs.filter((m) => m.message_type !== 'int');
    expect(exts.length).toBeGreaterThan(10);
    expect(exts.every((m) => m.extra_flags === null && m.ihr_fee === null)).toBe(true);
  });
});
