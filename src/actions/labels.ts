/**
 * ↔ indexer/events/blocks/labels.py: naming a block a matcher took, so `buildBlock` can find it by role
 * (block-utils.ts `getLabeled`). A label block is transient: `mergeBlocks` skips it, the labelled block is merged.
 */
import { Block } from './core.ts';
import { BlockMatcher, type MatcherOptions } from './matchers.ts';

export class LabelBlock extends Block<null> {
  label: string;
  block: Block;

  constructor(label: string, block: Block) {
    super('label', [], null);
    this.label = label;
    this.block = block;
    this.transient = true;
    this.eventNodes = block.eventNodes;
    this.minLt = block.minLt;
    this.minUtime = block.minUtime;
    this.maxLt = block.maxLt;
    this.maxUtime = block.maxUtime;
    this.failed = block.failed;
  }

  override toString(): string {
    return `!${this.btype}:=${this.label} (${String(this.block)})`;
  }
}

/**
 * Tests as the wrapped matcher's `testSelf`; builds [label, block, ...others], or, given the wrapped matcher's
 * `buildBlock` (`labeled(..., callBuildBlock)`), labels the first block that one builds ([label, ...built]).
 */
export class LabeledBlockConstructorMatcher extends BlockMatcher {
  blockType: string;
  testSelfFunc: (block: Block) => boolean;
  buildBlockFunc: ((block: Block, otherBlocks: Block[]) => Block[]) | null;

  constructor(blockType: string, testSelfFunc: (block: Block) => boolean, opts: MatcherOptions = {}, buildBlockFunc: ((block: Block, otherBlocks: Block[]) => Block[]) | null = null) {
    super(opts);
    this.blockType = blockType;
    this.testSelfFunc = testSelfFunc;
    this.buildBlockFunc = buildBlockFunc;
  }

  override testSelf(block: Block): boolean {
    return this.testSelfFunc(block);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    if (this.buildBlockFunc === null) return [new LabelBlock(this.blockType, block), block, ...otherBlocks];
    const built = this.buildBlockFunc(block, otherBlocks);
    // upstream indexes the result: a build that made nothing fails the match (IndexError)
    if (built.length === 0) throw new Error('list index out of range');
    return [new LabelBlock(this.blockType, built[0]), ...built];
  }
}

/**
 * `labeled(label, matcher, call_build_block)`: the matcher's test and child/parent matchers, its result labelled;
 * with `callBuildBlock` the matcher's own `buildBlock` makes the result (e.g. a jetton_transfer block, labelled).
 */
export function labeled(label: string, matcher: BlockMatcher, callBuildBlock = false): BlockMatcher {
  return new LabeledBlockConstructorMatcher(label, (x) => matcher.testSelf(x), {
    childMatcher: matcher.childMatcher,
    childrenMatchers: matcher.childrenMatchers,
    parentMatcher: matcher.parentMatcher,
    optional: matcher.optional,
    includeExcess: matcher.includeExcess,
  }, callBuildBlock ? (b, o) => matcher.buildBlock(b, o) : null);
}
