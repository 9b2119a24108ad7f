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

/** Tests as the wrapped matcher's `testSelf`; builds [label, block, ...others] (the wrapped `buildBlock` is not run). */
export class LabeledBlockConstructorMatcher extends BlockMatcher {
  blockType: string;
  testSelfFunc: (block: Block) => boolean;

  constructor(blockType: string, testSelfFunc: (block: Block) => boolean, opts: MatcherOptions = {}) {
    super(opts);
    this.blockType = blockType;
    this.testSelfFunc = testSelfFunc;
  }

  override testSelf(block: Block): boolean {
    return this.testSelfFunc(block);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    return [new LabelBlock(this.blockType, block), block, ...otherBlocks];
  }
}

/** `labeled(label, matcher)`: the matcher's test and child/parent matchers, its result labelled. */
export function labeled(label: string, matcher: BlockMatcher): BlockMatcher {
  return new LabeledBlockConstructorMatcher(label, (x) => matcher.testSelf(x), {
    childMatcher: matcher.childMatcher,
    childrenMatchers: matcher.childrenMatchers,
    parentMatcher: matcher.parentMatcher,
    optional: matcher.optional,
    includeExcess: matcher.includeExcess,
  });
}
