/**
 * The streaming hub of one network: consumes the notification feed (src/feed), keeps the subscribers, and
 * delivers each seqno's notifications at two finality levels:
 *   - confirmed: when the feed brings a seqno's content (the traces stage processed it, before writing it);
 *   - finalized: when the feed brings the checkpoint past it (every row of it is in the store).
 * No `pending` (no emulator) and so no `trace_invalidated`: nothing sent here is ever withdrawn.
 *
 * Events are handled one at a time, in feed order, off the publisher's path (the feed handler only queues), so a
 * subscriber never holds back indexing: its connection has a bounded buffer and is cut past it (connection.ts). A part
 * is rendered once per level, and only when some subscriber gets something of it; each distinct notification is
 * serialized once for every subscriber that gets it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { FeedEvent } from '../../../schemas/bus/index.ts';
import { forgetNonEmptyTables } from '../../store/read/index.ts';
import { type StoreClient } from '../../store/client/index.ts';
import type { NotificationFeed } from '../../feed/index.ts';
import { Db } from '../v3/index.ts';
import { CUT_GRACE_MS, type StreamConnection } from './connection.ts';
import { streamingMetrics, type StreamingMetrics } from './metrics.ts';
import { notesFor } from './notify.ts';
import { preparePart, renderPart, type PreparedPart, type RenderNeeds } from './render.ts';
import { FINALITY_RANK, type Finality, type Subscription } from './subscription.ts';
import type { EmulationService, PendingEvent } from '../../emulate/index.ts';
import { hashToBase64 } from '../../format/index.ts';

export interface StreamLimits {
  /** Concurrent connections per client IP without an API key, and per API key. */
  anonymousConnections: number;
  keyConnections: number;
  /** Addresses (and trace hashes) per subscription without / with a key. */
  anonymousAddresses: number;
  keyAddresses: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { anonymousConnections: 5, keyConnections: 100, anonymousAddresses: 100, keyAddresses: 10_000 };

export interface HubOptions {
  feed: NotificationFeed;
  store: StoreClient;
  testnet: boolean;
  logger?: FastifyBaseLogger;
  limits?: Partial<StreamLimits>;
  /** Per connection: bytes the client has not taken yet past which it is cut (default 4 MiB). */
  maxBufferedBytes?: number;
  /** How long a cut connection keeps its socket to flush its reason (default 30 s). */
  cutGraceMs?: number;
  /** Keepalive interval (default 15 s, as toncenter). */
  heartbeatMs?: number;
  /** Seqnos kept for their finalized level (default 1024): a checkpoint that stalls longer loses the oldest. */
  maxPendingSeqnos?: number;
  /** Feed events waiting to be handled past which every subscriber is cut (the hub fell behind; default 10,000). */
  maxQueued?: number;
  metrics?: Registry;
  /** Statement timeout of the renders' reads (default 10 s). */
  renderTimeoutMs?: number;
}

export class HubClient {
  delivered = 0;
  constructor(
    readonly id: number,
    /** the limits' bucket: `key:<sha256>` or `ip:<address>` */
    readonly bucket: string,
    readonly conn: StreamConnection,
    public sub: Subscription,
  ) {}
}

export interface HubStats {
  clients: number;
  /** notifications sent (to each subscriber: one per subscriber) */
  delivered: number;
  /** renders of a part at a level */
  renders: number;
  /** connections cut: slow consumers, render failures, the hub falling behind */
  cut: { slow: number; error: number; behind: number };
  /** seqnos waiting for their checkpoint */
  pending: number;
  finalizedUpTo: number;
}

/** Called for each notification sent (bench and tests measure with it). */
export type DeliveryObserver = (client: HubClient, note: { type: string; finality: string; mcSeqno: number; publishedAt: number }) => void;

function add<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (s) s.add(v);
  else m.set(k, new Set([v]));
}

function remove<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

export class StreamHub {
  readonly limits: StreamLimits;
  readonly maxBufferedBytes: number;
  readonly cutGraceMs: number;
  private readonly clients = new Set<HubClient>();
  private readonly byAddress = new Map<string, Set<HubClient>>();
  private readonly byTrace = new Map<string, Set<HubClient>>();
  private readonly perBucket = new Map<string, number>();
  private readonly pending = new Map<number, PreparedPart[]>();
  /** parts seen per seqno (duplicates after a publisher restart are dropped) */
  private readonly seen = new Map<number, Set<number>>();
  private finalizedUpTo = -1;
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  private nextId = 1;
  private feedSub: { close(): Promise<void> } | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly db: Db;
  private readonly m: StreamingMetrics | null;
  private readonly counts = { delivered: 0, renders: 0, cut: { slow: 0, error: 0, behind: 0 } };
  observer: DeliveryObserver | null = null;
  /** emulated traces' norms -> the subscribers told of them before the chain (they get its trace_invalidated) */
  private readonly mayInvalidate = new Map<string, Set<HubClient>>();
  /** Set by the gateway to the server's logger. */
  logger: FastifyBaseLogger | undefined;

