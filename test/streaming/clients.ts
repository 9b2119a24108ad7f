// Streaming API clients for the tests: SSE over Node's fetch (undici), WebSocket over `ws`, as a client of
// toncenter's service would use them.
import WebSocket from 'ws';

export interface SseFrame {
  event: string;
  data: Record<string, unknown>;
}

export interface SseClient {
  status: number;
  /** the error body of a refused request */
  body?: Record<string, unknown>;
  frames: SseFrame[];
  /** `: keepalive` comments seen */
  comments: number;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  close(): void;
  /** notifications (frames of event `event`) */
  notes(): Record<string, unknown>[];
}

export async function openSse(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SseClient> {
  const ac = new AbortController();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body), signal: ac.signal });
  const client: SseClient = {
    status: res.status,
    frames: [],
    comments: 0,
    ended: Promise.resolve(),
    close: () => ac.abort(),
    notes: () => client.frames.filter((f) => f.event === 'event').map((f) => f.data),
  };
  if (res.status !== 200) {
    client.body = (await res.json()) as Record<string, unknown>;
    return client;
  }
  client.ended = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (frame.startsWith(':')) {
            client.comments++;
            continue;
          }
          let event = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          client.frames.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch (e) {
      if ((e as Error).name !== 'AbortError') throw e;
    }
  })();
  return client;
}

export interface WsClient {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** sends a request and resolves with the answer carrying its id */
  request(o: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** resolves with the next message that is not a notification */
  next(): Promise<Record<string, unknown>>;
  notes(): Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
}

export function openWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const ws = new WebSocket(url, { headers });
  const messages: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => boolean)[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(m);
    for (let i = 0; i < waiters.length; i++) {
      if (waiters[i](m)) {
        waiters.splice(i, 1);
        break;
      }
    }
  });
  const wait = (pred: (m: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) =>
      waiters.push((m) => {
        if (!pred(m)) return false;
        resolve(m);
        return true;
      }),
    );
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
    });
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        request(o) {
          const p = wait((m) => m.id === o.id && !('type' in m));
          ws.send(JSON.stringify(o));
          return p;
        },
        next() {
          return wait((m) => !('type' in m));
        },
        notes: () => messages.filter((m) => 'type' in m),
      }),
    );
  });
}
