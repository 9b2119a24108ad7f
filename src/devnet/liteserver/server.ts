/**
 * The local liteserver: ADNL TCP server answering liteServer.* queries from a ChainSource.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { liteApi, TlError, TlReader, type TlObject } from '../../tl/index.ts';
import type { ChainSource } from '../chain/source.ts';
import { AdnlConnection } from './adnl.ts';
import { ErrorCode, LiteServerError } from './errors.ts';
import { LiteHandlers } from './handlers.ts';
import { serverKeyFromSeed } from './keys.ts';

export interface LiteServerOptions {
  source: ChainSource;
  /** 0 or absent: an ephemeral port. */
  port?: number;
  host?: string;
  /** The ed25519 private key seed (32 bytes). */
  key: Buffer;
  /** Called for every query (method name, error if any): for logs. */
  onQuery?: (method: string, error?: LiteServerError) => void;
  /**
   * Stands between a decoded query and the handlers: gets the query and the honest answerer, returns the answer
   * (tests make a liteserver lie with it: forged signatures, fabricated ids, altered bytes).
   */
  intercept?: (query: TlObject, answer: (query: TlObject) => Promise<TlObject>) => Promise<TlObject>;
}

export interface LiteServer {
  port: number;
  host: string;
  /** The server's ed25519 public key (32 bytes); base64 of it goes in liteserver.json. */
  publicKey: Buffer;
  /** Open client connections. */
  connections(): number;
  close(): Promise<void>;
}

/** Longest a liteServer.waitMasterchainSeqno prefix may wait (the C++ server caps it too). */
const MAX_WAIT_MS = 60_000;

function errorAnswer(err: LiteServerError): Buffer {
  return liteApi.encode({ _: 'liteServer.error', code: err.code, message: err.message });
}

/** What answering a query needs: the server's options (source, intercept, onQuery) and the handlers. */
interface Answerer {
  opts: LiteServerOptions;
  handlers: LiteHandlers;
}

/** Runs one liteServer.query payload: optional waitMasterchainSeqno prefix, then the function. */
async function runQuery({ opts, handlers }: Answerer, data: Buffer): Promise<{ answer: Buffer; method: string; error?: LiteServerError }> {
  let method = 'unknown';
  try {
    const r = new TlReader(data);
    let q: TlObject;
    try {
      q = liteApi.decode(r);
      if (q._ === 'liteServer.waitMasterchainSeqno') {
        const seqno = q.seqno as number;
        const timeout = Math.max(0, Math.min(q.timeout_ms as number, MAX_WAIT_MS));
        q = liteApi.decode(r);
        method = q._ ?? method;
        if (!(await opts.source.waitMasterchainSeqno(seqno, timeout))) {
          throw new LiteServerError(ErrorCode.timeout, 'timeout');
        }
      }
    } catch (err) {
      if (err instanceof TlError) throw new LiteServerError(ErrorCode.protoviolation, `cannot parse query: ${err.message}`);
      throw err;
    }
    method = q._ ?? method;
    const schemaCtor = liteApi.schema.byName.get(method);
    if (!schemaCtor?.isFunction || !method.startsWith('liteServer.')) throw new LiteServerError(ErrorCode.protoviolation, 'unknown query');
    if (r.remaining() !== 0) throw new LiteServerError(ErrorCode.protoviolation, `cannot parse query: ${r.remaining()} trailing bytes`);
    const answer = opts.intercept ? await opts.intercept(q, (x) => handlers.handle(x)) : await handlers.handle(q);
    return { answer: liteApi.encode(answer), method };
  } catch (err) {
    const e =
      err instanceof LiteServerError
        ? err
        : err instanceof TlError
          ? new LiteServerError(ErrorCode.protoviolation, `cannot parse query: ${err.message}`)
          : new LiteServerError(ErrorCode.failure, `internal error: ${(err as Error).message}`);
    return { answer: errorAnswer(e), method, error: e };
  }
}

/** One ADNL packet of a connection: a ping, or a query answered when its run ends; anything else drops the connection. */
function onPacket(a: Answerer, payload: Buffer, conn: AdnlConnection): void {
  let msg: TlObject;
  try {
    msg = liteApi.decode(payload);
  } catch {
    conn.close(); // not ADNL framing we understand: a real server drops the connection
    return;
  }
  if (msg._ === 'tcp.ping') {
    conn.send(liteApi.encode({ _: 'tcp.pong', random_id: msg.random_id }));
    return;
  }
  if (msg._ !== 'adnl.message.query') {
    conn.close();
    return;
  }
  const queryId = msg.query_id as Buffer;
  void (async () => {
    let inner: Buffer;
    let answer: Buffer;
    try {
      const lq = liteApi.decode(msg.query as Buffer);
      if (lq._ !== 'liteServer.query') throw new TlError('not a liteServer.query');
      inner = lq.data as Buffer;
      const res = await runQuery(a, inner);
      answer = res.answer;
      a.opts.onQuery?.(res.method, res.error);
    } catch (err) {
      const e = new LiteServerError(ErrorCode.protoviolation, `cannot parse query: ${(err as Error).message}`);
      a.opts.onQuery?.('unknown', e);
      answer = errorAnswer(e);
    }
    conn.send(liteApi.encode({ _: 'adnl.message.answer', query_id: queryId, answer }));
  })();
}

export async function startLiteServer(opts: LiteServerOptions): Promise<LiteServer> {
  const key = serverKeyFromSeed(opts.key);
  const answerer: Answerer = { opts, handlers: new LiteHandlers({ source: opts.source }) };
  const conns = new Set<AdnlConnection>();
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const conn = new AdnlConnection(socket, key, {
      onPacket: (payload, conn) => onPacket(answerer, payload, conn),
      onClose: (c) => {
        conns.delete(c);
        sockets.delete(socket);
      },
    });
    conns.add(conn);
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    host,
    publicKey: key.publicKey,
    connections: () => conns.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
