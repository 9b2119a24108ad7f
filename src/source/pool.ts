/**
 * A pool over every liteserver of a network config: one ton-lite-client LiteSingleEngine per server,
 * periodic health checks (getMasterchainInfo), dropping servers that fail or lag behind the best tip and
 * taking them back when they recover, per-request timeouts, retries with backoff on another server, and a
 * bound on concurrent requests. `call(fn)` is the general entry; typed methods cover what the indexer and
 * the API v2 layer need.
 */
import { connect } from 'node:net';
import { Address } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_masterchainInfo, tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import { installAdnlSpeedups } from './adnl-transport.ts';
import type { BlockRef } from '../ton/index.ts';
import { MASTER_SHARD, refKey, shardFromSigned, shardToSigned, type BlockIdExt } from './block-id.ts';
import { BlockHashMismatch, verifyBlock, type VerifiedBlock } from './block-header.ts';
import type { LiteserverEndpoint } from './network-config.ts';

export interface PoolOptions {
  /** Per-request timeout. */
  timeoutMs?: number;
  /** Attempts per call (each on another server when one is available). */
  attempts?: number;
  /** Max requests in flight over the whole pool. */
  concurrency?: number;
  /** Health check period. */
  healthIntervalMs?: number;
  /** A server whose masterchain tip is more than this behind the best is not used. */
  maxLag?: number;
  /** How long a failed server stays out before it is tried again. */
  downForMs?: number;
  logger?: Logger;
}

export type ServerStatus = 'connecting' | 'up' | 'lagging' | 'down';

/** One liteserver as the pool sees it. */
export interface ServerHandle {
  readonly index: number;
  readonly host: string;
  readonly client: LiteClient;
  readonly engine: LiteSingleEngine;
}

interface ServerState extends ServerHandle {
  status: ServerStatus;
  tip: number;
  inFlight: number;
  failures: number;
  downUntil: number;
  /** Dropped for a wrong answer: out until then, health checks or not (its tip is not believed either). */
  badUntil: number;
  /** Wrong answers so far: each one keeps the server out twice as long. */
  strikes: number;
  lastError: string | null;
  requests: number;
}

export interface ServerInfo {
  host: string;
  status: ServerStatus;
  tip: number;
  inFlight: number;
  requests: number;
  lastError: string | null;
}

/** No liteserver answered: the message names the servers tried and what to check. */
export class NoLiteserverError extends Error {
  override name = 'NoLiteserverError';
}

/** Thrown from inside `call(fn)` to say the server answered wrongly: it is dropped and the call retried elsewhere. */
export class BadAnswerError extends Error {
  override name = 'BadAnswerError';
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

installAdnlSpeedups();

/** Whether a TCP connection to `host` opens: null when it does, else why not, in words. */
function tcpProbe(host: string, timeoutMs = 3000): Promise<string | null> {
  const [ip, port] = host.split(':');
  return new Promise<string | null>((resolve) => {
    const sock = connect({ host: ip, port: Number(port), timeout: timeoutMs });
    sock.once('connect', () => {
      sock.destroy();
      resolve(null);
    });
    sock.once('timeout', () => {
      sock.destroy();
      resolve('TCP connect timed out');
    });
    sock.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'connection refused' : (err.code ?? err.message)));
  });
}

/** Says why a server did not answer, in words: refused, unreachable, or TCP fine but no ADNL answer. */
function explain(tcp: string | null, lastError: string | null): string {
  return tcp ?? `TCP connects but no liteserver answer (${lastError ?? 'no reply'}; wrong public key?)`;
}

export function toTlBlockId(id: BlockIdExt): tonNode_blockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: shardToSigned(id.shard).toString(),
    seqno: id.seqno,
    rootHash: Buffer.from(id.rootHash, 'hex'),
    fileHash: Buffer.from(id.fileHash, 'hex'),
  };
}

export function fromTlBlockId(id: tonNode_blockIdExt): BlockIdExt {
  return {
    workchain: id.workchain,
    shard: shardFromSigned(id.shard),
    seqno: id.seqno,
    rootHash: id.rootHash.toString('hex'),
    fileHash: id.fileHash.toString('hex'),
  };
}

