/**
 * The off-chain metadata fetcher (issue #6): off by default, a background loop beside the indexer that never
 * sits on the indexing path. Each round it reads jetton masters, NFT collections and NFT items whose content is
 * known but whose `address_metadata` row is missing or expired, resolves their TEP-64 content (on-chain
 * attributes are written at once; an off-chain or semi-chain URI is fetched), and writes one row per address:
 * `valid` with name/description/symbol/image/extra and an expiry after which it is fetched again, or
 * `valid = false` with the reason in `extra.error` and a shorter expiry. Transient failures are retried with
 * exponential backoff before a row is written; the per-host rate limit spaces requests to one server.
 * Rows are what the API's `metadata` blocks read (src/api/v3/address-book.ts).
 */
import type { StoreClient } from '../store/client/index.ts';
import { mirrorRows } from '../kv/index.ts';
import { metadataFields, parseStoredContent, type TokenContent } from './content.ts';
import { FetchError, fetchJsonObject, HostRateLimiter, realClock, resolveUri, type Clock } from './fetch.ts';

export type MetadataType = 'jetton_masters' | 'nft_collections' | 'nft_items';

export interface Candidate {
  address: string;
  type: MetadataType;
  content: TokenContent;
}

export interface MetadataFetcherOptions {
  /** gateway for ipfs:// URIs (default https://ipfs.io) */
  ipfsGateway?: string;
  /** requests per second to one host (default 1) */
  hostRps?: number;
  /** whole request, headers and body (default 10 s) */
  timeoutMs?: number;
  /** body size cap (default 512 KiB) */
  maxBytes?: number;
  /** further attempts after a transient failure (default 2) */
  retries?: number;
  /** first backoff, doubled per attempt (default 1 s) */
  backoffMs?: number;
  /** a valid row is fetched again after this (default 7 days) */
  successTtlMs?: number;
  /** an invalid row is tried again after this (default 1 hour) */
  failureTtlMs?: number;
  /** addresses per round (default 50) */
  batchSize?: number;
  /** pause between rounds (default 10 s; a full batch starts the next round at once) */
  intervalMs?: number;
  /** documents fetched at once (different hosts proceed in parallel; default 4) */
  concurrency?: number;
  /** allow loopback / private hosts (default false: content URIs come from anyone's contract) */
  allowPrivateHosts?: boolean;
  clock?: Clock;
  logger?: { info(o: object, msg?: string): void; warn(o: object, msg?: string): void };
}

export interface RoundStats {
  candidates: number;
  valid: number;
  invalid: number;
}

const DAY = 86_400_000;

/** DateTime64(3) input that reads the same on any server time zone: "seconds.millis" since the epoch. */
function dt(ms: number): string {
  return `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, '0')}`;
}

