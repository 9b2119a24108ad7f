/**
 * ↔ indexer/events/event_processing.py: trace -> event tree -> basic blocks -> matchers -> post-processing, and
 * the two fallbacks (a failed wallet external's intended messages; basic blocks only).
 */
import { CallContractBlock, ContractDeploy, GaslessRequestBlock, TickTockBlock, TonTransferBlock } from './basic-blocks.ts';
import { Block, type PostProcessor } from './core.ts';
import { FAMILY_MATCHERS, FAMILY_POST_PROCESSORS } from './families/index.ts';
import { FAILED_EXTERNAL_MATCHER_ORDER, MATCHER_ORDER, POST_PROCESSOR_ORDER } from './matcher-order.ts';
import type { BlockMatcher } from './matchers.ts';
import { addrStr, TonTransferMessage } from './messages/common.ts';
import { extractPayloadFromWalletMessage } from './messages/externals.ts';
import type { ActionRow, Trace } from './model.ts';
import type { InterfaceRepository } from './interfaces.ts';
import { blockToAction, createUnknownAction, serializeBlocks } from './serializer.ts';
import { EventNode, toTree, type Message } from './tree.ts';

/** `init_block`: the basic block of every node, linked as the nodes are. */
export function initBlock(root: EventNode): Block {
  const basic = (node: EventNode): Block => {
    const op = node.getOpcode();
    const isTonTransfer = op === 0 || op === null || op === TonTransferMessage.encryptedOpcode;
    if (node.isTickTock) return new TickTockBlock(node);
    if (isTonTransfer && node.message.destination !== null && node.message.source !== null) return new TonTransferBlock(node);
    return new CallContractBlock(node);
  };
  // iterative (a deep chain must not exhaust the stack), the same links in the same order as upstream's recursion
  const top = basic(root);
  const queue: Array<[EventNode, Block]> = [[root, top]];
  while (queue.length > 0) {
    const [node, block] = queue.shift()!;
    for (const child of node.children) {
      const b = basic(child);
      block.connect(b);
      queue.push([child, b]);
    }
  }
  return top;
}

/**
 * `init_from_external`: the failed external's node gets a ghost child per message its wallet body asked to send
 * (messages/externals.ts), each failed, as if received from the wallet in the external's transaction.
 */
export function initFromExternal(node: EventNode): Block {
  node.failed = true;
  const tx = node.message.transaction;
  const [payloads] = extractPayloadFromWalletMessage(node.message.body);
  payloads.forEach((payload, idx) => {
    if (payload.info === null || payload.body === null) return;
    const dest = payload.info.dest;
    const msg: Message = {
      // upstream keys a ghost message by base64 of (message cell hash in base64 + its index)
      msgHash: Buffer.from(payload.hash + String(idx), 'utf8').toString('base64'),
      direction: 'in',
      transaction: tx,
      source: tx.account,
      destination: dest === null ? null : addrStr(dest),
      value: payload.info.valueCoins,
      valueExtraCurrencies: null,
      fwdFee: payload.info.fwdFee,
      ihrFee: payload.info.ihrFee,
      opcode: payload.opcode,
      bounce: payload.info.bounce,
      bounced: payload.info.bounced,
      createdLt: tx.lt,
      createdAt: tx.now,
      body: payload.body.toBoc().toString('base64'),
    };
    const ghost = new EventNode(msg, [], { repository: node.repository, ghostNode: true });
    ghost.failed = true;
    node.addChild(ghost);
  });
  return initBlock(node);
}

/**
 * Upstream's unwind post-processors' shared walk: every child block, at any depth, that `lift` picks joins the
 * top-level list (its own subtree not searched further); the list grows while it is walked, as upstream's does.
 */
function unwindBlocks(blocks: Block[], lift: (b: Block) => boolean): Block[] {
  const visited = new Set<Block>();
  for (let i = 0; i < blocks.length; i++) {
    const queue = [...blocks[i].childrenBlocks];
    while (queue.length > 0) {
      const child = queue.shift()!;
      if (lift(child) && !visited.has(child)) blocks.push(child);
      else queue.push(...child.childrenBlocks);
      visited.add(child);
    }
  }
  return blocks;
}

/** `unwind_deployments`: every contract_deploy child block, at any depth, joins the top-level list. */
export function unwindDeployments(blocks: Block[]): Block[] {
  return unwindBlocks(blocks, (b) => b instanceof ContractDeploy);
}

/**
 * `unwind_gasless_requests` (newer upstream): the same walk for the gasless_request markers of relayed wallet
 * requests, with a visited set of its own (a post-processor of its own upstream).
 */
