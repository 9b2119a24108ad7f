// The boundary rules of eslint.config.js (`npx eslint .` keeps them): another stage only through its index.ts,
// no upward or sideways import between floors, the same inside src/ton, src/store and src/api (SUB_FLOORS), and the
// function-length rule with its list of the functions longer today. Probes linted as if they sat in the tree; the
// tree itself lints clean.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

async function messagesOf(rule: string, file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  return r.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}
const subFloors = (file: string, code: string) => messagesOf('house/sub-floors', file, code);
const length = (file: string, code: string) => messagesOf('house/function-length', file, code);

/** A function of `n` counted lines (blank and comment lines between them are not counted). */
const fn = (name: string, n: number) => `export function ${name}(): number {\n  let x = 0;\n${Array.from({ length: n - 4 }, (_, i) => `  x += ${i};\n\n  // ${i}\n`).join('')}  return x;\n}\n`;

describe('import boundaries', () => {
  it('another stage only through its index.ts', async () => {
    expect(await restricted('src/api/v3/probe.ts', "import { decodeBlock } from '../../ton/block/decode.ts';\nexport const a = decodeBlock;\n")).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    expect(await restricted('pipelines/probe.ts', "import { BoundedMap } from '../src/util/bounded-map.ts';\nexport const a = BoundedMap;\n")).toHaveLength(1);
    expect(await restricted('src/api/v3/probe.ts', "import { decodeBlock } from '../../ton/index.ts';\nexport const a = decodeBlock;\n")).toEqual([]);
  });

  it('no upward or sideways import', async () => {
    expect(await restricted('src/ton/probe.ts', "import { openStore } from '../store/index.ts';\nexport const a = openStore;\n")).toEqual([
      expect.stringMatching(/no upward or sideways import: ton .* store/),
    ]);
    expect(await restricted('src/contracts/probe.ts', "import { classifyTrace } from '../actions/index.ts';\nexport const a = classifyTrace;\n")).toHaveLength(1);
    expect(await restricted('src/store/probe.ts', "import { classifyTrace } from '../actions/index.ts';\nexport const a = classifyTrace;\n")).toHaveLength(1);
    expect(await restricted('src/traces/probe.ts', "import { classifyTrace } from '../actions/index.ts';\nexport const a = classifyTrace;\n")).toEqual([]);
  });

  it('an import within a stage is free', async () => {
    expect(await restricted('src/store/read/probe.ts', "import { tableCounts } from './read.ts';\nexport const a = tableCounts;\n")).toEqual([]);
    expect(await subFloors('src/store/read/probe.ts', "import { tableCounts } from './read.ts';\nexport const a = tableCounts;\n")).toEqual([]);
  });

  it('bench/ stands on the top floor: the stages only through their index.ts', async () => {
    expect(await restricted('bench/probe.ts', "import { encodeNative } from '../src/store/client/native.ts';\nexport const a = encodeNative;\n")).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    expect(await restricted('bench/probe.ts', "import { encodeNative } from '../src/store/client/index.ts';\nexport const a = encodeNative;\n")).toEqual([]);
    expect(await restricted('src/cli/probe.ts', "import { x } from '../../bench/api.ts';\nexport const a = x;\n")).toEqual([expect.stringMatching(/no upward or sideways import: cli .* bench/)]);
  });
});

