import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { runGetMethod, TvmError } from '../../src/tvm/index.ts';

const FIX = join(import.meta.dirname, '../fixtures');
// slim mainnet config as BoC, from test/fixtures/config (see its MANIFEST row)
const config = Cell.fromBoc(readFileSync(join(FIX, 'config/mainnet-config-dict-sandbox-slim.boc')))[0];
const code = Cell.fromBoc(readFileSync(join(FIX, 'codes/wallet-v4r2.boc')))[0];
// wallet v4r2 data: seqno 7, subwallet 698983191, a public key, no plugins
const data = beginCell().storeUint(7, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32, 0xab)).storeBit(0).endCell();
const address = Address.parseRaw('0:' + 'cd'.repeat(32));

const run = (stack: TupleItem[]) => runGetMethod({ code, data, address, balance: 10n ** 9n, config, now: 1_700_000_000, method: 'seqno', stack });

describe('the shared TVM emulator', () => {
  it('is replaced after a failure inside its WebAssembly, so later get-methods still run', async () => {
    expect((await run([])).stack).toEqual([{ type: 'int', value: 7n }]);
    // a stack this deep breaks the emulator instance inside its WebAssembly (the v2 layer refuses such stacks first)
    const deep: TupleItem[] = Array.from({ length: 600 }, (_, i) => ({ type: 'int', value: BigInt(i) }));
    await expect(run(deep)).rejects.toBeInstanceOf(TvmError);
    const again = await run([]);
    expect(again.exitCode).toBe(0);
    expect(again.stack).toEqual([{ type: 'int', value: 7n }]);
  });
});
