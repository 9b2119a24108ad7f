// The boundary rules of eslint.config.js (`npx eslint .` keeps them): another stage only through its index.ts,
// no upward or sideways import between floors. Probes linted as if they sat in the tree; the tree itself lints clean.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

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
    expect(await restricted('src/store/probe.ts', "import { parseTxDoc } from './docs.ts';\nexport const a = parseTxDoc;\n")).toEqual([]);
  });
});
