/**
 * Streaming API v2 routes (toncenter's protocol): `POST /api/streaming/v2/sse` and `GET /api/streaming/v2/ws`.
 * Auth and rate limits come from the server shell (API key in X-API-Key or api_key, 401 / 403 / 429 before anything
 * else); then the subscription is validated (400 `{id?, error}`) and the connection limit checked (429), all before
 * the stream opens. WebSocket requests get their answers as `{id?, status}` / `{id?, error}` messages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { SseConnection, WsConnection } from './connection.ts';
import type { StreamHub } from './hub.ts';
import { emptySubscription, parseEnvelope, parseSubscription, parseUnsubscribe, requestId, SubscriptionError, type Subscription } from './subscription.ts';

/** Largest SSE request body / WebSocket message. */
const MAX_REQUEST_BYTES = 1024 * 1024;

function actionsHeader(request: FastifyRequest): string | undefined {
  const h = request.headers['x-actions-version'];
  const v = Array.isArray(h) ? h[0] : h;
  return v?.trim() || undefined;
}

/** The caller's limits bucket and whether it has a key (the shell identified it). */
function callerOf(request: FastifyRequest): { bucket: string; keyed: boolean } {
  const c = request.caller;
  if (c?.keyHash) return { bucket: `key:${c.keyHash}`, keyed: true };
  return { bucket: `ip:${c?.ip ?? request.ip}`, keyed: false };
}

function refuse(reply: FastifyReply, status: number, error: string, id?: string): FastifyReply {
  return reply.code(status).send(id === undefined ? { error } : { id, error });
}

export function streamingRoutes(app: FastifyInstance, hub: StreamHub): void {
  // the body is JSON whatever its content type says (`curl -d` sends form-urlencoded); parsed in the handler
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_REQUEST_BYTES }, (_req, body, done) => done(null, body));

  app.post('/sse', async (request, reply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return refuse(reply, 400, `invalid subscription request: ${text.trim() === '' ? 'empty body (send the subscription as JSON)' : (e as Error).message}`);
    }
    const { bucket, keyed } = callerOf(request);
    let sub: Subscription;
    let id: string | undefined;
    try {
      id = raw && typeof raw === 'object' && !Array.isArray(raw) ? requestId(raw as Record<string, unknown>) : undefined;
      sub = parseSubscription(raw, { transport: 'sse', actionsHeader: actionsHeader(request), maxAddresses: hub.maxAddresses(keyed) });
    } catch (e) {
      if (e instanceof SubscriptionError) return refuse(reply, 400, e.message, id);
      throw e;
    }
    const refused = hub.admit(bucket, keyed);
    if (refused) return refuse(reply, 429, refused, id);
    reply.hijack();
    const conn = new SseConnection(reply.raw, hub.maxBufferedBytes, hub.cutGraceMs);
    conn.open(id);
    const client = hub.add(bucket, conn, sub);
    conn.onClose(() => hub.remove(client));
  });
  app.get('/sse', async (_request, reply) => reply.header('Allow', 'POST').code(405).send({ error: 'use POST with the subscription as a JSON body (as toncenter, GET is not supported)' }));

  app.route({
    method: 'GET',
    url: '/ws',
    // the connection limit before the upgrade: a refusal is an HTTP 429, as for SSE
    preHandler: async (request, reply) => {
      if (!request.ws) return;
      const { bucket, keyed } = callerOf(request);
      const refused = hub.admit(bucket, keyed);
      if (refused) return refuse(reply, 429, refused);
    },
    handler: async (_request, reply) => reply.code(426).header('Upgrade', 'websocket').send({ error: 'connect with a WebSocket client (Upgrade: websocket)' }),
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      const { bucket, keyed } = callerOf(request);
      const header = actionsHeader(request);
      const conn = new WsConnection(socket, hub.maxBufferedBytes, hub.cutGraceMs);
      // two upgrades of one bucket may have passed the check together
      const refused = hub.admit(bucket, keyed);
      if (refused) {
        conn.reply({ error: refused });
        socket.close(1008, 'connection limit reached');
        return;
      }
      const client = hub.add(bucket, conn, emptySubscription(header));
      socket.on('close', () => hub.remove(client));
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
        const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
        let id: string | undefined;
        try {
          const env = parseEnvelope(text);
          id = env.id;
          switch (env.operation) {
            case 'ping':
              conn.reply(id === undefined ? { status: 'pong' } : { id, status: 'pong' });
              break;
            case 'subscribe':
              hub.update(client, parseSubscription(env.body, { transport: 'ws', previous: client.sub, actionsHeader: header, maxAddresses: hub.maxAddresses(keyed) }));
              conn.reply(id === undefined ? { status: 'subscribed' } : { id, status: 'subscribed' });
              break;
            case 'unsubscribe': {
              const u = parseUnsubscribe(env.body);
              const addresses = new Set(client.sub.addresses);
              for (const a of u.addresses) addresses.delete(a);
              const traces = new Set(client.sub.traces);
              for (const t of u.traces) traces.delete(t);
              hub.update(client, { ...client.sub, addresses, traces });
              conn.reply(id === undefined ? { status: 'unsubscribed' } : { id, status: 'unsubscribed' });
              break;
            }
            default:
              throw new SubscriptionError(`unknown operation: ${env.operation} (subscribe, unsubscribe or ping)`);
          }
        } catch (e) {
          if (!(e instanceof SubscriptionError)) throw e;
          conn.reply(id === undefined ? { error: e.message } : { id, error: e.message });
        }
      });
    },
  });
}
