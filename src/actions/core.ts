/**
 * Classifier core: the event tree (one node per received message, as the reference classifier's
 * `to_tree`), blocks (a candidate action over a set of nodes) and the context matchers use.
 */
import type { AccountInterfaces, ActionRow, Trace, TraceMessage, TraceTransaction } from './model.ts';

export interface EventNode {
  /** the message this node is about: the tx's in-message, or an external-out message */
  msg: TraceMessage | null;
  /** the transaction that received `msg` (for external-out: the sending tx) */
  tx: TraceTransaction;
  /** true for external-out (log) nodes: no receiving transaction */
  extOut: boolean;
  tickTock: boolean;
  parent: EventNode | null;
  children: EventNode[];
}

export function nodeOpcode(n: EventNode): number | null {
  return n.msg?.opcode ?? null;
}

/** An action candidate. `type` is the classifier's block type (the action_id uses it); `outType` renames it. */
export interface Block {
  type: string;
  outType?: string;
  nodes: EventNode[];
  failed: boolean;
  /** generic columns and composite `*_data` columns of the action row */
  columns: Partial<ActionRow>;
  /** raw data as the matcher saw it (the reference's block `data`) */
  data?: Record<string, unknown>;
  children: Block[];
  /** ghost blocks (made from a failed external's intended messages) don't list their destinations */
  ghost?: boolean;
  /** explicit override of the initiating node (default: parent of the earliest node) */
  initiating?: EventNode | null;
  /** extra accounts to list */
  extraAccounts?: string[];
  /** tx hashes not represented by nodes (ghost blocks) */
  extraTxs?: TraceTransaction[];
}

export function makeBlock(type: string, nodes: EventNode[], columns: Partial<ActionRow>, extra: Partial<Block> = {}): Block {
  return { type, nodes, failed: false, columns, children: [], ...extra };
}

export interface Ctx {
  trace: Trace;
  root: EventNode;
  /** all nodes, breadth first from the root */
  nodes: EventNode[];
  iface(addr: string | null | undefined): AccountInterfaces | undefined;
  jettonWallet(addr: string | null | undefined): { owner: string; jetton: string } | undefined;
  /** top-level block owning the node, if any */
  ownerOf(n: EventNode): Block | undefined;
}

/** Builds the event tree: every transaction's in-message node, linked to the nodes its out-messages caused. */
export function buildTree(trace: Trace): { root: EventNode; nodes: EventNode[] } {
  const txs = [...trace.transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  if (txs.length === 0) throw new Error(`trace ${trace.traceId} has no transactions`);
  const byInMsg = new Map<string, EventNode>();
  const byTx = new Map<string, EventNode>();
  for (const tx of txs) {
    const node: EventNode = { msg: tx.inMsg, tx, extOut: false, tickTock: !tx.inMsg && tx.descr === 'tick_tock', parent: null, children: [] };
    byTx.set(tx.hash, node);
    if (tx.inMsg) byInMsg.set(tx.inMsg.hash, node);
  }
  for (const tx of txs) {
    const parent = byTx.get(tx.hash)!;
    for (const m of tx.outMsgs) {
      if (m.destination === null) {
        parent.children.push({ msg: m, tx, extOut: true, tickTock: false, parent, children: [] });
        continue;
      }
      const child = byInMsg.get(m.hash);
      if (child && child !== parent) {
        child.parent = parent;
        parent.children.push(child);
      }
    }
  }
  for (const n of byTx.values()) n.children.sort((a, b) => (nodeLt(a) < nodeLt(b) ? -1 : nodeLt(a) > nodeLt(b) ? 1 : 0));
  let root = byTx.get(txs[0].hash)!;
  while (root.parent) root = root.parent;
  const nodes: EventNode[] = [];
  const queue = [root];
  // transactions not reachable from the root (partial traces) are appended as extra roots
  const seen = new Set<EventNode>();
  const drain = () => {
    while (queue.length) {
      const n = queue.shift()!;
      if (seen.has(n)) continue;
      seen.add(n);
      nodes.push(n);
      queue.push(...n.children);
    }
  };
  drain();
  for (const n of byTx.values()) {
    if (!seen.has(n) && !n.parent) {
      queue.push(n);
      drain();
    }
  }
  return { root, nodes };
}

export function nodeLt(n: EventNode): bigint {
  return n.tx.lt;
}

/** Children of a node with the given opcode (internal messages only). */
export function childrenWithOp(n: EventNode, op: number): EventNode[] {
  return n.children.filter((c) => !c.extOut && c.msg?.opcode === op);
}
export function childWithOp(n: EventNode, op: number): EventNode | undefined {
  return childrenWithOp(n, op)[0];
}
/** All descendants (depth first, excluding the node itself). */
export function descendants(n: EventNode): EventNode[] {
  const out: EventNode[] = [];
  const walk = (x: EventNode) => {
    for (const c of x.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(n);
  return out;
}