/** ton-lite-client's BlockID shape (shard as a signed decimal string, hashes as Buffers). */
export function toClientBlockId(id: BlockIdExt) {
  return { workchain: id.workchain, shard: shardToSigned(id.shard).toString(), seqno: id.seqno, rootHash: Buffer.from(id.rootHash, 'hex'), fileHash: Buffer.from(id.fileHash, 'hex') };
}

/** Whether an error is the server's answer (liteServer.error), not a transport failure (timeout, closed socket). */
export function isServerAnswer(err: unknown): boolean {
  // liteServer.error answers are decoded by ton-lite-client into plain Errors with the server's text;
  // transport failures say "Timeout" / "Engine is closed" or come from the socket.
  const m = (err as Error)?.message ?? '';
  return !(m === 'Timeout' || m.includes('closed') || m.includes('ECONN') || m.includes('timed out') || m.includes('socket'));
}

export class LiteserverPool {
  readonly servers: ServerState[];
  private readonly queue: PQueue;
  private readonly opts: Required<Omit<PoolOptions, 'logger'>>;
  private readonly log?: Logger;
  private healthTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private started = false;
  private rr = 0;
  /** Best masterchain tip seen by health checks. */
  bestTip = 0;
  /** Started pools not closed yet (the ton_liteservers_up metric counts their servers). */
  private static readonly live = new Set<LiteserverPool>();

  /** Servers in use (status up) over every started pool of the process. */
  static serversUp(): number {
    let n = 0;
    for (const p of LiteserverPool.live) n += p.servers.filter((s) => s.status === 'up').length;
    return n;
  }

  constructor(endpoints: LiteserverEndpoint[], options: PoolOptions = {}) {
    if (endpoints.length === 0) throw new NoLiteserverError('the network config lists no liteservers');
    this.opts = {
      timeoutMs: options.timeoutMs ?? 10_000,
      attempts: options.attempts ?? 4,
      concurrency: options.concurrency ?? 64,
      healthIntervalMs: options.healthIntervalMs ?? 5_000,
      maxLag: options.maxLag ?? 8,
      downForMs: options.downForMs ?? 15_000,
    };
    this.log = options.logger;
    this.queue = new PQueue({ concurrency: this.opts.concurrency });
    this.servers = endpoints.map((ep, index) => {
      const engine = new LiteSingleEngine({ host: `tcp://${ep.host}`, publicKey: ep.publicKey, reconnectTimeout: 1_000 });
      // An EventEmitter 'error' without a listener would crash the process; failures are counted per request.
      engine.on('error', () => undefined);
      const client = new LiteClient({ engine, batchSize: 1, cacheMap: 0 });
      return { index, host: ep.host, engine, client, status: 'connecting', tip: 0, inFlight: 0, failures: 0, downUntil: 0, badUntil: 0, strikes: 0, lastError: null, requests: 0 } satisfies ServerState;
    });
  }

  /**
   * Starts health checks and resolves when at least one server answers, or throws NoLiteserverError after `waitMs`
   * (one error naming every server and why it did not answer; the servers' failures before that are not logged
   * one by one).
   */
  async start(waitMs = 5_000): Promise<void> {
    const deadline = Date.now() + waitMs;
    // why a server does not answer is asked at once (TCP), so that the answer is ready at the deadline
    const tcp = this.servers.map((s) => tcpProbe(s.host, Math.max(500, Math.min(3000, waitMs - 500))));
    const refused: (string | null | undefined)[] = this.servers.map(() => undefined);
    tcp.forEach((p, i) => void p.then((r) => (refused[i] = r)));
    // the first server to answer is enough: a round of health checks waits for the slowest (dead) one
    let round: Promise<void> | null = null;
    let rounds = 0;
    const check = () => {
      round = this.healthCheck().finally(() => {
        round = null;
        rounds++;
      });
    };
    check();
    while (!this.servers.some((s) => s.status === 'up')) {
      // no server takes a TCP connection, or its ADNL connection failed (ton-lite-client then closes the engine
      // for 30 s): waiting longer cannot help
      const hopeless = rounds > 0 && this.servers.every((s, i) => typeof refused[i] === 'string' || s.engine.isClosed());
      if (Date.now() > deadline || this.closed || hopeless) {
        await Promise.all(this.servers.map(async (s, i) => (s.lastError = explain(await tcp[i], s.lastError))));
        throw new NoLiteserverError(
          `no liteserver answered (tried ${this.servers.map((s) => `${s.host}${s.lastError ? ` [${s.lastError}]` : ''}`).join(', ')}); ` +
            'check the network config (--network / --config), your internet connection and firewall (outgoing TCP to those ports). ' +
            'To try ton-gateway without a network, run `npm run demo`.',
        );
      }
      await sleep(100);
      if (round === null && !this.servers.some((s) => s.status === 'up')) {
        await sleep(400);
        check();
      }
    }
    this.started = true;
    LiteserverPool.live.add(this);
    if (!this.healthTimer) {
      this.healthTimer = setInterval(() => void this.healthCheck(), this.opts.healthIntervalMs);
      this.healthTimer.unref();
    }
  }

