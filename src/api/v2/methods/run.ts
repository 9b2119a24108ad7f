/** runGetMethod / runGetMethodStd: the TVM emulator on the account state fetched from a liteserver. */
import { Address, serializeTuple, type Cell, type TupleItem } from '@ton/core';
import type { AccountAddress } from '../../../format/index.ts';
import { runGetMethodParams } from '../../../../schemas/api/v2/params.ts';
import { ApiError, badParam } from '../../errors.ts';
import { MAX_STACK_DEPTH, methodIdOf, parseLegacyStack, parseTypedStack, runGetMethod, StackError, toLegacyStack, toTypedStack } from '../../../tvm/index.ts';
import { accountState, configAll, libraries, mcBlock, type BlockIdTl } from '../chain.ts';
import { blockIdJson, txIdJson } from '../convert.ts';
import { defineMethod, type V2Context } from '../method.ts';
import { viewOf, type AccountView } from './accounts.ts';

/** tonlib's exit code for a get-method on an account without code. */
export const EXIT_NOT_INITIALIZED = -13;

export interface LoadedContract {
  view: AccountView;
  address: AccountAddress;
  block: BlockIdTl;
  config: Cell;
}

export async function loadContract(ctx: V2Context, address: AccountAddress, seqno?: number): Promise<LoadedContract> {
  const node = ctx.node();
  const block = await mcBlock(node, seqno);
  const [st, config] = await Promise.all([accountState(node, address, block), configAll(node, block, ctx.configs)]);
  return { view: viewOf(st), address, block, config };
}

export interface GetMethodResult {
  exitCode: number;
  gasUsed: bigint;
  stack: TupleItem[];
}

/** Runs a get-method on a loaded contract; libraries the code references are fetched from the liteserver. */
export async function runOn(ctx: V2Context, c: LoadedContract, method: string | number, stack: TupleItem[]): Promise<GetMethodResult> {
  const { view } = c;
  if (view.state !== 'active' || !view.code || !view.data) return { exitCode: EXIT_NOT_INITIALIZED, gasUsed: 0n, stack: [] };
  const node = ctx.node();
  const r = await runGetMethod({
    code: view.code,
    data: view.data,
    address: Address.parseRaw(`${c.address.workchain}:${c.address.hash}`),
    balance: view.balance,
    config: c.config,
    now: view.res.syncUtime,
    method,
    stack,
    loadLibrary: async (hash) => (await libraries(node, [hash])).get(hash) ?? null,
  });
  return { exitCode: r.exitCode, gasUsed: r.gasUsed, stack: r.stack };
}

function methodOf(m: string | number): string | number {
  try {
    methodIdOf(m);
  } catch (e) {
    throw badParam('method', (e as Error).message);
  }
  return m;
}

/**
 * The emulator takes the stack as one serialized VmStack cell tree (each entry one level of the stack list, an
 * argument cell adds its own depth) and fails inside its WebAssembly on a tree much deeper than ~300 levels, which
 * also breaks the emulator instance for every later call: such a stack is refused here, 422 naming the bound.
 */
export const MAX_STACK_ENTRIES = 255;
export const MAX_STACK_DEPTH_CELLS = 256;

function countEntries(items: TupleItem[]): number {
  let n = 0;
  for (const i of items) n += 1 + (i.type === 'tuple' ? countEntries(i.items) : 0);
  return n;
}

export function checkStackFits(stack: TupleItem[]): void {
  const n = countEntries(stack);
  if (n > MAX_STACK_ENTRIES) throw badParam('stack', `${n} entries (tuple elements included); at most ${MAX_STACK_ENTRIES}`);
  const d = serializeTuple(stack).depth();
  if (d > MAX_STACK_DEPTH_CELLS) throw badParam('stack', `the stack with its cells serializes ${d} cells deep; at most ${MAX_STACK_DEPTH_CELLS}`);
}

function depth(items: TupleItem[], d = 0): number {
  let max = d;
  for (const i of items) if (i.type === 'tuple') max = Math.max(max, depth(i.items, d + 1));
  return max;
}

export const runGetMethodLegacy = defineMethod({
  name: 'runGetMethod',
  post_only: true,
  params: runGetMethodParams,
  async run(ctx, p) {
    const method = methodOf(p.method);
    const stack = parseLegacyStack(p.stack);
    checkStackFits(stack);
    const c = await loadContract(ctx, p.address, p.seqno);
    const r = await runOn(ctx, c, method, stack);
    return {
      '@type': 'smc.runResult',
      gas_used: Number(r.gasUsed),
      stack: toLegacyStack(r.stack),
      exit_code: r.exitCode,
      block_id: blockIdJson(c.block),
      last_transaction_id: txIdJson(c.view.res.lastTx.lt, c.view.res.lastTx.hash),
    };
  },
});

export const runGetMethodStd = defineMethod({
  name: 'runGetMethodStd',
  post_only: true,
  params: runGetMethodParams,
  async run(ctx, p) {
    const method = methodOf(p.method);
    const stack = parseTypedStack(p.stack);
    checkStackFits(stack);
    const c = await loadContract(ctx, p.address, p.seqno);
    const r = await runOn(ctx, c, method, stack);
    if (depth(r.stack) >= MAX_STACK_DEPTH) throw new ApiError(533, `result stack nesting is deeper than ${MAX_STACK_DEPTH}`);
    let typed;
    try {
      typed = toTypedStack(r.stack);
    } catch (e) {
      if (e instanceof StackError) throw new ApiError(533, e.message);
      throw e;
    }
    return {
      '@type': 'smc.runResult',
      gas_used: Number(r.gasUsed),
      stack: typed,
      exit_code: r.exitCode,
      block_id: blockIdJson(c.block),
      last_transaction_id: txIdJson(c.view.res.lastTx.lt, c.view.res.lastTx.hash),
    };
  },
});
