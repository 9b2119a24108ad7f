/**
 * ↔ indexer/events/blocks/core.py: blocks, their links and how matchers merge them.
 *
 * Every event node starts as a basic block (basic-blocks.ts) linked to the blocks of its children
 * (`nextBlocks` / `previousBlock`). A matcher that recognises a pattern builds a new block and `mergeBlocks`
 * folds the matched blocks into it: they become its `childrenBlocks` (with `parent` set), their nodes its
 * nodes, and the blocks that followed them its `nextBlocks`. The block before the earliest merged one is
 * re-linked to the new block (`compactConnections`).
 */
import type { Slice } from '@ton/core';
import { cellFromBoc } from '../contracts/index.ts';
import type { AccountId } from './ton-utils.ts';
import type { EventNode, Message } from './tree.ts';

function directionForBlock(block: Block): number {
  if (block.eventNodes.length === 1) return block.eventNodes[0].message.direction === 'out' ? 1 : 0;
  return 2;
}

/**
 * `_ensure_earliest_common_block`: the block with the lowest (min_lt_without_initiating_tx, direction), provided
 * every other block hangs off a block already seen in that order; null when one does not. Blocks without a
 * previous block are passed over (as upstream does).
 */
export function ensureEarliestCommonBlock(blocks: Block[]): Block | null {
  const sorted = [...blocks].sort((a, b) => {
    if (a.minLtWithoutInitiatingTx !== b.minLtWithoutInitiatingTx) return a.minLtWithoutInitiatingTx < b.minLtWithoutInitiatingTx ? -1 : 1;
    return directionForBlock(a) - directionForBlock(b);
  });
  const earliest = sorted[0];
  const connected = [earliest];
  for (const block of sorted) {
    if (connected.includes(block)) continue;
    if (block.previousBlock !== null) {
      if (connected.includes(block.previousBlock)) {
        connected.push(block);
        continue;
      }
      return null;
    }
  }
  return earliest;
}

export class AccountFlow {
  ton = 0n;
  fees = 0n;
  jettons = new Map<string, bigint>();

  merge(other: AccountFlow): void {
    this.ton += other.ton;
    this.fees += other.fees;
    for (const [jetton, amount] of other.jettons) this.jettons.set(jetton, (this.jettons.get(jetton) ?? 0n) + amount);
  }

  toDict(): { ton: string; fees: string; jettons: Record<string, string> } {
    return { ton: this.ton.toString(), fees: this.fees.toString(), jettons: Object.fromEntries([...this.jettons].map(([j, a]) => [j, a.toString()])) };
  }
}

/** Keys are accounts as raw strings; upstream's `AccountId(None)` key is `addr_none`. */
const flowKey = (a: AccountId): string => a ?? 'addr_none';

export class AccountValueFlow {
  flow = new Map<string, AccountFlow>();

  private of(account: AccountId): AccountFlow {
    const k = flowKey(account);
    let f = this.flow.get(k);
    if (!f) this.flow.set(k, (f = new AccountFlow()));
    return f;
  }

  addTon(account: AccountId, amount: bigint): void {
    this.of(account).ton += amount;
  }

  addJetton(account: AccountId, jetton: AccountId, amount: bigint): void {
    const f = this.of(account);
    const k = flowKey(jetton);
    f.jettons.set(k, (f.jettons.get(k) ?? 0n) + amount);
  }

  addFees(account: AccountId, amount: bigint): void {
    this.of(account).fees += amount;
  }

  merge(other: AccountValueFlow): void {
    for (const [k, f] of other.flow) {
      let mine = this.flow.get(k);
      if (!mine) this.flow.set(k, (mine = new AccountFlow()));
      mine.merge(f);
    }
  }

  toDict(): { flow: Record<string, ReturnType<AccountFlow['toDict']>> } {
    return { flow: Object.fromEntries([...this.flow].map(([k, f]) => [k, f.toDict()])) };
  }
}

