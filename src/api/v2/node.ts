/**
 * NodeClient: the liteserver calls API v2 makes, as one generic `query` of a lite_api function object.
 * LiteNode implements it over ton-lite-client (one engine, or the project's LiteserverPool through its
 * `call`), with an optional archival runner for history a regular liteserver no longer keeps.
 */
import type { LiteClient, LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import type { TlObject } from '../../tl/index.ts';
import { liteV2 } from './lite-tl.ts';

export interface QueryOptions {
  timeoutMs?: number;
  /** Ask an archival liteserver first. */
  archival?: boolean;
}

export interface NodeClient {
  /** Sends a boxed lite_api function object (`{_: 'liteServer.getMasterchainInfo', ...}`); returns the decoded answer. */
  query(fn: TlObject, opts?: QueryOptions): Promise<TlObject>;
  /** Latest masterchain seqno seen by health checks, with the time it was seen (getConsensusBlock). */
  consensus?(): { seqno: number; at: number } | null;
  close?(): Promise<void>;
}

/** The liteserver answered with an error (liteServer.error or a refusal). */
export class LiteServerError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'LiteServerError';
  }
}

/** No liteserver answered in time. */
export class NodeTimeoutError extends Error {
  constructor(message = 'node network timeout') {
    super(message);
    this.name = 'NodeTimeoutError';
  }
}

/** Errors meaning "this liteserver does not keep that history": retried on an archival liteserver. */
export function isNotInDb(message: string): boolean {
  return /not in db|state already gc'?d|cannot locate|block is not applied|block not found|lt not in db|cannot load block|not found in db|seqno not in db/i.test(message);
}

function isTimeoutText(m: string): boolean {
  return /^timeout$|timed out|timeout|engine is closed|ECONN|socket|no usable liteserver/i.test(m);
}

/** Classifies what a runner threw: a timeout / transport failure, or a liteserver answer. */
export function classifyNodeError(err: unknown): Error {
  if (err instanceof LiteServerError || err instanceof NodeTimeoutError) return err;
  const msg = (err as Error)?.message ?? String(err);
  // The pool joins the per-attempt failures ("…failed on every attempt: host: msg; host: msg").
  const parts = msg.includes('failed on every attempt:') ? msg.split('failed on every attempt:')[1].split(';').map((s) => s.replace(/^\s*[^\s:]+:\d+:\s*/, '').replace(/^\s*[^\s:]+:\s*/, '').trim()) : [msg];
  if (parts.every((p) => isTimeoutText(p))) return new NodeTimeoutError();
  const answer = parts.filter((p) => !isTimeoutText(p)).pop() ?? msg;
  return new LiteServerError(answer);
}

/** A ton-tl TLFunction that (de)serializes through our TL codec. */
const tlFunction: TLFunction<TlObject, TlObject> = {
  encodeRequest(src, encoder) {
    const bytes = liteV2.encode(src);
    // TL objects are 4-byte aligned: write them as little-endian int32 words.
    for (let i = 0; i < bytes.length; i += 4) encoder.writeInt32(bytes.readInt32LE(i));
  },
  decodeResponse(decoder) {
    const obj = liteV2.decode(decoder.readObject());
    if (obj._ === 'liteServer.error') throw new LiteServerError(String(obj.message), Number(obj.code));
    return obj;
  },
};

/**
 * Runs a function against one liteserver engine (with retries / failover inside, if the runner has them).
 * `info.what` names the lite_api function; `info.attempts` caps retries (1 for sendMessage: a refused
 * message is refused everywhere, and an accepted one must not be sent twice).
 */
export type EngineRunner = <T>(fn: (engine: LiteEngine) => Promise<T>, info?: { what: string; attempts?: number }) => Promise<T>;

export interface LiteNodeOptions {
  run: EngineRunner;
  /** Archival liteservers: used when the regular ones say the data is not in their db. */
  archival?: EngineRunner;
  timeoutMs?: number;
  consensus?: () => { seqno: number; at: number } | null;
  close?: () => Promise<void>;
}

/** The LiteserverPool surface LiteNode uses (src/source/pool.ts). */
export interface PoolLike {
  call<T>(fn: (client: LiteClient) => Promise<T>, opts?: { what?: string; attempts?: number; timeoutMs?: number }): Promise<T>;
  bestTip?: number;
}

export class LiteNode implements NodeClient {
  constructor(private readonly opts: LiteNodeOptions) {}

  /** Over one engine (e.g. a LiteSingleEngine connected to one liteserver). */
  static fromEngine(engine: LiteEngine, opts: Omit<LiteNodeOptions, 'run'> = {}): LiteNode {
    return new LiteNode({ ...opts, run: (fn) => fn(engine) });
  }

  /** Over anything with the LiteserverPool `call` shape (src/source/pool.ts). */
  static fromPool(
    pool: PoolLike,
    opts: Omit<LiteNodeOptions, 'run'> & { archivalPool?: PoolLike } = {},
  ): LiteNode {
    const run: EngineRunner = (fn, info) => pool.call((c) => fn(c.engine), info);
    const archivalPool = opts.archivalPool;
    const archival: EngineRunner | undefined = archivalPool ? (fn, info) => archivalPool.call((c) => fn(c.engine), info) : opts.archival;
    let seenSeqno = 0;
    let seenAt = 0;
    return new LiteNode({
      ...opts,
      run,
      archival,
      consensus:
        opts.consensus ??
        (() => {
          const tip = pool.bestTip ?? 0;
          if (tip === 0) return null;
          if (tip !== seenSeqno) {
            seenSeqno = tip;
            seenAt = Math.floor(Date.now() / 1000);
          }
          return { seqno: seenSeqno, at: seenAt };
        }),
    });
  }

  private async once(run: EngineRunner, fn: TlObject, timeoutMs: number): Promise<TlObject> {
    try {
      const what = String(fn._);
      return await run((engine) => engine.query(tlFunction, fn, { timeout: timeoutMs }), { what, attempts: what === 'liteServer.sendMessage' ? 1 : undefined });
    } catch (err) {
      throw classifyNodeError(err);
    }
  }

  async query(fn: TlObject, opts: QueryOptions = {}): Promise<TlObject> {
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? 10_000;
    const archival = this.opts.archival;
    if (opts.archival && archival) return this.once(archival, fn, timeoutMs);
    try {
      return await this.once(this.opts.run, fn, timeoutMs);
    } catch (err) {
      if (archival && err instanceof LiteServerError && isNotInDb(err.message)) return this.once(archival, fn, timeoutMs);
      throw err;
    }
  }

  consensus(): { seqno: number; at: number } | null {
    return this.opts.consensus?.() ?? null;
  }

  async close(): Promise<void> {
    await this.opts.close?.();
  }
}