describe('floors inside src/ton, src/store, src/api', () => {
  it('src/ton: the TL-B readers stand below the block decoder', async () => {
    expect(await subFloors('src/ton/tlb/probe.ts', "import type { DecodedBlock } from '../block/types.ts';\nexport type A = DecodedBlock;\n")).toEqual([
      expect.stringMatching(/no upward or sideways import in src\/ton: tlb .* block/),
    ]);
    expect(await subFloors('src/ton/block/probe.ts', "import { rawAddress } from '../tlb/common.ts';\nexport const a = rawAddress;\n")).toEqual([]);
  });

  it('src/store: its parts by floor, each through its index.ts', async () => {
    expect(await subFloors('src/store/client/probe.ts', "import { tableCounts } from '../read/index.ts';\nexport const a = tableCounts;\n")).toEqual([
      expect.stringMatching(/no upward or sideways import in src\/store: client .* read/),
    ]);
    expect(await subFloors('src/store/write/probe.ts', "import { readStates } from '../traces/index.ts';\nexport const a = readStates;\n")).toEqual([
      expect.stringMatching(/no upward or sideways import in src\/store: write .* traces/),
    ]);
    expect(await subFloors('src/store/read/probe.ts', "import { openClient } from '../client/client.ts';\nexport const a = openClient;\n")).toEqual([
      expect.stringMatching(/another part of src\/store only through its index\.ts/),
    ]);
    expect(await subFloors('src/store/read/probe.ts', "import { openClient } from '../client/index.ts';\nexport const a = openClient;\n")).toEqual([]);
  });

  it('src/api/v3: queries return rows, render.ts renders them, the routes call both', async () => {
    expect(await subFloors('src/api/v3/queries/probe.ts', "import { transactionsJson } from '../render.ts';\nexport const a = transactionsJson;\n")).toEqual([
      expect.stringMatching(/no upward or sideways import in src\/api\/v3: queries .* render\.ts/),
    ]);
    expect(await subFloors('src/api/v3/routes/probe.ts', "import { transactionsJson } from '../render.ts';\nimport { findTransactions } from '../queries/transactions.ts';\nexport const a = [transactionsJson, findTransactions];\n")).toEqual([]);
  });

  it('a part that has no floor yet is named', async () => {
    expect(await subFloors('src/ton/probe.ts', "import { DecodeError } from './errors.ts';\nexport const a = DecodeError;\n")).toEqual([
      expect.stringMatching(/src\/ton\/probe\.ts has no floor/),
    ]);
  });
});

describe('function length', () => {
  it(`a function of more than 100 counted lines is refused; blank and comment lines do not count`, async () => {
    expect(await length('src/util/probe.ts', fn('short', 100))).toEqual([]);
    expect(await length('src/util/probe.ts', fn('long', 101))).toEqual([expect.stringMatching(/^long has 101 lines \(at most 100\)/)]);
  });

  it('a listed function may shrink, never grow; the list says when an entry is stale', async () => {
    // LONG_FUNCTIONS is empty today: the rule's option lists a probe's function instead, as LONG_FUNCTIONS would
    const listed = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'house/function-length': ['error', { long: { 'src/util/probe.ts:listed': 150 } }] } } });
    const lengthListed = async (code: string) => {
      const [r] = await listed.lintText(code, { filePath: resolve(ROOT, 'src/util/probe.ts') });
      return r.messages.filter((m) => m.ruleId === 'house/function-length').map((m) => m.message);
    };
    expect(await lengthListed(fn('listed', 150))).toEqual([]);
    expect(await lengthListed(fn('listed', 500))).toEqual([expect.stringMatching(/^listed has 500 lines: it is listed at 150 .* may only get shorter/)]);
    expect(await lengthListed(fn('listed', 120))).toEqual([expect.stringMatching(/listed has 120 lines now: lower its entry in LONG_FUNCTIONS from 150 to 120/)]);
    expect(await lengthListed(fn('listed', 60))).toEqual([expect.stringMatching(/listed has 60 lines now: take it off LONG_FUNCTIONS/)]);
    expect(await lengthListed(fn('other', 60))).toEqual([expect.stringMatching(/listed is listed in LONG_FUNCTIONS but not found/)]);
    // and the real list: a function of today's tree at more than 100 lines is refused, as nothing is listed
    expect(await length('src/kv/reads.ts', fn('kvPointReads', 120))).toEqual([expect.stringMatching(/^kvPointReads has 120 lines \(at most 100\)/)]);
  });
});