export function unwindGaslessRequests(blocks: Block[]): Block[] {
  return unwindBlocks(blocks, (b) => b instanceof GaslessRequestBlock);
}

const resolve = <T>(names: readonly string[], table: Readonly<Record<string, T>>): T[] => names.flatMap((n) => (table[n] ? [table[n]] : []));

/** Upstream's matcher list, restricted to the families ported so far. */
export function matchers(): BlockMatcher[] {
  return resolve(MATCHER_ORDER, FAMILY_MATCHERS);
}

export function matchersForFailedExternals(): BlockMatcher[] {
  return resolve(FAILED_EXTERNAL_MATCHER_ORDER, FAMILY_MATCHERS);
}

export function postProcessors(): PostProcessor[] {
  return resolve(POST_PROCESSOR_ORDER, { ...FAMILY_POST_PROCESSORS, unwind_deployments: unwindDeployments, unwind_gasless_requests: unwindGaslessRequests });
}

/** Each matcher in turn over every top-level block (breadth first from the root, live as blocks merge). */
function runMatchers(root: Block, list: BlockMatcher[]): void {
  for (const m of list) {
    for (const b of root.bfsIter()) {
      if (b.parent === null) m.tryBuild(b);
    }
  }
}

/**
 * `process_event_async`: the root block (type `root`) of the matched block graph. `repository`: what the matchers
 * read of the trace's accounts (context.ts; by default the trace's own records).
 */
export function processEvent(trace: Pick<Trace, 'interfaces' | 'transactions'>, repository?: InterfaceRepository): Block {
  const node = toTree(trace, repository);
  const root = new Block('root', [], null);
  root.connect(initBlock(node));
  runMatchers(root, matchers());
  return root;
}

function postProcess(blocks: Block[]): Block[] {
  for (const p of postProcessors()) blocks = p(blocks);
  return blocks;
}

/** `process_event_async_with_postprocessing`: root, then every block reachable from it, post-processed. */
export function processEventWithPostprocessing(trace: Pick<Trace, 'interfaces' | 'transactions'>, repository?: InterfaceRepository): Block[] {
  const root = processEvent(trace, repository);
  return postProcess([root, ...root.bfsIter()]);
}

/**
 * `try_process_unknown_event`: for a trace that is a lone external-in (nothing happened after it), the blocks of
 * its intended messages, matched by the failed-external matchers; [] when it is not such a trace or asked for
 * nothing.
 */
export function tryProcessUnknownEvent(trace: Pick<Trace, 'interfaces' | 'transactions'>, repository?: InterfaceRepository): Block[] {
  const node = toTree(trace, repository);
  if (node.children.length !== 0 || node.message.source !== null) return [];
  const root = new Block('root', [], null);
  const b = initFromExternal(node);
  root.connect(b);
  if (b.nextBlocks.length === 0) return [];
  runMatchers(root, matchersForFailedExternals());
  return postProcess([...root.bfsIter()]);
}

/** Blocks that are never actions: the root, empty blocks, external-in and external-out call_contracts. */
export function isSkippedBlock(block: Block): boolean {
  if (block.btype === 'root' || block.btype === 'empty') return true;
  if (block.btype === 'call_contract') {
    const m = block.eventNodes[0].message;
    if (m.destination === null || m.source === null) return true;
  }
  return false;
}

/** `try_classify_unknown_trace`: the fallback actions of a trace nothing was found in; at least `unknown`. */
export function tryClassifyUnknownTrace(trace: Trace, repository?: InterfaceRepository): ActionRow[] {
  const actions: ActionRow[] = [];
  try {
    for (const block of tryProcessUnknownEvent(trace, repository)) {
      if (isSkippedBlock(block)) continue;
      const action = blockToAction(block, trace);
      if (action.accounts.length === 0) throw new Error(`Action ${action.action_id} has no accounts`);
      actions.push(action);
    }
    if (actions.length === 0) actions.push(createUnknownAction(trace));
  } catch {
    // upstream appends the unknown action to whatever was serialised before the failure
    actions.push(createUnknownAction(trace));
  }
  return actions;
}

/** `try_classify_basic_actions`: the basic blocks' actions, when matching failed; `unknown` for a lone transaction. */
export function tryClassifyBasicActions(trace: Trace, repository?: InterfaceRepository): ActionRow[] {
  try {
    const node = toTree(trace, repository);
    if (node.children.length === 0) return [createUnknownAction(trace)];
    const root = new Block('root', [], null);
    root.connect(initBlock(node));
    const blocks = postProcess([root, ...root.bfsIter()]);
    return serializeBlocks(blocks, trace).actions;
  } catch {
    return [];
  }
}
