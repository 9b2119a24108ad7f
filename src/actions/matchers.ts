/**
 * ↔ indexer/events/blocks/basic_matchers.py: matcher combinators.
 *
 * `tryBuild(block)`: `testSelf(block)`; then the child matcher over every next block (all that match are
 * collected), the ordered `childrenMatchers` (each takes the first unused next block it matches), the parent
 * matcher over the previous block; if all hold, `buildBlock(block, collected)` makes the result, and the next
 * blocks of `block` that are excesses (0xd53276db) or bounces (0xffffffff) call_contracts are appended to it
 * (`includeExcess` / `includeBounces`; before the build with `preBuildAutoAppend`). A failure inside
 * `buildBlock` makes the match fail (null); failures in `testSelf` or in child matchers propagate, as upstream.
 * Python's async is gone: nothing here waits on I/O.
 */
import { CallContractBlock } from './basic-blocks.ts';
import type { Block } from './core.ts';
import { ExcessMessage } from './messages/common.ts';

export interface MatcherOptions {
  childMatcher?: BlockMatcher | null;
  parentMatcher?: BlockMatcher | null;
  optional?: boolean;
  childrenMatchers?: BlockMatcher[] | null;
  includeExcess?: boolean;
  includeBounces?: boolean;
  preBuildAutoAppend?: boolean;
}

export const BOUNCE_OPCODE = 0xffffffff;

export class BlockMatcher {
  childMatcher: BlockMatcher | null;
  childrenMatchers: BlockMatcher[] | null;
  parentMatcher: BlockMatcher | null;
  optional: boolean;
  includeExcess: boolean;
  includeBounces: boolean;
  preBuildAutoAppend: boolean;

  constructor(opts: MatcherOptions = {}) {
    this.childMatcher = opts.childMatcher ?? null;
    this.childrenMatchers = opts.childrenMatchers ?? null;
    this.parentMatcher = opts.parentMatcher ?? null;
    this.optional = opts.optional ?? false;
    this.includeExcess = opts.includeExcess ?? true;
    this.includeBounces = opts.includeBounces ?? true;
    this.preBuildAutoAppend = opts.preBuildAutoAppend ?? false;
  }

  /**
   * Whether the block itself fits. `block` is what upstream passes: for a parent matcher the previous block,
   * which may be null (an implementation reading it then fails, as upstream's does).
   */
  testSelf(_block: Block): boolean {
    return true;
  }

  tryBuild(block: Block): Block[] | null {
    if (!this.testSelf(block)) return null;
    const blocks: Block[] = [];
    const childMatched = this.processChildMatcher(block, blocks, true);
    const parentMatched = this.processParentMatcher(block, blocks, true);
    if (!(childMatched && parentMatched)) return null;
    try {
      const autoAppend: number[] = [];
      if (this.includeExcess) autoAppend.push(ExcessMessage.opcode);
      if (this.includeBounces) autoAppend.push(BOUNCE_OPCODE);
      const appended = () => block.nextBlocks.filter((n) => n instanceof CallContractBlock && n.opcode !== null && autoAppend.includes(n.opcode));
      if (autoAppend.length > 0 && this.preBuildAutoAppend) blocks.push(...appended());
      const r = this.buildBlock(block, blocks);
      if (autoAppend.length > 0 && !this.preBuildAutoAppend) r.push(...appended());
      return r;
    } catch (e) {
      // upstream's error log reads the block's first node: a block without nodes makes the failure escape
      if (block.eventNodes.length === 0) throw e;
      return null;
    }
  }

  processParentMatcher(block: Block, blocks: Block[], parentMatched: boolean): boolean {
    if (this.parentMatcher !== null) {
      const r = this.parentMatcher.tryBuild(block.previousBlock as Block);
      if (r !== null) {
        blocks.push(...r);
        return true;
      }
      return this.parentMatcher.optional;
    }
    return parentMatched;
  }

  processChildMatcher(block: Block, blocks: Block[], childMatched: boolean): boolean {
    if (this.childMatcher !== null) {
      for (const child of block.nextBlocks) {
        const r = this.childMatcher.tryBuild(child);
        if (r !== null) blocks.push(...r);
      }
      childMatched = this.childMatcher.optional || blocks.length > 0;
    }
    if (this.childrenMatchers !== null) {
      const r = this.processChildrenMatchers(block);
      if (r !== null) blocks.push(...r);
      else childMatched = false;
    }
    return childMatched;
  }

