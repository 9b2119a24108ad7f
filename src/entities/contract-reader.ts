/**
 * Runs get-methods of one account state in the TVM emulator (src/tvm), on the data as the block carries it.
 *
 * A block's state_update prunes unchanged subtrees of the data (pruned branch cells), and the emulator refuses a
 * data cell with pruned branches outright. Each pruned branch is therefore replaced by a library cell naming the
 * pruned cell's hash: a get-method that only passes the subtree along (get_jetton_data returning the wallet code)
 * still runs, and the value it returns is recognised as "pruned, hash H"; a get-method that reads into the
 * subtree hits an unresolvable library and fails, so nothing is ever computed from made-up bytes.
 */
import { Address, beginCell, Cell, CellType, type Slice, type TupleItem } from '@ton/core';
import { slimConfig } from '@ton/sandbox/dist/config/slimConfig.js';
import { methodsOfCode, rawAddress } from '../contracts/index.ts';
import { methodIdOf, runGetMethod } from '../tvm/index.ts';

// Get-methods of these contracts do not read the blockchain config; the small config keeps a run at ~2 ms
// (the full default config costs ~15 ms to hand to the emulator each run). A constant: cells never change.
const SLIM_CONFIG = Cell.fromBase64(slimConfig);

const GAS_LIMIT = 1_000_000n;

export class GetMethodError extends Error {
  constructor(readonly method: string, readonly exitCode: number | null, message: string) {
    super(message);
    this.name = 'GetMethodError';
  }
}

function libraryCell(hash: Buffer): Cell {
  return beginCell().storeUint(CellType.Library, 8).storeBuffer(hash).endCell({ exotic: true });
}

/** The data with pruned branches swapped for library cells; `pruned` collects the hashes swapped. */
export function standInPruned(cell: Cell, pruned: Set<string>): Cell {
  if (cell.isExotic && cell.type === CellType.PrunedBranch) {
    const h = cell.hash(0);
    pruned.add(h.toString('hex'));
    return libraryCell(h);
  }
  if (cell.level() === 0) return cell;
  const b = beginCell().storeBits(cell.bits);
  for (const r of cell.refs) b.storeRef(standInPruned(r, pruned));
  return b.endCell({ exotic: cell.isExotic });
}

export interface StateInput {
  account: string;
  balance: bigint;
  /** gen_utime of the block: NOW of the get-method */
  timestamp: number;
}

export class ContractReader {
  readonly address: Address;
  readonly data: Cell;
  /** hashes (hex) of the subtrees the block pruned */
  readonly pruned = new Set<string>();

  constructor(readonly code: Cell, data: Cell, readonly state: StateInput) {
    this.address = Address.parseRaw(state.account);
    this.data = standInPruned(data, this.pruned);
  }

  /** True when `cell` stands for a subtree the block pruned. */
  isPruned(cell: Cell): boolean {
    return cell.isExotic && cell.type === CellType.Library && this.pruned.has(cell.beginParse(true).skip(8).loadBuffer(32).toString('hex'));
  }

  /** True when `cell` or any cell below it was pruned (its contents cannot be read whole). */
  touchesPruned(cell: Cell): boolean {
    if (this.isPruned(cell)) return true;
    return cell.refs.some((r) => this.touchesPruned(r));
  }

  /** The original hash of a cell (the pruned cell's hash for a stand-in). */
  hashOf(cell: Cell): string {
    return this.isPruned(cell) ? cell.beginParse(true).skip(8).loadBuffer(32).toString('hex') : cell.hash().toString('hex');
  }

  /** True when the code's method table declares `method` (false: no standard table, or not in it). */
  hasMethod(method: string): boolean {
    return methodsOfCode(this.code.hash().toString('hex'), this.code)?.includes(methodIdOf(method)) ?? false;
  }

  async get(method: string, stack: TupleItem[] = []): Promise<Stack> {
    let out;
    try {
      out = await runGetMethod({
        code: this.code,
        data: this.data,
        address: this.address,
        balance: this.state.balance,
        config: SLIM_CONFIG,
        now: this.state.timestamp,
        method,
        stack,
        gasLimit: GAS_LIMIT,
      });
    } catch (e) {
      throw new GetMethodError(method, null, `${method}: ${(e as Error).message}`);
    }
    // 0 and 1 are the two success codes of TVM
    if (out.exitCode !== 0 && out.exitCode !== 1) throw new GetMethodError(method, out.exitCode, `${method}: exit code ${out.exitCode}`);
    return new Stack(method, out.stack);
  }
}

/** Typed access to a get-method's result, in the order the contract returns it. */
export class Stack {
  constructor(readonly method: string, readonly items: TupleItem[]) {}

  private at(i: number): TupleItem {
    const it = this.items[i];
    if (!it) throw new GetMethodError(this.method, null, `${this.method}: ${this.items.length} results, wanted #${i}`);
    return it;
  }

  private bad(i: number, want: string): never {
    throw new GetMethodError(this.method, null, `${this.method}: result #${i} is ${this.items[i]?.type}, wanted ${want}`);
  }

  isNull(i: number): boolean {
    return this.at(i).type === 'null';
  }

  int(i: number): bigint {
    const it = this.at(i);
    return it.type === 'int' ? it.value : this.bad(i, 'int');
  }

  intOrNull(i: number): bigint | null {
    return this.isNull(i) ? null : this.int(i);
  }

  bool(i: number): boolean {
    return this.int(i) !== 0n;
  }

  /** A small int as a JS number (times, factors); throws when out of the safe range. */
  num(i: number): number {
    const v = this.int(i);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) this.bad(i, 'a small int');
    return Number(v);
  }

  cell(i: number): Cell | null {
    const it = this.at(i);
    if (it.type === 'null') return null;
    return it.type === 'cell' || it.type === 'slice' || it.type === 'builder' ? it.cell : this.bad(i, 'cell');
  }

  slice(i: number): Slice {
    const it = this.at(i);
    return it.type === 'slice' || it.type === 'cell' ? it.cell.beginParse() : this.bad(i, 'slice');
  }

  /** MsgAddress slice -> raw `wc:HEX`; addr_none (and an empty slice or null) -> null. */
  address(i: number): string | null {
    if (this.isNull(i)) return null;
    const s = this.slice(i);
    if (s.remainingBits === 0) return null;
    const a = s.loadAddressAny();
    return a instanceof Address ? rawAddress(a) : null;
  }

  tuple(i: number): TupleItem[] {
    const it = this.at(i);
    return it.type === 'tuple' ? it.items : this.bad(i, 'tuple');
  }
}
