/**
 * ↔ indexer/events/blocks/utils/tree_utils.py: the event tree. One node per received message (its transaction),
 * plus one per external-out message (a "notification", kept on the sending transaction), plus the tick-tock
 * transactions; ghost nodes stand for the intended messages of a failed wallet external (event_processing.py).
 */
import { hashToBase64 } from '../format/index.ts';
import { InterfaceRepository } from './interfaces.ts';
import type { Trace, TraceMessage, TraceTransaction } from './model.ts';

export class NoMessageBodyException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoMessageBodyException';
  }
}

/**
 * A message as upstream's `Message` row: the trace model's message plus its direction and the transaction it
 * belongs to (the receiving one for `in`, the sending one for `out`). `msgHash` is upstream's key string
 * (standard base64 of the hash; ghost messages have their own, see processing.ts).
 */
export interface Message {
  msgHash: string;
  direction: 'in' | 'out';
  transaction: TraceTransaction;
  source: string | null;
  destination: string | null;
  value: bigint | null;
  valueExtraCurrencies: Record<string, string> | null;
  fwdFee: bigint | null;
  ihrFee: bigint | null;
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  createdLt: bigint | null;
  createdAt: number | null;
  /** `message_content.body` (BoC base64); null when the message has no content row */
  body: string | null;
}

export function messageOf(m: TraceMessage, direction: 'in' | 'out', tx: TraceTransaction): Message {
  return {
    msgHash: hashToBase64(m.hash),
    direction,
    transaction: tx,
    source: m.source,
    destination: m.destination,
    value: m.value,
    valueExtraCurrencies: m.valueExtraCurrencies ?? null,
    fwdFee: m.fwdFee ?? null,
    ihrFee: m.ihrFee ?? null,
    opcode: m.opcode,
    bounce: m.bounce,
    bounced: m.bounced,
    createdLt: m.createdLt,
    createdAt: m.createdAt,
    body: m.body,
  };
}

export class EventNode {
  message: Message;
  readonly isTickTock: boolean;
  readonly tickTockTx: TraceTransaction | null;
  parent: EventNode | null = null;
  children: EventNode[];
  handled = false;
  emulated: boolean;
  failed: boolean;
  readonly ghostNode: boolean;
  /** the interface repository of the node's trace (context.ts), the same for every node of a tree */
  readonly repository: InterfaceRepository;

  constructor(message: Message | null, children: EventNode[], opts: { repository: InterfaceRepository; tickTockTx?: TraceTransaction; ghostNode?: boolean }) {
    this.children = children;
    this.ghostNode = opts.ghostNode ?? false;
    this.repository = opts.repository;
    if (opts.tickTockTx) {
      const tx = opts.tickTockTx;
      this.isTickTock = true;
      this.tickTockTx = tx;
      // upstream gives a tick-tock node a message row of its own: the tx hash, direction in, nothing else
      this.message = {
        msgHash: hashToBase64(tx.hash), direction: 'in', transaction: tx, source: null, destination: null, value: null,
        valueExtraCurrencies: null, fwdFee: null, ihrFee: null, opcode: null, bounce: null, bounced: null,
        createdLt: null, createdAt: null, body: null,
      };
    } else {
      if (message === null) throw new TypeError('event node without a message');
      this.isTickTock = false;
      this.tickTockTx = null;
      this.message = message;
      if (message.body === null) {
        throw new NoMessageBodyException(`Message content is None for ${message.msgHash} - tx: ${hashToBase64(message.transaction.hash)}`);
      }
    }
    this.emulated = this.message.transaction.emulated ?? false;
    this.failed = this.message.transaction.aborted;
  }

  getType(): 'notification' | 'external' | 'internal' {
    if (this.message.destination === null) return 'notification';
    if (this.message.source === null) return 'external';
    return 'internal';
  }

  /** The message's opcode as unsigned 32 bits, or null. */
  getOpcode(): number | null {
    return this.message.opcode === null ? null : this.message.opcode >>> 0;
  }

  addChild(child: EventNode): void {
    this.children.push(child);
    child.parent = this;
  }

  /**
   * The transaction that received the node's message (the tick-tock transaction of a tick-tock node); none for an
   * external-out node, whose message no transaction received (upstream's callers check for None).
   */
  getTx(): TraceTransaction | null {
    if (this.isTickTock) return this.tickTockTx;
    return this.message.direction === 'in' ? this.message.transaction : null;
  }

  /** Hex hash of the message's transaction (the sender's for an external-out node). */
  getTxHash(): string {
    return this.message.transaction.hash;
  }

  /** The message's created_lt; the transaction lt for tick-tock nodes and messages without one (external-in). */
  getLt(): bigint {
    if (this.isTickTock) return this.tickTockTx!.lt;
    return this.message.createdLt ?? this.message.transaction.lt;
  }

  /** As getLt, in time: the message's created_at, else the transaction's now. */
  getUtime(): number {
    if (this.isTickTock) return this.tickTockTx!.now;
    return this.message.createdAt ?? this.message.transaction.now;
  }
}

/**
 * `to_tree`: transactions from the latest to the earliest; each becomes a node for its in-message (or a tick-tock
 * node), adopting the nodes of its out-messages' receivers (already built: they are later) and a node per
 * external-out message. The root is the earliest transaction's topmost ancestor. An internal out-message whose
 * receiver is not in the trace fails (upstream asserts), as does a transaction with neither in-message nor
 * tick-tock. Every node carries `repository`: by default one of the trace's own records (context.ts).
 */
export function toTree(trace: Pick<Trace, 'interfaces' | 'transactions'>, repository = new InterfaceRepository(trace)): EventNode {
  const txs = [...trace.transactions].sort((a, b) => (a.lt < b.lt ? 1 : a.lt > b.lt ? -1 : 0));
  if (txs.length === 0) throw new Error('trace has no transactions');
  const msgTx = new Map<string, string>();
  const nodes = new Map<string, EventNode>();
  const createNode = (tx: TraceTransaction): EventNode => {
    if (tx.inMsg === null && tx.descr === 'tick_tock') return new EventNode(null, [], { repository, tickTockTx: tx });
    if (tx.inMsg === null) throw new TypeError(`transaction ${tx.hash} has no in-message`);
    msgTx.set(tx.inMsg.hash, tx.hash);
    return new EventNode(messageOf(tx.inMsg, 'in', tx), [], { repository });
  };
  for (const tx of txs) {
    if (nodes.has(tx.hash)) continue;
    const node = createNode(tx);
    nodes.set(tx.hash, node);
    for (const m of tx.outMsgs) {
      if (m.destination === null) {
        node.addChild(new EventNode(messageOf(m, 'out', tx), [], { repository }));
      } else {
        const receiver = msgTx.get(m.hash);
        if (receiver === undefined) throw new Error(`out message ${m.hash} of ${tx.hash} has no receiving transaction in the trace`);
        node.addChild(nodes.get(receiver)!);
      }
    }
  }
  let root = nodes.get(txs[txs.length - 1].hash)!;
  while (root.parent !== null) root = root.parent;
  return root;
}
