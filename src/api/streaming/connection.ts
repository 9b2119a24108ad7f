/**
 * The two transports of a subscriber, behind one interface the hub writes to. Each has a bounded buffer: what the
 * peer has not taken yet (Node's stream buffer, ws's bufferedAmount) past `maxBuffered` bytes cuts the connection
 * with a reason (an SSE `error` event, a WebSocket error message and close frame 1008), so that a stalled client
 * costs a bounded amount of memory and never holds anything else back. Heartbeats: the SSE keepalive comment
 * toncenter sends (`: keepalive`), WebSocket ping frames (a peer that answers none of two is dropped).
 */
import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';

export interface StreamConnection {
  readonly transport: 'sse' | 'ws';
  /** Sends one notification (JSON text). */
  send(json: string): void;
  heartbeat(): void;
  /** Closes with a reason the client is told; the socket goes after `graceMs` (default: the connection's). */
  cut(reason: string, graceMs?: number): void;
  /** Bytes written and not taken by the peer yet. */
  readonly buffered: number;
  readonly closed: boolean;
}

/**
 * How long a cut connection may take to flush what it was sent and its reason before its socket is destroyed: a
 * client that stalled for a while and reads again still learns why it was cut. (Default; HubOptions.cutGraceMs.)
 */
export const CUT_GRACE_MS = 30_000;

export class SseConnection implements StreamConnection {
  readonly transport = 'sse' as const;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBuffered: number,
    private readonly graceMs = CUT_GRACE_MS,
  ) {
    res.on('close', () => {
      this.done = true;
    });
  }

  /** The response head and toncenter's first frame. */
  open(id: string | undefined): void {
    // a stream is the connection's last response: once it ends the socket closes (`Connection: close`, not kept alive)
    this.res.shouldKeepAlive = false;
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      // nginx and similar proxies: pass events through as they come
      'X-Accel-Buffering': 'no',
    });
    this.write(`event: connected\ndata: ${JSON.stringify(id === undefined ? { status: 'subscribed' } : { id, status: 'subscribed' })}\n\n`);
  }

  private write(text: string): void {
    if (this.done) return;
    this.res.write(text);
    if (this.res.writableLength > this.maxBuffered) this.cut(`slow consumer: ${this.res.writableLength} bytes not taken by the client (limit ${this.maxBuffered}); resync from /api/v3 and reconnect`);
  }

  send(json: string): void {
    this.write(`event: event\ndata: ${json}\n\n`);
  }

  heartbeat(): void {
    this.write(': keepalive\n\n');
  }

  cut(reason: string, graceMs = this.graceMs): void {
    if (this.done) return;
    this.done = true;
    // the reason last, then the socket closes (not kept alive for another request)
    this.res.end(`event: error\ndata: ${JSON.stringify({ error: reason })}\n\n`);
    setTimeout(() => this.res.destroy(), graceMs).unref();
  }

  get buffered(): number {
    return this.res.writableLength;
  }

  get closed(): boolean {
    return this.done;
  }

  onClose(cb: () => void): void {
    this.res.on('close', cb);
  }
}

export class WsConnection implements StreamConnection {
  readonly transport = 'ws' as const;
  private alive = true;
  private done = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly maxBuffered: number,
    private readonly graceMs = CUT_GRACE_MS,
  ) {
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => {
      this.done = true;
    });
  }

  /** An answer to a request (`{id, status}` or `{id, error}`), or a notification. */
  private write(text: string): void {
    if (this.done || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(text);
    if (this.ws.bufferedAmount > this.maxBuffered) this.cut(`slow consumer: ${this.ws.bufferedAmount} bytes not taken by the client (limit ${this.maxBuffered}); resync from /api/v3 and reconnect`);
  }

  reply(o: Record<string, unknown>): void {
    this.write(JSON.stringify(o));
  }

  send(json: string): void {
    this.write(json);
  }

  heartbeat(): void {
    if (this.done) return;
    if (!this.alive) {
      this.done = true;
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  cut(reason: string, graceMs = this.graceMs): void {
    if (this.done) return;
    this.done = true;
    if (this.ws.readyState === this.ws.OPEN) {
      this.ws.send(JSON.stringify({ error: reason }));
      // close reasons are at most 123 bytes
      this.ws.close(1008, reason.slice(0, 120));
    }
    setTimeout(() => this.ws.terminate(), graceMs).unref();
  }

  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  get closed(): boolean {
    return this.done;
  }
}
