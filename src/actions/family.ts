import type { Block, Ctx, EventNode } from './core.ts';

/**
 * A family matcher: looks at one node (in breadth-first order) and may return a block covering that
 * node and related ones. It is offered nodes no block owns yet, and nodes owned by a block whose type
 * is in `absorbs` (those blocks become children of the new one).
 */
export interface Family {
  name: string;
  absorbs?: readonly string[];
  match(node: EventNode, ctx: Ctx): Block | null;
}
