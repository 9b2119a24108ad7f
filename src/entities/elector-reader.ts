/**
 * The I/O edge of elector.ts: the elector's state at a masterchain block and the block's config, from a liteserver,
 * and its get-methods run in the emulator (src/tvm) as the worker runs them (its state, the block's config, NOW the
 * block's gen_utime, 10^9 gas: `run_get_method_at_time`, ELECTOR_GET_METHOD_GAS_LIMIT).
 *
 * The worker reads the elector's state after the block from its node's cell database. A block carries only the
 * elector's changed cells, so here the state comes from `liteServer.getAccountState` at the masterchain block, taken
 * only when its Account cell's hash is the block's end state of the elector; the config from `getConfigAll` at the
 * block. A batch whose elector is in no state of the block gets what the worker gives without one (cycles from the
 * config alone); a batch whose state or config a liteserver does not give, or gives otherwise, gets no elector rows
 * and its key block's cycles stay the config's alone (counted).
 */
import { Address, Cell, type TupleItem } from '@ton/core';
import type { BlockIdExt } from '../source/index.ts';
import { decodeAccount, type DecodedBlock } from '../ton/index.ts';
import { runGetMethod } from '../tvm/index.ts';
import { electorSnapshot, electorTriggers, hasWork, configParamReader, type ElectorGetMethod, type ElectorSnapshot } from './elector.ts';
import { blockIdExtOf } from './liteserver-codes.ts';
import { configOfProof } from './nominator-pool-replay.ts';

/** What the reader needs from the liteservers (`LiteserverPool` has it). */
export interface ElectorChainSource {
  getAccountStateBoc(address: Address, block: BlockIdExt | null, opts?: { attempts?: number; timeoutMs?: number }): Promise<{ block: BlockIdExt; state: Buffer }>;
  getConfigAllProof(id: BlockIdExt): Promise<Buffer>;
}

/** Per masterchain batch that needed the elector. */
export interface ElectorReadStats {
  /** read (get-methods run; some may have failed: `failed`) */
  read: number;
  /** the block has no elector state: cycles from the config alone, as the worker */
  no_state: number;
  /** a liteserver did not give the state or the config */
  unavailable: number;
  /** the state a liteserver gave is not the block's */
  mismatch: number;
  /** get-methods that failed or answered another shape */
  failed: number;
}

export const emptyElectorStats = (): ElectorReadStats => ({ read: 0, no_state: 0, unavailable: 0, mismatch: 0, failed: 0 });

/** The worker's ELECTOR_GET_METHOD_GAS_LIMIT: list_complaints of a full set's votes needs far more than 1M. */
const ELECTOR_GAS_LIMIT = 1_000_000_000n;

/** A runner of the elector's get-methods over one state (`code`, `data`), the block's config and time. */
export function electorGetMethod(state: { code: Cell; data: Cell; address: Address; balance: bigint }, config: Cell, now: number): ElectorGetMethod {
  return async (method: string, stack: TupleItem[]) => {
    const res = await runGetMethod({ ...state, config, now, method, stack, gasLimit: ELECTOR_GAS_LIMIT });
    if (res.exitCode !== 0 && res.exitCode !== 1) throw new Error(`${method} failed (exit code ${res.exitCode})`);
    return res.stack;
  };
}

export class ElectorReader {
  constructor(
    private readonly source: ElectorChainSource,
    private readonly opts: { timeoutMs?: number; log?: (msg: string) => void } = {},
  ) {}

  /**
   * The elector's rows of a masterchain batch (`blocks`: its shard blocks and the masterchain block; `elector`: config
   * param 1 as the traces stage knows it). Null when the batch asks nothing of the elector or nothing could be read.
   */
  async batchRows(blocks: readonly DecodedBlock[], elector: string | null, mcSeqno: number): Promise<{ snapshot: ElectorSnapshot | null; stats: ElectorReadStats }> {
    const stats = emptyElectorStats();
    const mc = blocks.find((b) => b.id.workchain === -1);
    const triggers = electorTriggers(blocks, elector);
    if (!mc || !hasWork(triggers)) return { snapshot: null, stats };
    const timeoutMs = this.opts.timeoutMs ?? 5_000;
    const id = blockIdExtOf(mc.id);
    // the worker's get_elector_account_state: the block's state of the elector, with code and data
    const end = elector ? mc.account_states.find((s) => s.account === elector && s.account_status === 'active' && s.code_hash && s.data_hash) : undefined;
    let config: Cell;
    let state: { code: Cell; data: Cell; address: Address; balance: bigint } | null = null;
    try {
      const [proof, acc] = await Promise.all([
        this.source.getConfigAllProof(id),
        end && elector ? this.source.getAccountStateBoc(Address.parse(elector), id, { attempts: 2, timeoutMs }) : null,
      ]);
      config = configOfProof(proof);
      if (acc && end && elector) {
        const cell = acc.state.length ? Cell.fromBoc(acc.state)[0] : null;
        if (!cell || cell.hash().toString('hex') !== end.hash.toLowerCase()) {
          stats.mismatch++;
          return { snapshot: null, stats };
        }
        const a = decodeAccount(acc.state);
        if (a.status !== 'active' || !a.code_boc || !a.data_boc) {
          stats.mismatch++;
          return { snapshot: null, stats };
        }
        state = { code: Cell.fromBase64(a.code_boc), data: Cell.fromBase64(a.data_boc), address: Address.parse(elector), balance: end.balance };
      }
    } catch (e) {
      stats.unavailable++;
      this.opts.log?.(`elector: no state or config at ${mcSeqno}: ${(e as Error).message}`);
      return { snapshot: null, stats };
    }
    if (state) stats.read++;
    else stats.no_state++;
    const run = state ? electorGetMethod(state, config, mc.info.gen_utime) : null;
    const snapshot = await electorSnapshot(triggers, run, configParamReader(config), mcSeqno);
    stats.failed += snapshot.failures.length;
    for (const f of snapshot.failures) this.opts.log?.(`elector at ${mcSeqno}: ${f}`);
    return { snapshot, stats };
  }
}