  /** Each children matcher in order takes the first still unused next block it matches; a required one must. */
  processChildrenMatchers(block: Block): Block[] | null {
    const nextBlocks = [...block.nextBlocks];
    const remaining = [...(this.childrenMatchers ?? [])];
    const blocks: Block[] = [];
    while (remaining.length > 0) {
      const matcher = remaining[0];
      let matched = false;
      for (const next of nextBlocks) {
        const res = matcher.tryBuild(next);
        if (res !== null) {
          blocks.push(...res);
          remaining.shift();
          nextBlocks.splice(nextBlocks.indexOf(next), 1);
          matched = true;
          break;
        }
      }
      if (!matched) {
        if (matcher.optional) remaining.shift();
        else return null;
      }
    }
    return blocks;
  }

  buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    return [block, ...otherBlocks];
  }
}

/** The first of the matchers that builds (its own auto-append included); `testSelf`: any of them fits. */
export class OrMatcher extends BlockMatcher {
  matchers: BlockMatcher[];

  constructor(matchers: BlockMatcher[], optional = false) {
    super({ optional });
    this.matchers = matchers;
  }

  override testSelf(block: Block): boolean {
    return this.matchers.some((m) => m.testSelf(block));
  }

  override tryBuild(block: Block): Block[] | null {
    for (const m of this.matchers) {
      const res = m.tryBuild(block);
      if (res !== null) return res;
    }
    return null;
  }
}

/** As OrMatcher; `testSelf` holds only when exactly one matcher fits (tryBuild is OrMatcher's, as upstream). */
export class ExclusiveOrMatcher extends OrMatcher {
  override testSelf(block: Block): boolean {
    return this.matchers.filter((m) => m.testSelf(block)).length === 1;
  }
}

export class TonTransferMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return block.btype === 'ton_transfer';
  }
}

/** A call_contract block with this opcode. */
export class ContractMatcher extends BlockMatcher {
  opcode: number;

  constructor(opcode: number, opts: Omit<MatcherOptions, 'includeBounces' | 'preBuildAutoAppend'> = {}) {
    super(opts);
    this.opcode = opcode >>> 0;
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === this.opcode;
  }
}

/** A block of this type. */
export class BlockTypeMatcher extends BlockMatcher {
  blockType: string;

  constructor(blockType: string, opts: Pick<MatcherOptions, 'childMatcher' | 'parentMatcher' | 'optional'> = {}) {
    super(opts);
    this.blockType = blockType;
  }

  override testSelf(block: Block): boolean {
    return block.btype === this.blockType;
  }
}

/** A block the function accepts. */
export class GenericMatcher extends BlockMatcher {
  testSelfFunc: (block: Block) => boolean;

  constructor(testSelfFunc: (block: Block) => boolean, opts: Pick<MatcherOptions, 'childMatcher' | 'parentMatcher' | 'optional'> = {}) {
    super(opts);
    this.testSelfFunc = testSelfFunc;
  }

  override testSelf(block: Block): boolean {
    return this.testSelfFunc(block);
  }
}

/**
 * A chain of blocks the repeating matcher takes, level after level (the first block of a level it builds is
 * the one followed), until the exit matcher takes a block. Fails when a level has nothing left to follow.
 */
export class RecursiveMatcher extends BlockMatcher {
  repeatingMatcher: BlockMatcher;
  exitMatcher: BlockMatcher | null;

  constructor(repeatingMatcher: BlockMatcher, exitMatcher: BlockMatcher | null) {
    super();
    this.repeatingMatcher = repeatingMatcher;
    this.exitMatcher = exitMatcher;
  }

  override testSelf(block: Block): boolean {
    return this.repeatingMatcher.testSelf(block);
  }

  override processChildMatcher(block: Block, blocks: Block[], childMatched: boolean): boolean {
    let current: Block[] = [block];
    const toAdd: Block[] = [];
    let finished = false;
    for (;;) {
      const check = current;
      current = [];
      for (const c of check) {
        if (this.exitMatcher !== null) {
          const r = this.exitMatcher.tryBuild(c);
          if (r !== null) {
            toAdd.push(...r);
            finished = true;
          }
        }
        if (finished) break;
        const r = this.repeatingMatcher.tryBuild(c);
        if (r !== null) {
          toAdd.push(...r);
          for (const b of r) current.push(...b.nextBlocks);
          break;
        }
      }
      if (finished) break;
      if (current.length === 0) {
        childMatched = false;
        break;
      }
    }
    if (toAdd.length > 0) {
      blocks.push(...new Set(toAdd));
      childMatched = true;
    }
    return childMatched;
  }
}

/** Chains matchers: each one's child matcher becomes the next (mutates them, as upstream). */
export function childSequenceMatcher(matchers: BlockMatcher[]): BlockMatcher | null {
  if (matchers.length === 0) return null;
  for (let i = 0; i + 1 < matchers.length; i++) matchers[i].childMatcher = matchers[i + 1];
  return matchers[0];
}