  /** Queries every server's masterchain tip; marks each up, lagging or down. */
  async healthCheck(): Promise<void> {
    await Promise.all(
      this.servers.map(async (s) => {
        try {
          const info = await this.withTimeout(s.client.getMasterchainInfo({ timeout: this.opts.timeoutMs }), Math.min(this.opts.timeoutMs, 5_000));
          s.tip = info.last.seqno;
          // a server that answered wrongly stays out until its time is up, whatever its health
          if (Date.now() < s.badUntil) return;
          s.failures = 0;
          s.lastError = null;
          if (s.status !== 'up' && s.status !== 'lagging') this.log?.info({ server: s.host, tip: s.tip }, 'liteserver up');
          s.status = 'up';
        } catch (err) {
          s.lastError = (err as Error).message;
          // before start() succeeds its one error says it all
          if (s.status !== 'down' && this.started) this.log?.warn({ server: s.host, err: s.lastError }, 'liteserver down');
          else if (s.status !== 'down') this.log?.debug({ server: s.host, err: s.lastError }, 'liteserver not answering yet');
          s.status = 'down';
          s.downUntil = Date.now() + this.opts.healthIntervalMs;
        }
      }),
    );
    // the best tip of the servers believed: one that answered wrongly could claim any tip, making the others lag
    const now = Date.now();
    this.bestTip = Math.max(0, ...this.servers.filter((s) => now >= s.badUntil).map((s) => s.tip));
    for (const s of this.servers) {
      if (s.status === 'up' && this.bestTip - s.tip > this.opts.maxLag) {
        this.log?.warn({ server: s.host, tip: s.tip, best: this.bestTip }, 'liteserver lags, not used until it catches up');
        s.status = 'lagging';
      } else if (s.status === 'lagging' && this.bestTip - s.tip <= this.opts.maxLag) {
        s.status = 'up';
      }
    }
  }

  /**
   * Takes a server out of rotation until a later health check (repeated failures), or, with `bad` (a wrong answer),
   * for `downForMs`, doubling with each wrong answer (up to 10 min), health checks or not.
   */
  drop(server: ServerHandle, reason: string, bad = false): void {
    const s = this.servers[server.index];
    s.status = 'down';
    s.lastError = reason;
    s.downUntil = Date.now() + this.opts.downForMs;
    if (bad) {
      s.strikes++;
      s.downUntil = Date.now() + Math.min(this.opts.downForMs * 2 ** (s.strikes - 1), 600_000);
      s.badUntil = s.downUntil;
    }
    this.log?.warn({ server: s.host, reason, until: bad ? new Date(s.downUntil).toISOString() : undefined }, 'liteserver dropped');
  }

  /** The per-request timeout. */
  get requestTimeoutMs(): number {
    return this.opts.timeoutMs;
  }

  info(): ServerInfo[] {
    return this.servers.map((s) => ({ host: s.host, status: s.status, tip: s.tip, inFlight: s.inFlight, requests: s.requests, lastError: s.lastError }));
  }

  /** "no usable liteserver", with why the servers are out (a dropped liar's refusal is the news). */
  private noneUsable(): string {
    const why = this.servers.filter((s) => s.status !== 'up' && s.lastError).map((s) => `${s.host} ${s.status}: ${s.lastError}`);
    return why.length ? `no usable liteserver (${why.slice(0, 3).join('; ')}${why.length > 3 ? `; ${why.length - 3} more` : ''})` : 'no usable liteserver';
  }