/** Distinct items in first-seen order (upstream's `list(set(...))`, whose order is arbitrary). */
export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** A pass over the top-level blocks after matching (upstream's post-processors, e.g. `post_process_dedust_liquidity`). */
export type PostProcessor = (blocks: Block[]) => Block[];

export class Block<D = unknown> {
  btype: string;
  eventNodes: EventNode[];
  childrenBlocks: Block[] = [];
  nextBlocks: Block[] = [];
  previousBlock: Block | null = null;
  parent: Block | null = null;
  data: D;
  contractDeployments = new Set<string>();
  initiatingEventNode: EventNode | null = null;
  failed = false;
  broken = false;
  /** a transient block (a label) is never merged into another */
  transient = false;
  /** a block made of ghost nodes: an intended operation that never started */
  isGhostBlock = false;
  valueFlow = new AccountValueFlow();
  minLt = 0n;
  maxLt = 0n;
  minUtime = 0;
  maxUtime = 0;
  minLtWithoutInitiatingTx = 0n;

  constructor(type: string, nodes: EventNode[], data: D) {
    this.btype = type;
    this.eventNodes = nodes;
    this.data = data;
    if (nodes.length === 1 && nodes[0].ghostNode) this.isGhostBlock = true;
    if (nodes.length !== 0) {
      this.minLt = nodes[0].getLt();
      this.maxLt = nodes[0].message.transaction.lt;
      this.minUtime = nodes[0].getUtime();
      this.maxUtime = nodes[0].message.transaction.now;
      this.minLtWithoutInitiatingTx = nodes[0].message.transaction.lt;
      this.findContractDeployments();
    }
    if (nodes.length === 1) {
      this.initiatingEventNode = nodes[0].parent;
    } else {
      // upstream resets the bounds of any block not made of exactly one node (merge_blocks recomputes them)
      this.minLt = 0n;
      this.maxLt = 0n;
      this.minUtime = 0;
      this.maxUtime = 0;
      this.minLtWithoutInitiatingTx = 0n;
    }
  }

  calculateMinMaxLt(): void {
    const nodes = this.eventNodes;
    if (nodes.length === 0) throw new Error('min() arg is an empty sequence');
    let minLt = nodes[0].getLt(), minUt = nodes[0].getUtime();
    let maxLt = nodes[0].message.transaction.lt, maxUt = nodes[0].message.transaction.now;
    for (const n of nodes) {
      const lt = n.getLt(), ut = n.getUtime(), tl = n.message.transaction.lt, tn = n.message.transaction.now;
      if (lt < minLt) minLt = lt;
      if (ut < minUt) minUt = ut;
      if (tl > maxLt) maxLt = tl;
      if (tn > maxUt) maxUt = tn;
    }
    this.minLt = minLt;
    this.minLtWithoutInitiatingTx = minLt;
    this.minUtime = minUt;
    this.maxLt = maxLt;
    this.maxUtime = maxUt;
  }

  /** Previous blocks matching the predicate, from the closest one, stopping at the first that does not. */
  *iterPrev(predicate: (b: Block) => boolean): Generator<Block> {
    let r = this.previousBlock;
    while (r !== null) {
      if (!predicate(r)) return;
      yield r;
      r = r.previousBlock;
    }
  }

  /** Merges the blocks into this one, keeping the structure around them (see the file comment). */
  mergeBlocks(blocks: Block[]): void {
    const toMerge = unique(blocks).filter((b) => !b.transient);
    const earliest = ensureEarliestCommonBlock(toMerge);
    if (earliest === null) throw new Error('Earliest common block not found');
    for (const block of toMerge) {
      block.parent = this;
      this.eventNodes.push(...block.eventNodes);
      this.childrenBlocks.push(block);
      this.valueFlow.merge(block.valueFlow);
    }
    for (const block of earliest.findNext((b) => toMerge.includes(b), { stopOnFilterUnmatch: true, yieldOnUnmatch: true })) {
      this.nextBlocks.push(block);
      for (const d of block.contractDeployments) this.contractDeployments.add(d);
      block.previousBlock = this;
    }
    this.previousBlock = earliest.previousBlock;
    if (earliest.previousBlock !== null) earliest.previousBlock.compactConnections();
    this.initiatingEventNode = earliest.initiatingEventNode;
    this.calculateMinMaxLt();
    if (this.eventNodes.some((n) => n.ghostNode)) this.isGhostBlock = true;
  }

  /** Following blocks breadth first: those matching the filter, or (yieldOnUnmatch) the first ones that do not. */
  *findNext(
    nodeFilter: ((b: Block, depth: number) => boolean) | null = null,
    opts: { maxDepth?: number; stopOnFilterUnmatch?: boolean; yieldOnUnmatch?: boolean } = {},
  ): Generator<Block> {
    const maxDepth = opts.maxDepth ?? -1;
    const queue: Array<[Block, number]> = this.nextBlocks.map((c) => [c, 0]);
    while (queue.length > 0) {
      const [node, depth] = queue.shift()!;
      const matched = nodeFilter === null || nodeFilter(node, depth);
      if (matched && !opts.yieldOnUnmatch) yield node;
      else if (!matched && opts.yieldOnUnmatch) yield node;
      let extend = depth + 1 <= maxDepth || maxDepth < 0;
      if (opts.stopOnFilterUnmatch) extend = extend && matched;
      if (extend) for (const c of node.nextBlocks) queue.push([c, depth + 1]);
    }
  }

  /** The body of the first node's message, as a slice (upstream `Slice.one_from_boc`). */
  getBody(): Slice {
    const body = this.eventNodes[0].message.body;
    const cell = cellFromBoc(body);
    if (!cell) throw new Error(`cannot parse message body of ${this.eventNodes[0].message.msgHash}`);
    return cell.beginParse();
  }

  getMessage(): Message {
    return this.eventNodes[0].message;
  }

  connect(other: Block): void {
    this.nextBlocks.push(other);
    other.previousBlock = this;
  }

  /** Puts `newBlock` between this block and the given next blocks. */
  insertBetween(nextBlocks: Block[], newBlock: Block): void {
    if (!nextBlocks.every((n) => this.nextBlocks.includes(n))) throw new Error('insert_between: not a next block');
    for (const child of this.childrenBlocks) {
      for (const next of nextBlocks) {
        const i = child.nextBlocks.indexOf(next);
        if (i >= 0) {
          child.nextBlocks.splice(i, 1);
          child.nextBlocks.push(newBlock);
        }
      }
    }
    this.nextBlocks = this.nextBlocks.filter((n) => !nextBlocks.includes(n));
    for (const next of nextBlocks) {
      for (const child of next.childrenBlocks) if (child.previousBlock === next) child.previousBlock = newBlock;
    }
    this.connect(newBlock);
    for (const next of nextBlocks) newBlock.connect(next);
  }

  topmostParent(): Block {
    return this.parent === null ? this : this.parent.topmostParent();
  }

  /** Next blocks replaced by their topmost parents (own children and itself dropped), each once. */
  compactConnections(): void {
    this.nextBlocks = unique(this.nextBlocks.filter((n) => !this.childrenBlocks.includes(n) && n !== this).map((n) => n.topmostParent()));
  }

  setPrev(prev: Block | null): void {
    this.previousBlock = prev;
  }

  /** Breadth first over next blocks; lazy, so blocks merged while iterating are seen as they are then. */
  *bfsIter(includeSelf = true): Generator<Block> {
    const queue: Block[] = includeSelf ? [this] : [...this.nextBlocks];
    while (queue.length > 0) {
      const cur = queue.shift()!;
      yield cur;
      queue.push(...cur.nextBlocks);
    }
  }

  /** Share of the block's internal messages that were not emulated. */
  calculateProgress(): number {
    let total = 0, emulated = 0;
    for (const n of this.eventNodes) {
      if (n.message.destination !== null && n.message.source !== null) {
        total++;
        if (n.message.transaction.emulated) emulated++;
      }
    }
    return total !== 0 ? 1 - emulated / total : 0;
  }

  private findContractDeployments(): void {
    for (const n of this.eventNodes) {
      const tx = n.message.transaction;
      if (tx.origStatus !== 'active' && tx.endStatus === 'active') this.contractDeployments.add(tx.account);
    }
  }

  toString(): string {
    return `!${this.btype}`;
  }
}

/** A block standing for several blocks at one level, their nodes and links gathered. */
export class SingleLevelWrapper extends Block<null> {
  constructor() {
    super('single_wrapper', [], null);
  }

  wrap(blocks: Block[]): void {
    const queue = [...blocks];
    const nodes: EventNode[] = [];
    while (queue.length > 0) {
      const block = queue.shift()!;
      if (block instanceof SingleLevelWrapper) {
        queue.push(...block.childrenBlocks);
        continue;
      }
      this.childrenBlocks.push(block);
      for (const next of block.nextBlocks) if (!blocks.includes(next)) this.nextBlocks.push(next);
      nodes.push(...block.eventNodes);
      if (block.previousBlock === null || !blocks.includes(block.previousBlock)) this.previousBlock = block.previousBlock;
    }
    this.eventNodes = unique(nodes);
    this.compactConnections();
    this.calculateMinMaxLt();
  }
}

export class EmptyBlock extends Block<null> {
  constructor() {
    super('empty', [], null);
  }
}
