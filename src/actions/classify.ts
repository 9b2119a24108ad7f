/**
 * classifyTrace: trace -> action rows. Families run in priority order over the event tree; every node
 * no family claims falls back to a generic action, so no trace is ever dropped.
 */
import { buildTree, type Block, type Ctx, type EventNode } from './core.ts';
import type { Family } from './family.ts';
import { FAMILIES } from './families/index.ts';
import { failedExternalBlocks } from './families/failed-external.ts';
import { basicBlock, contractDeployBlock, deploys } from './families/generic.ts';
import type { ActionRow, Trace } from './model.ts';
import { blockToRow, V1_TYPES } from './serialize.ts';

export interface ClassifyOptions {
  families?: readonly Family[];
}

export interface Classification {
  /** top-level actions first (by start_lt), then child actions of non-v1 actions */
  actions: ActionRow[];
  /** top-level blocks, for debugging and the conformance runner's expected-blocks */
  blocks: Block[];
}

export function classifyTrace(trace: Trace, opts: ClassifyOptions = {}): Classification {
  const families = opts.families ?? FAMILIES;
  const { root, nodes } = buildTree(trace);
  const owner = new Map<EventNode, Block>();
  let top: Block[] = [];
  const ctx: Ctx = {
    trace,
    root,
    nodes,
    iface: (a) => (a ? trace.interfaces?.[a] : undefined),
    jettonWallet: (a) => {
      const jw = a ? trace.interfaces?.[a]?.jettonWallet : undefined;
      return jw ? { owner: jw.owner, jetton: jw.jetton } : undefined;
    },
    ownerOf: (n) => owner.get(n),
  };
  const claim = (b: Block) => {
    const absorbed = new Set<Block>();
    for (const n of b.nodes) {
      const o = owner.get(n);
      if (o && o !== b) absorbed.add(o);
    }
    for (const o of absorbed) {
      b.children.push(o);
      top = top.filter((t) => t !== o);
      for (const n of o.nodes) if (!b.nodes.includes(n)) b.nodes.push(n);
    }
    for (const n of b.nodes) owner.set(n, b);
    top.push(b);
  };
  for (const fam of families) {
    for (const n of nodes) {
      const o = owner.get(n);
      if (o && !(fam.absorbs ?? []).includes(o.type)) continue;
      let b: Block | null;
      try {
        b = fam.match(n, ctx);
      } catch {
        b = null; // a malformed body never breaks the trace: the node falls back to generic actions
      }
      if (b) claim(b);
    }
  }
  for (const n of nodes) {
    if (owner.has(n)) continue;
    const b = basicBlock(n);
    if (b) {
      owner.set(n, b);
      top.push(b);
    }
  }
  const deployBlocks = nodes.filter(deploys).map(contractDeployBlock);
  if (top.length === 0) top.push(...failedExternalBlocks(ctx));

  const rows: ActionRow[] = [];
  const byId = new Map<string, ActionRow>();
  const sorted = [...top, ...deployBlocks].sort((a, b) => cmpBlocks(a, b));
  // one row per block, built once: a trace of a large fan-out has thousands of blocks
  const idOf = new Map<Block, string>();
  for (const b of sorted) {
    const row = blockToRow(b, trace);
    idOf.set(b, row.action_id);
    if (byId.has(row.action_id)) continue;
    byId.set(row.action_id, row);
    rows.push(row);
  }
  // child actions of non-v1 actions are stored too, marked with their ancestors
  for (const b of sorted) {
    if (V1_TYPES.has(b.outType ?? b.type)) continue;
    const parentId = idOf.get(b)!;
    if (byId.get(parentId)?.type !== (b.outType ?? b.type)) continue;
    for (const child of childBlocks(b)) {
      const row = blockToRow(child, trace);
      if (row.action_id === parentId || byId.has(row.action_id)) continue;
      row.parent_action_id = parentId;
      row.ancestor_type = [b.type];
      byId.set(row.action_id, row);
      rows.push(row);
    }
  }
  if (rows.length === 0) rows.push(unknownRow(trace));
  return { actions: rows, blocks: sorted };
}

function cmpBlocks(a: Block, b: Block): number {
  const la = minLt(a), lb = minLt(b);
  return la < lb ? -1 : la > lb ? 1 : 0;
}
function minLt(b: Block): bigint {
  return b.nodes.reduce((m, n) => (n.tx.lt < m ? n.tx.lt : m), b.nodes[0]?.tx.lt ?? 0n);
}

/** Children of a high-level block: the blocks it absorbed plus basic blocks of its other nodes. */
function childBlocks(b: Block): Block[] {
  const out: Block[] = [...b.children];
  const covered = new Set<EventNode>(b.children.flatMap((c) => c.nodes));
  for (const n of b.nodes) {
    if (covered.has(n)) continue;
    const bb = basicBlock(n);
    if (bb) out.push(bb);
  }
  return out;
}

function unknownRow(trace: Trace): ActionRow {
  const txs = trace.transactions;
  return {
    action_id: Buffer.from(trace.traceId, 'hex').toString('base64'),
    type: 'unknown',
    trace_id: trace.traceId,
    tx_hashes: txs.map((t) => t.hash),
    start_lt: trace.startLt,
    end_lt: trace.endLt,
    start_utime: trace.startUtime,
    end_utime: trace.endUtime,
    success: !txs.some((t) => t.aborted),
    mc_seqno_end: trace.mcSeqnoEnd,
    source: null, source_secondary: null, destination: null, destination_secondary: null,
    asset: null, asset_secondary: null, asset2: null, asset2_secondary: null,
    opcode: null, value: null, amount: null, value_extra_currencies: {},
    accounts: [...new Set(txs.map((t) => t.account))],
    parent_action_id: null,
    ancestor_type: [],
    trace_end_lt: trace.endLt,
    trace_end_utime: trace.endUtime,
    trace_external_hash: trace.externalHash,
    trace_external_hash_norm: trace.externalHashNorm ?? null,
    trace_mc_seqno_end: trace.mcSeqnoEnd,
  };
}