  private pick(exclude: Set<number>): ServerState | null {
    const now = Date.now();
    const usable = (s: ServerState) => !exclude.has(s.index) && (s.status === 'up' || s.status === 'connecting' || (s.status === 'down' && now >= s.downUntil));
    let candidates = this.servers.filter((s) => usable(s) && s.status === 'up');
    if (candidates.length === 0) candidates = this.servers.filter(usable);
    if (candidates.length === 0) return null;
    // Least loaded, ties broken round-robin.
    const min = Math.min(...candidates.map((s) => s.inFlight));
    const least = candidates.filter((s) => s.inFlight === min);
    return least[this.rr++ % least.length];
  }

  private withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('Timeout')), ms);
      p.then(
        (v) => {
          clearTimeout(t);
          resolve(v);
        },
        (e) => {
          clearTimeout(t);
          reject(e);
        },
      );
    });
  }

  /**
   * Runs `fn` against one server, with the per-request timeout; on failure retries on another server
   * (backoff 100 ms doubling). `fn` throws BadAnswerError to have the server dropped.
   */
  async call<T>(fn: (client: LiteClient, server: ServerHandle) => Promise<T>, opts: { what?: string; attempts?: number; timeoutMs?: number } = {}): Promise<T> {
    if (this.closed) throw new NoLiteserverError('the liteserver pool is closed');
    const attempts = opts.attempts ?? this.opts.attempts;
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;
    return (await this.queue.add(async () => {
      const tried = new Set<number>();
      const errors: string[] = [];
      for (let attempt = 0; attempt < attempts; attempt++) {
        if (this.closed) break;
        let s = this.pick(tried);
        if (!s) {
          tried.clear(); // every server tried once: go round again after a pause
          s = this.pick(tried);
        }
        if (!s) {
          errors.push(this.noneUsable());
          await sleep(Math.min(100 * 2 ** attempt, 2_000));
          continue;
        }
        tried.add(s.index);
        s.inFlight++;
        s.requests++;
        try {
          const result = await this.withTimeout(fn(s.client, s), timeoutMs);
          s.failures = 0;
          if (s.status === 'down' || s.status === 'connecting') s.status = 'up';
          return result;
        } catch (err) {
          const msg = (err as Error).message;
          errors.push(`${s.host}: ${msg}`);
          if (err instanceof BadAnswerError) {
            this.drop(s, msg, true);
          } else if (!isServerAnswer(err)) {
            s.failures++;
            s.lastError = msg;
            if (s.failures >= 2) this.drop(s, `${s.failures} failures in a row, last: ${msg}`);
          }
          this.log?.debug({ server: s.host, what: opts.what, err: msg, attempt }, 'liteserver request failed, retrying elsewhere');
          if (attempt + 1 < attempts) await sleep(Math.min(100 * 2 ** attempt, 2_000));
        } finally {
          s.inFlight--;
        }
      }
      // each failure once, latest last: a refusal stays in the message when the refused server is out of the pool
      const distinct = [...new Set(errors.reverse())].reverse();
      throw new NoLiteserverError(`${opts.what ?? 'liteserver request'} failed on every attempt: ${distinct.slice(-4).join('; ')}`);
    })) as T;
  }

  // ---- typed calls -------------------------------------------------------------------------------

  getMasterchainInfo(): Promise<liteServer_masterchainInfo> {
    return this.call((c) => c.getMasterchainInfo({ timeout: this.opts.timeoutMs }), { what: 'getMasterchainInfo' });
  }

  /** The masterchain tip's full id. */
  async getMasterchainTip(): Promise<BlockIdExt> {
    return fromTlBlockId((await this.getMasterchainInfo()).last);
  }

  /** Full id of a block by (workchain, shard, seqno), as one server names it (not proved: see trust.ts). */
  async lookupBlockOn(client: LiteClient, ref: BlockRef<bigint>): Promise<BlockIdExt> {
    const res = await client.engine.query(
      Functions.liteServer_lookupBlock,
      { kind: 'liteServer.lookupBlock', mode: 1, id: { kind: 'tonNode.blockId', workchain: ref.workchain, shard: shardToSigned(ref.shard).toString(), seqno: ref.seqno }, lt: null, utime: null },
      { timeout: this.opts.timeoutMs },
    );
    const id = fromTlBlockId(res.id);
    if (id.workchain !== ref.workchain || id.shard !== ref.shard || id.seqno !== ref.seqno) {
      throw new BadAnswerError(`lookupBlock ${refKey(ref)} answered ${refKey(id)}`);
    }
    return id;
  }

  /** Full id of a block by (workchain, shard, seqno). */
  lookupBlock(ref: BlockRef<bigint>): Promise<BlockIdExt> {
    return this.call((c) => this.lookupBlockOn(c, ref), { what: `lookupBlock ${refKey(ref)}` });
  }

  lookupMasterchainBlock(seqno: number): Promise<BlockIdExt> {
    return this.lookupBlock({ workchain: -1, shard: MASTER_SHARD, seqno });
  }

  /** Raw block bytes, verified against `id` (root_hash, file_hash); a server answering wrong bytes is dropped. */
  getBlock(id: BlockIdExt): Promise<VerifiedBlock> {
    return this.call(
      async (c) => {
        const res = await c.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: toTlBlockId(id) }, { timeout: this.opts.timeoutMs });
        try {
          return verifyBlock(id, res.data);
        } catch (err) {
          if (err instanceof BlockHashMismatch) throw new BadAnswerError(err.message);
          throw err;
        }
      },
      { what: `getBlock ${refKey(id)}` },
    );
  }

  getBlockHeader(id: BlockIdExt) {
    return this.call((c) => c.getBlockHeader(toClientBlockId(id)), { what: `getBlockHeader ${refKey(id)}` });
  }

  getAllShardsInfo(id: BlockIdExt) {
    return this.call((c) => c.getAllShardsInfo(toClientBlockId(id)), { what: `getAllShardsInfo ${refKey(id)}` });
  }

  getAccountState(address: Address, block: BlockIdExt) {
    return this.call((c) => c.getAccountState(address, toClientBlockId(block)), { what: `getAccountState ${address.toRawString()}` });
  }

  /**
   * The raw Account BoC of liteServer.accountState (empty: no account) at a masterchain block, or at the tip when
   * `block` is null, unparsed (the caller reads it), with the block it is at. `attempts` / `timeoutMs` bound it
   * for callers that must not wait long.
   */
  getAccountStateBoc(address: Address, block: BlockIdExt | null, opts: { attempts?: number; timeoutMs?: number } = {}): Promise<{ block: BlockIdExt; state: Buffer }> {
    const timeout = opts.timeoutMs ?? this.opts.timeoutMs;
    return this.call(
      async (c) => {
        const id = block ? toTlBlockId(block) : (await c.getMasterchainInfo({ timeout })).last;
        const res = await c.engine.query(
          Functions.liteServer_getAccountState,
          { kind: 'liteServer.getAccountState', id, account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash } },
          { timeout },
        );
        return { block: fromTlBlockId(res.id), state: res.state };
      },
      { what: `getAccountState ${address.toRawString()}`, ...opts },
    );
  }

  runSmcMethod(address: Address, method: string, params: Buffer, block: BlockIdExt) {
    return this.call((c) => c.runMethod(address, method, params, toClientBlockId(block)), { what: `runSmcMethod ${method}` });
  }

  /** Sends an external message; not retried on another server once a server accepted the bytes. */
  sendMessage(boc: Buffer) {
    return this.call((c) => c.sendMessage(boc), { what: 'sendMessage', attempts: 2 });
  }

  getTransactions(address: Address, lt: bigint, hash: Buffer, count: number) {
    return this.call((c) => c.getAccountTransactions(address, lt.toString(), hash, count), { what: `getTransactions ${address.toRawString()}` });
  }

  listBlockTransactions(id: BlockIdExt, args: { mode: number; count: number; after?: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null }) {
    return this.call((c) => c.listBlockTransactions(toClientBlockId(id), args), { what: `listBlockTransactions ${refKey(id)}` });
  }

  getConfig(id: BlockIdExt) {
    return this.call((c) => c.getConfig(toClientBlockId(id)), { what: 'getConfig' });
  }

  /** liteServer.getConfigAll's config proof (a ShardState Merkle proof), unparsed: the caller reads the ConfigParams. */
  getConfigAllProof(id: BlockIdExt): Promise<Buffer> {
    return this.call(
      async (c) => (await c.engine.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: toTlBlockId(id) }, { timeout: this.opts.timeoutMs })).configProof,
      { what: 'getConfigAll' },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    LiteserverPool.live.delete(this);
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.queue.clear();
    for (const s of this.servers) {
      s.engine.close();
      // ton-lite-client reconnects 30 s after a socket error even when closed; that timer would keep the
      // process alive, so make its reconnect a no-op.
      (s.engine as unknown as { connect: () => void }).connect = () => undefined;
    }
  }
}