export class MetadataFetcher {
  private readonly o: Required<Omit<MetadataFetcherOptions, 'logger'>> & Pick<MetadataFetcherOptions, 'logger'>;
  private readonly limiter: HostRateLimiter;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly store: StoreClient,
    opts: MetadataFetcherOptions = {},
  ) {
    this.o = {
      ipfsGateway: opts.ipfsGateway ?? 'https://ipfs.io',
      hostRps: opts.hostRps ?? 1,
      timeoutMs: opts.timeoutMs ?? 10_000,
      maxBytes: opts.maxBytes ?? 512 * 1024,
      retries: opts.retries ?? 2,
      backoffMs: opts.backoffMs ?? 1000,
      successTtlMs: opts.successTtlMs ?? 7 * DAY,
      failureTtlMs: opts.failureTtlMs ?? 3_600_000,
      batchSize: opts.batchSize ?? 50,
      intervalMs: opts.intervalMs ?? 10_000,
      concurrency: opts.concurrency ?? 4,
      allowPrivateHosts: opts.allowPrivateHosts ?? false,
      clock: opts.clock ?? realClock,
      logger: opts.logger,
    };
    this.limiter = new HostRateLimiter(this.o.hostRps, this.o.clock);
  }

  /** Entities with content and no unexpired metadata row. */
  async candidates(limit = this.o.batchSize): Promise<Candidate[]> {
    const rows = await this.store.query<{ address: string; type: MetadataType; content: string }>(
      `SELECT address, type, content FROM (
         SELECT address, 'jetton_masters' AS type, jetton_content AS content FROM jetton_masters FINAL WHERE jetton_content NOT IN ('', '{}')
         UNION ALL SELECT address, 'nft_collections' AS type, collection_content AS content FROM nft_collections FINAL WHERE collection_content NOT IN ('', '{}')
         UNION ALL SELECT address, 'nft_items' AS type, content FROM nft_items FINAL WHERE content NOT IN ('', '{}')
       )
       WHERE (address, type) NOT IN (
         SELECT address, toString(type) FROM address_metadata FINAL
         WHERE expires_at IS NULL OR expires_at > fromUnixTimestamp64Milli({now:Int64}))
       ORDER BY address, type LIMIT {n:UInt32}`,
      { now: this.o.clock.now(), n: limit },
    );
    const out: Candidate[] = [];
    for (const r of rows) {
      const content = parseStoredContent(r.content) ?? { uri: null, onchain: {} };
      out.push({ address: r.address, type: r.type, content });
    }
    return out;
  }

  /** Resolves one candidate (fetching its URI if any) and writes its row; returns whether it is valid. */
  async process(c: Candidate): Promise<boolean> {
    const now = () => this.o.clock.now();
    let row: Record<string, unknown>;
    try {
      let offchain: Record<string, unknown> | null = null;
      if (c.content.uri) offchain = await this.fetchWithRetry(c.content.uri);
      else if (Object.keys(c.content.onchain).length === 0) throw new FetchError('content has neither a URI nor on-chain attributes', false);
      const f = metadataFields(offchain, c.content.onchain, c.content.uri);
      row = { valid: true, name: f.name, description: f.description, symbol: f.symbol, image: f.image, extra: JSON.stringify(f.extra), expires_at: dt(now() + this.o.successTtlMs) };
    } catch (e) {
      const reason = e instanceof FetchError ? e.message : `unexpected: ${(e as Error).message}`;
      this.o.logger?.warn({ address: c.address, type: c.type, uri: c.content.uri, reason }, 'metadata invalid');
      row = { valid: false, name: null, description: null, symbol: null, image: null, extra: JSON.stringify({ error: reason, uri: c.content.uri }), expires_at: dt(now() + this.o.failureTtlMs) };
    }
    const stored = { address: c.address, type: c.type, is_nsfw: false, is_scam: false, updated_at: dt(now()), ...row };
    await this.store.insertFormatted('address_metadata', JSON.stringify(stored), 'JSONEachRow');
    // the key-value store's copy (src/kv), read by the API's metadata blocks; not chain data: visible at once
    if (this.store.kv) await mirrorRows(this.store.kv, [{ table: 'address_metadata', rows: [stored], tag: 0 }]);
    return row.valid === true;
  }

  private async fetchWithRetry(uri: string): Promise<Record<string, unknown>> {
    const url = resolveUri(uri, this.o.ipfsGateway);
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire(url.host);
      try {
        return await fetchJsonObject(url, { timeoutMs: this.o.timeoutMs, maxBytes: this.o.maxBytes, allowPrivateHosts: this.o.allowPrivateHosts });
      } catch (e) {
        if (!(e instanceof FetchError) || !e.transient || attempt >= this.o.retries) throw e;
        await this.o.clock.sleep(this.o.backoffMs * 2 ** attempt);
      }
    }
  }

  /** One round: a batch of candidates, `concurrency` at a time. */
  async runOnce(): Promise<RoundStats> {
    const list = await this.candidates();
    const stats: RoundStats = { candidates: list.length, valid: 0, invalid: 0 };
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const c = list[next++];
        if (await this.process(c)) stats.valid++;
        else stats.invalid++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency, list.length) }, worker));
    if (list.length) this.o.logger?.info({ ...stats }, 'metadata round');
    return stats;
  }

  /** Starts the background loop (errors are logged, the loop goes on). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      let full = false;
      try {
        full = (await this.runOnce()).candidates >= this.o.batchSize;
      } catch (e) {
        this.o.logger?.warn({ err: (e as Error).message.split('\n')[0] }, 'metadata round failed');
      }
      if (!this.stopped) this.timer = setTimeout(() => { this.running = loop(); }, full ? 0 : this.o.intervalMs);
    };
    this.running = loop();
  }

  /** Stops the loop and waits for the round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
