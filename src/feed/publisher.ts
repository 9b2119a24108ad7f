/**
 * The indexer's side of the streaming API: turns what the traces stage produced for a masterchain seqno into feed
 * events (schemas/bus/notifications.ts), and the checkpoint into the finality mark.
 *
 * A seqno is published when it is processed (and final when the checkpoint passes it), with its own transactions,
 * whatever their traces: a transaction is published once, in its seqno, grouped by trace, also when a message of
 * its trace is still in flight (the newest seqno's transactions always are; a chain that stops leaves them so for
 * good). A trace's actions and its whole-trace notification come in the seqno that completes it: the documents of
 * its earlier seqnos are kept here while it is open (the assembler keeps the open traces in memory too, so this is
 * of the same size), and after a restart the ones written before are read from the store.
 */
import type { Logger } from 'pino';
import type { FeedEvent, FeedSeqno, FeedTrace } from '../../schemas/bus/index.ts';
import { kvPointReads } from '../kv/index.ts';
import { parseTxDoc } from '../decode/index.ts';
import { tablePointReads } from '../store/read/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import { type Row } from '../util/index.ts';
import type { DecodedBlock } from '../ton/index.ts';
import type { McBatchOutput } from '../traces/index.ts';
import type { NotificationSink } from './feed.ts';

/** What the pipeline tells the streaming API (pipelines/index.ts calls these). */
export interface PipelineNotifications {
  /** The traces stage processed `mcSeqno` (assembled and classified), before writing it. */
  seqnoProcessed(mcSeqno: number, out: McBatchOutput, blocks: readonly DecodedBlock[]): Promise<void>;
  /** The checkpoint passed `mcSeqno`: its rows and those of every seqno before are durable. */
  checkpoint(mcSeqno: number): Promise<void>;
}

/** A value in the store's JSON form: bigint as a decimal string (also inside maps of amounts). */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = jsonValue(x);
    return o;
  }
  return v;
}

export function jsonRow(r: object): Row {
  return jsonValue(r) as Row;
}

/** trace_external_hash_norm of a trace row: the root external message's normalized hash, else its hash, else the id. */
export function traceNorm(t: { trace_id: unknown; external_hash?: unknown; external_hash_norm?: unknown }): string {
  return String(t.external_hash_norm ?? t.external_hash ?? t.trace_id);
}

/** Documents of a part of one feed message: kept well under Kafka's default 1 MB message size once gzipped. */
const PART_DOC_CHARS = 512 * 1024;
/** Open traces' documents kept in memory; past it the oldest are dropped and read back from the store if needed. */
const MAX_OPEN_DOCS = 200_000;

interface Doc {
  doc: string;
  account: string;
}

/**
 * The documents of a written trace's transactions, from the store's point reads: the key-value store (every entry
 * written, the checkpoint not waited for: this process wrote them) or, on a server, its tables.
 */
async function storedTraceDocs(store: StoreClient, traceIds: string[]): Promise<Map<string, Map<string, Doc>>> {
  const points = store.kv && store.pointReads === 'kv' ? kvPointReads(store.kv, { everything: true }) : tablePointReads((sql, params) => store.query(sql, params), store);
  const txs = await points.traceTxs(traceIds);
  const traceOf = new Map(txs.map((t) => [t.hash, t.trace_id]));
  const out = new Map<string, Map<string, Doc>>();
  for (const text of await points.docs([...traceOf.keys()])) {
    const tx = parseTxDoc(text).tx;
    const hash = String(tx.hash);
    const id = traceOf.get(hash);
    if (id === undefined) continue;
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    m.set(hash, { doc: text, account: String(tx.account) });
  }
  return out;
}

export class NotificationPublisher implements PipelineNotifications {
  /** open trace id -> its transactions so far (tx hash -> document and account) */
  private readonly open = new Map<string, Map<string, Doc>>();
  private openDocs = 0;

  constructor(
    private readonly sink: NotificationSink,
    private readonly opts: { store?: StoreClient; logger?: Logger; maxOpenDocs?: number; partDocChars?: number } = {},
  ) {}

  async seqnoProcessed(mcSeqno: number, out: McBatchOutput, blocks: readonly DecodedBlock[]): Promise<void> {
    try {
      await this.sink.publish(await this.events(mcSeqno, out, blocks));
    } catch (err) {
      // never the indexer's problem: the subscribers of this seqno miss it (and resync from /api/v3)
      this.opts.logger?.error({ err: (err as Error).message, mc_seqno: mcSeqno }, 'streaming: publishing a seqno failed');
    }
  }

  async checkpoint(mcSeqno: number): Promise<void> {
    try {
      await this.sink.publish([{ kind: 'finalized', mc_seqno: mcSeqno, at: Date.now() }]);
    } catch (err) {
      this.opts.logger?.error({ err: (err as Error).message, mc_seqno: mcSeqno }, 'streaming: publishing a checkpoint failed');
    }
  }

