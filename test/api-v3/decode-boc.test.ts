// The BoC text ton-marker prints for Cell fields (and decodes again) is the node's std_boc_serialize order:
// every base64 BoC the toncenter indexer stored in the trace fixtures (te6cck: with CRC32C) must come out of
// stdBocSerialize byte for byte. Then every real message body of those traces goes through the decoder:
// it returns valid JSON or an "unknown: ..." reason, never throws.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBocRecursive, stdBocSerialize } from '../../src/api/v3/decode/index.ts';
import { FIXTURES } from './helpers.ts';

const DIR = join(FIXTURES, 'traces/toncenter-indexer/json');
const traces = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as unknown);

function strings(o: unknown, out: Set<string>): Set<string> {
  if (typeof o === 'string') out.add(o);
  else if (Array.isArray(o)) for (const x of o) strings(x, out);
  else if (o && typeof o === 'object') for (const x of Object.values(o)) strings(x, out);
  return out;
}

describe('std_boc_serialize order', () => {
  it('re-serializes every BoC of the toncenter trace fixtures to the same text', () => {
    const all = new Set<string>();
    for (const t of traces) strings(t, all);
    const bocs = [...all].filter((s) => s.startsWith('te6cck'));
    let multi = 0;
    const diff: string[] = [];
    for (const b of bocs) {
      const c = Cell.fromBase64(b);
      if (c.refs.length) multi++;
      if (stdBocSerialize(c, { crc: true }).toString('base64') !== b) diff.push(b.slice(0, 60));
    }
    expect(diff).toEqual([]);
    expect(bocs.length).toBeGreaterThan(500);
    expect(multi).toBeGreaterThan(300);
  });

  it('without CRC: the te6ccg text ton-marker prints (single- and multi-cell)', () => {
    const single = new Cell();
    expect(stdBocSerialize(single).toString('base64')).toBe('te6ccgEBAQEAAgAAAA==');
    const b = [...strings(traces, new Set<string>())].find((s) => s.startsWith('te6cck') && Cell.fromBase64(s).refs.length > 1)!;
    const c = Cell.fromBase64(b);
    const plain = stdBocSerialize(c);
    expect(plain.toString('base64').startsWith('te6ccg')).toBe(true);
    // the same bytes without the 4-byte CRC and with the has_crc32c flag cleared
    const withCrc = Buffer.from(b, 'base64');
    expect(plain.subarray(5)).toEqual(withCrc.subarray(5, withCrc.length - 4));
    expect(Cell.fromBoc(plain)[0].equals(c)).toBe(true);
  });
});

describe('every real body of the trace fixtures', () => {
  it('decodes to JSON or an "unknown: ..." reason', () => {
    const bodies = new Set<string>();
    for (const t of traces) for (const m of (t as { message_contents?: { body?: string }[] }).message_contents ?? []) if (m.body) bodies.add(m.body);
    expect(bodies.size).toBeGreaterThan(500);
    let decoded = 0;
    const bad: string[] = [];
    for (const body of bodies) {
      const out = decodeBocRecursive(body);
      if (out.startsWith('unknown')) continue;
      try {
        const v = JSON.parse(out) as Record<string, unknown>;
        if (typeof v['@type'] !== 'string') bad.push(out.slice(0, 120));
        decoded++;
      } catch {
        bad.push(out.slice(0, 120));
      }
    }
    expect(bad).toEqual([]);
    expect(decoded / bodies.size).toBeGreaterThan(0.5);
  });
});
