/**
 * Conformance runner over a directory in toncenter's test layout:
 * `DIR/test_cases/*.yaml` (cases: trace-id, expected-blocks, expected-actions) and
 * `DIR/json/<trace id base64url>.json` (decoded traces).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { hashToBase64, hashToBase64Url, tryParseHash } from '../../../src/format/index.ts';
import { traceFromToncenterJson, parseJsonExact } from '../../../src/actions/adapters/toncenter-json.ts';
import { classifyTrace } from '../../../src/actions/classify.ts';
import type { Block } from '../../../src/actions/core.ts';
import type { ActionRow } from '../../../src/actions/model.ts';
import { Asset } from '../../../src/actions/ton-utils.ts';
import { checkEntry, Mismatch, type ExpectedEntry } from './check.ts';

export class ConformanceInputError extends Error {}

export interface ConformanceCase {
  file: string;
  name: string;
  traceId: string;
  expectedBlocks: ExpectedEntry[];
  expectedActions: ExpectedEntry[];
}

export interface CaseResult {
  case: ConformanceCase;
  ok: boolean;
  failures: string[];
}

/** Reads every case of `DIR/test_cases/*.yaml` (files in name order, cases in file order). */
export function loadCases(dir: string): ConformanceCase[] {
  const tcDir = join(dir, 'test_cases');
  if (!existsSync(tcDir)) throw new ConformanceInputError(`${tcDir} does not exist (expected DIR/test_cases/*.yaml)`);
  const out: ConformanceCase[] = [];
  for (const file of readdirSync(tcDir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    let doc: unknown;
    try {
      doc = YAML.parse(readFileSync(join(tcDir, file), 'utf8'), { intAsBigInt: true });
    } catch (e) {
      throw new ConformanceInputError(`${file}: invalid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    const cases = (doc as { cases?: Record<string, Record<string, unknown>> } | null)?.cases ?? {};
    for (const [name, c] of Object.entries(cases)) {
      const traceId = c?.['trace-id'];
      if (typeof traceId !== 'string') throw new ConformanceInputError(`${file}: case "${name}" has no trace-id`);
      out.push({
        file,
        name,
        traceId,
        expectedBlocks: (c['expected-blocks'] as ExpectedEntry[] | undefined) ?? [],
        expectedActions: (c['expected-actions'] as ExpectedEntry[] | undefined) ?? [],
      });
    }
  }
  return out;
}

/** DIR/json/<trace id base64url>.json; the id as the case spells it and standard base64 are accepted too. */
export function traceFile(dir: string, traceId: string): string {
  const h = tryParseHash(traceId);
  if (!h) throw new ConformanceInputError(`invalid trace-id ${JSON.stringify(traceId)}`);
  const names = [hashToBase64Url(h.hex), traceId, hashToBase64(h.hex)].filter((x) => !x.includes('/'));
  const found = names.map((n) => join(dir, 'json', `${n}.json`)).find((f) => existsSync(f));
  return found ?? join(dir, 'json', `${names[0]}.json`);
}

const b64 = (h: string | null) => (h ? hashToBase64(h) : null);

/** An action row in the reference's comparison form (hashes base64, everything else as stored). */
export function comparableRow(r: ActionRow): Record<string, unknown> {
  return {
    ...r,
    trace_id: b64(r.trace_id),
    tx_hashes: r.tx_hashes.map((h) => hashToBase64(h)),
    trace_external_hash: b64(r.trace_external_hash),
    trace_external_hash_norm: b64(r.trace_external_hash_norm),
  };
}

/** Block data in comparison form: assets as their JSON form ("TON" or the master), bytes as hex, the rest as is. */
function comparableData(v: unknown): unknown {
  if (v instanceof Asset) return v.toJson();
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (Array.isArray(v)) return v.map(comparableData);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, comparableData(x)]));
  }
  return v;
}

/**
 * A block in the reference's comparison form: what its YAML paths and selectors reach on upstream's `Block`
 * (`value.min_lt` in a selector is the block's attribute there): type, data, flags and lt / utime bounds.
 */
export function comparableBlock(b: Block): Record<string, unknown> {
  return {
    btype: b.btype,
    data: comparableData(b.data ?? {}),
    failed: b.failed,
    broken: b.broken,
    is_ghost_block: b.isGhostBlock,
    min_lt: b.minLt,
    max_lt: b.maxLt,
    min_utime: b.minUtime,
    max_utime: b.maxUtime,
    min_lt_without_initiating_tx: b.minLtWithoutInitiatingTx,
  };
}

export function runCase(dir: string, c: ConformanceCase): CaseResult {
  const failures: string[] = [];
  const file = traceFile(dir, c.traceId);
  if (!existsSync(file)) return { case: c, ok: false, failures: [`trace file not found: ${file}`] };
  let actions: Record<string, unknown>[];
  let blocks: Record<string, unknown>[];
  try {
    const trace = traceFromToncenterJson(parseJsonExact(readFileSync(file, 'utf8')));
    const res = classifyTrace(trace);
    actions = res.actions.map(comparableRow);
    blocks = res.blocks.map(comparableBlock);
  } catch (e) {
    return { case: c, ok: false, failures: [`classification failed: ${(e as Error).message}`] };
  }
  const typeOfAction = (x: unknown) => String((x as { type: string }).type);
  const typeOfBlock = (x: unknown) => String((x as { btype: string }).btype);
  for (const e of c.expectedBlocks) {
    try {
      checkEntry('block', e, blocks, typeOfBlock);
    } catch (err) {
      if (!(err instanceof Mismatch)) throw err;
      failures.push(err.message);
    }
  }
  for (const e of c.expectedActions) {
    try {
      checkEntry('action', e, actions, typeOfAction);
    } catch (err) {
      if (!(err instanceof Mismatch)) throw err;
      failures.push(err.message);
    }
  }
  return { case: c, ok: failures.length === 0, failures };
}