  /** The feed events of one processed seqno (exported for tests and the bench through the class). */
  async events(mcSeqno: number, out: McBatchOutput, blocks: readonly DecodedBlock[]): Promise<FeedEvent[]> {
    // this seqno's transactions, per trace
    const fresh = new Map<string, Map<string, Doc>>();
    for (const r of out.traced.transaction_docs_kv) {
      const hash = String(r.hash);
      const traceId = out.traceIds.get(hash);
      if (!traceId) continue;
      const doc = { doc: String(r.doc), account: String(r.account) };
      let f = fresh.get(traceId);
      if (!f) fresh.set(traceId, (f = new Map()));
      f.set(hash, doc);
      let m = this.open.get(traceId);
      if (!m) this.open.set(traceId, (m = new Map()));
      if (!m.has(hash)) this.openDocs++;
      m.set(hash, doc);
    }
    const touched = [...out.traces].sort((a, b) => (a.end_lt < b.end_lt ? -1 : a.end_lt > b.end_lt ? 1 : a.trace_id < b.trace_id ? -1 : 1));
    const completed = touched.filter((t) => t.pending_edges === 0);
    // documents written before (a restart, or evicted): from the store
    const short = completed.filter((t) => (this.open.get(t.trace_id)?.size ?? 0) < t.nodes).map((t) => t.trace_id);
    if (short.length && this.opts.store) {
      const stored = await storedTraceDocs(this.opts.store, short);
      for (const id of short) {
        const m = this.open.get(id) ?? new Map<string, Doc>();
        for (const [h, d] of stored.get(id) ?? []) if (!m.has(h)) m.set(h, d);
        this.open.set(id, m);
      }
    }
    const actionsOf = new Map<string, { row: Row; accounts: string[] }[]>();
    const accountsOf = new Map<string, string[]>();
    for (const a of out.tables.action_accounts) {
      const k = String(a.action_id);
      const l = accountsOf.get(k);
      if (l) l.push(String(a.account));
      else accountsOf.set(k, [String(a.account)]);
    }
    for (const a of out.tables.actions) {
      const id = String(a.trace_id);
      const l = actionsOf.get(id) ?? [];
      l.push({ row: jsonRow(a), accounts: [...new Set(accountsOf.get(String(a.action_id)) ?? [])].sort() });
      actionsOf.set(id, l);
    }
    const traces: FeedTrace[] = [];
    for (const t of touched) {
      const mine = fresh.get(t.trace_id) ?? new Map<string, Doc>();
      const now = [...mine.values()];
      const complete = t.pending_edges === 0;
      let earlier: Doc[] = [];
      if (complete) {
        const docs = this.open.get(t.trace_id);
        this.open.delete(t.trace_id);
        this.openDocs -= docs?.size ?? 0;
        if ((docs?.size ?? 0) < t.nodes) {
          this.opts.logger?.warn({ trace_id: t.trace_id, nodes: t.nodes, docs: docs?.size ?? 0 }, 'streaming: a trace is published without some of its transactions (documents not found)');
        }
        earlier = [...(docs ?? new Map<string, Doc>())].filter(([h]) => !mine.has(h)).map(([, d]) => d);
      } else if (now.length === 0) {
        continue;
      }
      traces.push({
        trace: jsonRow(t), norm: traceNorm(t), docs: now.map((d) => d.doc), accounts: [...new Set(now.map((d) => d.account))], complete,
        earlier: earlier.map((d) => d.doc), actions: complete ? (actionsOf.get(t.trace_id) ?? []) : [],
      });
    }
    this.evict();
    // the state of each account at the end of the seqno (an account's shard may have several blocks in it)
    const states = new Map<string, DecodedBlock['account_states'][number]>();
    for (const b of blocks) {
      for (const s of b.account_states) {
        const had = states.get(s.account);
        if (!had || s.last_trans_lt > had.last_trans_lt) states.set(s.account, s);
      }
    }
    const accounts = [...states.values()]
      .sort((a, b) => (a.account < b.account ? -1 : 1))
      .map((s) =>
        jsonRow({
          account: s.account, hash: s.hash, balance: s.balance, extra_currencies: s.balance_extra_currencies, account_status: s.account_status,
          frozen_hash: s.frozen_hash, data_hash: s.data_hash, code_hash: s.code_hash, last_trans_lt: s.last_trans_lt, last_trans_hash: s.last_trans_hash,
        }),
      );
    const wallets = new Map<string, Row>();
    for (const w of out.entities.jetton_wallets) {
      const had = wallets.get(String(w.address));
      if (!had || BigInt(String(w.last_transaction_lt)) >= BigInt(String(had.last_transaction_lt))) wallets.set(String(w.address), w);
    }
    const jettonWallets = [...wallets.values()].sort((a, b) => (String(a.address) < String(b.address) ? -1 : 1)).map(jsonRow);
    return this.parts(mcSeqno, traces, accounts, jettonWallets);
  }

  private parts(mcSeqno: number, traces: FeedTrace[], accounts: Row[], jettonWallets: Row[]): FeedSeqno[] {
    const limit = this.opts.partDocChars ?? PART_DOC_CHARS;
    const groups: FeedTrace[][] = [[]];
    let size = 0;
    for (const t of traces) {
      const n = [...t.docs, ...t.earlier].reduce((a, d) => a + d.length, 0);
      if (size > 0 && size + n > limit) {
        groups.push([]);
        size = 0;
      }
      groups[groups.length - 1].push(t);
      size += n;
    }
    const at = Date.now();
    return groups.map((g, i) => {
      const last = i === groups.length - 1;
      return { kind: 'seqno', mc_seqno: mcSeqno, part: i, last, at, traces: g, accounts: last ? accounts : [], jetton_wallets: last ? jettonWallets : [] };
    });
  }

  /** Bounds the open traces' documents (oldest traces first; they come back from the store when they complete). */
  private evict(): void {
    const max = this.opts.maxOpenDocs ?? MAX_OPEN_DOCS;
    for (const [id, m] of this.open) {
      if (this.openDocs <= max) break;
      this.open.delete(id);
      this.openDocs -= m.size;
    }
  }

  /** Open traces and documents held (tests, metrics). */
  get held(): { traces: number; docs: number } {
    return { traces: this.open.size, docs: this.openDocs };
  }
}
