/**
 * The subscribers of `npm run bench:stream`, in a process of their own (as clients are other machines):
 *   node --import tsx bench/stream-clients.ts URL N TRANSPORT SUBSCRIPTION_JSON
 * Opens N WebSocket (or SSE) connections to URL (the gateway's /api/streaming/v2 base), subscribes each, prints
 * `ready` once all are subscribed, `count <n>` every 250 ms, and on the stdin line `report` one JSON line: per
 * finality level and masterchain seqno, the receive times of every notification (ms since the epoch, 0.01 ms).
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const [base, nText, transport, subText] = process.argv.slice(2);
const n = Number(nText);
const sub = JSON.parse(subText) as Record<string, unknown>;
const now = () => performance.timeOrigin + performance.now();
// finality -> seqno -> receive times
const got: Record<string, Record<number, number[]>> = { confirmed: {}, finalized: {} };
let count = 0;

function record(text: string): void {
  const t = now();
  // the head of a notification: {"type":..,"finality":..,"trace_external_hash_norm":..,"mc_seqno":N,...
  const head = text.slice(0, 200);
  const fin = /"finality":"(\w+)"/.exec(head)?.[1];
  const seqno = /"mc_seqno":(\d+)/.exec(head)?.[1];
  if (!fin || !seqno || !got[fin]) return;
  (got[fin][Number(seqno)] ??= []).push(Math.round(t * 100) / 100);
  count++;
}

async function openWs(): Promise<void> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => resolve());
  });
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('{"id":"s"')) resolve();
      else record(text);
    });
    ws.send(JSON.stringify({ operation: 'subscribe', id: 's', ...sub }));
  });
}

async function openSse(): Promise<void> {
  const res = await fetch(`${base}/sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sub) });
  if (res.status !== 200) throw new Error(`SSE ${res.status}: ${await res.text()}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let subscribed: () => void = () => undefined;
  const ready = new Promise<void>((r) => (subscribed = r));
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (frame.startsWith('event: connected')) subscribed();
        else if (frame.startsWith('event: event\ndata: ')) record(frame.slice(19));
      }
    }
  })();
  await ready;
}

// connect in batches: a thousand handshakes at once would only queue in the kernel
for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => (transport === 'sse' ? openSse() : openWs())));
console.log('ready');
const timer = setInterval(() => console.log(`count ${count}`), 250);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'report') return;
  clearInterval(timer);
  process.stdout.write(JSON.stringify({ count, got }) + '\n', () => process.exit(0));
});