  constructor(private readonly opts: HubOptions) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...opts.limits };
    this.maxBufferedBytes = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.cutGraceMs = opts.cutGraceMs ?? CUT_GRACE_MS;
    this.db = new Db(opts.store, opts.renderTimeoutMs ?? 10_000, (err, sql) => this.logger?.error({ err, sql: sql.slice(0, 300) }, 'streaming: render query failed'));
    this.m = opts.metrics ? streamingMetrics(opts.metrics) : null;
    this.logger = opts.logger;
  }

  async start(): Promise<void> {
    if (this.feedSub) return;
    this.feedSub = await this.opts.feed.subscribe((e) => this.enqueue(e));
    this.timer = setInterval(() => {
      for (const c of this.clients) c.conn.heartbeat();
    }, this.opts.heartbeatMs ?? 15_000);
    this.timer.unref();
  }

  /** Stops consuming and closes every connection (the server is closing: SSE responses would keep it open). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.feedSub?.close();
    this.feedSub = null;
    for (const c of [...this.clients]) {
      c.conn.cut('server shutting down', 1000);
      this.remove(c);
    }
    await this.chain;
  }

  // ------------------------------------------------------------------ subscribers

  /** The connection limit of a bucket: null when one more may connect, else the refusal (toncenter's text). */
  admit(bucket: string, keyed: boolean): string | null {
    const max = keyed ? this.limits.keyConnections : this.limits.anonymousConnections;
    const n = this.perBucket.get(bucket) ?? 0;
    return n >= max ? `connection limit reached: ${max} active connections` : null;
  }

  maxAddresses(keyed: boolean): number {
    return keyed ? this.limits.keyAddresses : this.limits.anonymousAddresses;
  }

  add(bucket: string, conn: StreamConnection, sub: Subscription): HubClient {
    const c = new HubClient(this.nextId++, bucket, conn, sub);
    this.clients.add(c);
    this.perBucket.set(bucket, (this.perBucket.get(bucket) ?? 0) + 1);
    this.index(c);
    this.m?.connections.inc({ transport: conn.transport });
    return c;
  }

  remove(c: HubClient): void {
    if (!this.clients.delete(c)) return;
    this.unindex(c);
    const n = (this.perBucket.get(c.bucket) ?? 1) - 1;
    if (n > 0) this.perBucket.set(c.bucket, n);
    else this.perBucket.delete(c.bucket);
    this.m?.connections.dec({ transport: c.conn.transport });
  }

  /** Replaces a subscriber's subscription (WebSocket subscribe / unsubscribe): takes effect for the next part. */
  update(c: HubClient, sub: Subscription): void {
    this.unindex(c);
    c.sub = sub;
    if (this.clients.has(c)) this.index(c);
  }

  private index(c: HubClient): void {
    for (const a of c.sub.addresses) add(this.byAddress, a, c);
    for (const t of c.sub.traces) add(this.byTrace, t, c);
  }

  private unindex(c: HubClient): void {
    for (const a of c.sub.addresses) remove(this.byAddress, a, c);
    for (const t of c.sub.traces) remove(this.byTrace, t, c);
  }

  /** The subscribers, in the order they connected. */
  list(): HubClient[] {
    return [...this.clients];
  }

  stats(): HubStats {
    return { clients: this.clients.size, delivered: this.counts.delivered, renders: this.counts.renders, cut: { ...this.counts.cut }, pending: this.pending.size, finalizedUpTo: this.finalizedUpTo };
  }

  // ------------------------------------------------------------------ feed

  private enqueue(e: FeedEvent): void {
    this.queued++;
    if (this.queued > (this.opts.maxQueued ?? 10_000)) {
      this.logger?.warn({ queued: this.queued }, 'streaming: the hub fell behind the feed; cutting every subscriber');
      this.cutAll('behind', 'the server fell behind the chain; resync from /api/v3 and reconnect');
    }
    this.chain = this.chain
      .then(() => this.handle(e))
      .catch((err: unknown) => this.logger?.error({ err }, 'streaming: handling a feed event failed'))
      .finally(() => {
        this.queued--;
      });
  }

  /**
   * Emulated traces (src/emulate): each trace the service holds as pending is delivered at the `pending` level to
   * the subscribers that asked for it (min_finality pending); those get `trace_invalidated` if the chain makes
   * another trace of the message or none within the service's bounds (toncenter's TracesForPotentialInvalidation).
   */
  attachEmulation(service: EmulationService): void {
    service.on((e) => {
      this.chain = this.chain
        .then(() => this.handlePending(e))
        .catch((err: unknown) => this.logger?.error({ err }, 'streaming: handling an emulated trace failed'));
    });
  }

  private async handlePending(e: PendingEvent): Promise<void> {
    if (e.kind === 'confirmed' || e.kind === 'unresolved') {
      this.mayInvalidate.delete(e.norm);
      return;
    }
    if (e.kind === 'invalidated') {
      const who = this.mayInvalidate.get(e.norm);
      this.mayInvalidate.delete(e.norm);
      if (!who) return;
      const text = JSON.stringify({ type: 'trace_invalidated', trace_external_hash_norm: hashToBase64(e.norm) });
      for (const c of who) {
        if (c.conn.closed || !this.clients.has(c)) continue;
        c.conn.send(text);
        c.delivered++;
        this.counts.delivered++;
        this.m?.notifications.inc({ type: 'trace_invalidated', finality: 'pending' });
        this.observer?.(c, { type: 'trace_invalidated', finality: 'pending', mcSeqno: 0, publishedAt: Date.now() });
      }
      return;
    }
    if (this.clients.size === 0) return;
    const rows = e.entry.rows;
    const t = rows.trace;
    const part: PreparedPart = {
      mcSeqno: rows.mcSeqno,
      part: 0,
      last: true,
      at: e.entry.at,
      traces: [
        {
          // upstream's pending trace (src/api/emulate/render.ts): no trace id, the message's hash, every message pending
          row: { ...t, trace_id: null, external_hash: rows.externalHash, state: 'pending', pending_edges: t.edges },
          norm: rows.norm,
          docs: rows.docs,
          complete: true,
          earlier: [],
          txAccounts: new Set(rows.accounts),
          actionAccounts: new Set(rows.actions.flatMap((a) => a.accounts)),
          actions: rows.actions.map((a) => ({ row: { ...a.row, trace_id: null }, accounts: a.accounts })),
        },
      ],
      accounts: [],
      jettons: [],
    };
    await this.deliver(part, 'pending');
  }

  /** Resolves once every event queued so far is handled (tests). */
  idle(): Promise<void> {
    return this.chain;
  }

  private async handle(e: FeedEvent): Promise<void> {
    if (e.kind === 'finalized') {
      if (e.mc_seqno <= this.finalizedUpTo) return;
      this.finalizedUpTo = e.mc_seqno;
      // the address book knows which entity tables have rows for a few seconds; these seqnos may have filled one
      if (this.pending.size) forgetNonEmptyTables(this.opts.store);
      for (const s of [...this.pending.keys()].sort((a, b) => a - b)) {
        if (s > e.mc_seqno) break;
        const parts = this.pending.get(s)!;
        this.pending.delete(s);
        for (const p of parts) await this.deliver(p, 'finalized');
      }
      for (const s of this.seen.keys()) if (s < e.mc_seqno - 4096) this.seen.delete(s);
      return;
    }
    const parts = this.seen.get(e.mc_seqno) ?? new Set<number>();
    if (parts.has(e.part)) return; // published again (the publisher restarted before writing it)
    parts.add(e.part);
    this.seen.set(e.mc_seqno, parts);
    // nobody to tell: nothing kept (a subscriber gets what happens from when it subscribed)
    if (this.clients.size === 0) return;
    const p = preparePart(e);
    if (e.mc_seqno <= this.finalizedUpTo) {
      // its checkpoint came first (another publisher's message overtook it): final already
      await this.deliver(p, 'finalized');
      return;
    }
    const list = this.pending.get(e.mc_seqno);
    if (list) list.push(p);
    else this.pending.set(e.mc_seqno, [p]);
    const max = this.opts.maxPendingSeqnos ?? 1024;
    while (this.pending.size > max) {
      const oldest = Math.min(...this.pending.keys());
      this.pending.delete(oldest);
      this.logger?.warn({ mc_seqno: oldest }, 'streaming: no checkpoint for too long; a seqno is dropped before its finalized notifications');
    }
    await this.deliver(p, 'confirmed');
  }

  /** Who gets something of `p` at `level`, and what has to be rendered for them. */
  private needs(p: PreparedPart, level: Finality): { who: Set<HubClient>; needs: RenderNeeds } {
    const rank = FINALITY_RANK[level];
    const who = new Set<HubClient>();
    const needs: RenderNeeds = { traces: new Set(), whole: new Set(), accounts: false, jettons: false, book: false, metadata: false };
    const wants = (c: HubClient) => FINALITY_RANK[c.sub.minFinality] <= rank;
    const take = (c: HubClient) => {
      who.add(c);
      needs.book ||= c.sub.includeAddressBook;
      needs.metadata ||= c.sub.includeMetadata;
    };
    p.traces.forEach((t, i) => {
      for (const a of new Set([...t.txAccounts, ...t.actionAccounts])) {
        for (const c of this.byAddress.get(a) ?? []) {
          if (!wants(c)) continue;
          if ((c.sub.types.has('transactions') && t.txAccounts.has(a)) || (c.sub.types.has('actions') && t.actionAccounts.has(a))) {
            needs.traces.add(i);
            take(c);
          }
        }
      }
      // a trace goes whole to its subscribers once complete
      for (const c of t.complete ? (this.byTrace.get(t.norm) ?? []) : []) {
        if (!wants(c) || !c.sub.types.has('trace')) continue;
        needs.traces.add(i);
        needs.whole.add(i);
        take(c);
      }
    });
    for (const r of p.accounts) {
      for (const c of this.byAddress.get(String(r.account)) ?? []) {
        if (!wants(c) || !c.sub.types.has('account_state_change')) continue;
        needs.accounts = true;
        who.add(c);
      }
    }
    for (const r of p.jettons) {
      for (const a of [String(r.address), String(r.owner)]) {
        for (const c of this.byAddress.get(a) ?? []) {
          if (!wants(c) || !c.sub.types.has('jettons_change')) continue;
          needs.jettons = true;
          take(c);
        }
      }
    }
    return { who, needs };
  }

  private async deliver(p: PreparedPart, level: Finality): Promise<void> {
    const { who, needs } = this.needs(p, level);
    if (who.size === 0) return;
    let part;
    try {
      part = await renderPart(p, level, needs, { db: this.db, testnet: this.opts.testnet });
      if (level === 'pending') {
        for (const t of part.traces) {
          if (!t) continue;
          for (const x of t.txs) Object.assign(x.json, { emulated: true, trace_external_hash: t.normB64 });
          if (t.trace) {
            t.trace.trace_id = null;
            for (const x of Object.values((t.trace.transactions as Record<string, Record<string, unknown>>) ?? {})) Object.assign(x, { emulated: true, trace_external_hash: t.normB64 });
          }
          for (const a of t.actions) {
            delete a.json.trace_id;
            delete a.bare.trace_id;
          }
        }
      }
    } catch (err) {
      this.logger?.error({ err, mc_seqno: p.mcSeqno, level }, 'streaming: rendering a seqno failed; its subscribers are cut');
      for (const c of who) this.cut(c, 'error', `notifications of masterchain seqno ${p.mcSeqno} could not be rendered; resync from /api/v3 and reconnect`);
      return;
    }
    this.counts.renders++;
    const texts = new Map<string, string>();
    for (const c of who) {
      if (c.conn.closed) continue;
      for (const n of notesFor(c.sub, part)) {
        let text = texts.get(n.key);
        if (text === undefined) texts.set(n.key, (text = JSON.stringify(n.make())));
        c.conn.send(text);
        c.delivered++;
        this.counts.delivered++;
        if (level === 'pending') {
          for (const t of part.traces) {
            if (!t) continue;
            const s = this.mayInvalidate.get(t.norm) ?? new Set<HubClient>();
            s.add(c);
            this.mayInvalidate.set(t.norm, s);
          }
        }
        this.m?.notifications.inc({ type: n.type, finality: level });
        this.observer?.(c, { type: n.type, finality: level, mcSeqno: p.mcSeqno, publishedAt: p.at });
        if (c.conn.closed) {
          // cut by its own buffer bound: a slow consumer (its slot is free at once: it may reconnect)
          this.counts.cut.slow++;
          this.m?.cut.inc({ reason: 'slow' });
          this.remove(c);
          break;
        }
      }
    }
    this.m?.deliverySeconds.observe({ finality: level }, Math.max(0, Date.now() - p.at) / 1000);
  }

  private cut(c: HubClient, why: 'slow' | 'error' | 'behind', reason: string): void {
    if (c.conn.closed) return;
    c.conn.cut(reason);
    this.remove(c);
    this.counts.cut[why]++;
    this.m?.cut.inc({ reason: why });
  }

  private cutAll(why: 'behind', reason: string): void {
    for (const c of this.clients) this.cut(c, why, reason);
  }
}
