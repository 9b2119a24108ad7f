/**
 * npm run bench:emulate [-- --n 200] [--seconds 5] [--rates 5,10,20,40,80]
 *
 * Emulated traces (src/emulate, issue 33) on a live devnet (its liteserver over ADNL, indexed into the embedded engine by this
 * process, the gateway in this process over loopback HTTP):
 * 1. Latency of one 5-transaction trace (a jetton transfer: wallet, its jetton wallet, the recipient's jetton wallet
 *    deployed, the recipient's notification, the excess back), p50 and p99 over N messages, one at a time:
 *    - `service`: EmulationService.emulate (state read, TVM emulation of the trace, rows, context, classification);
 *    - `http`: POST /api/emulate/v1/emulateTrace with_actions (the above, rendered, over a socket).
 * 2. Load: sendBoc of distinct valid messages at each rate for `--seconds` (the devnet liteserver checks each message
 *    in its own emulator, as a full node does, in this process too): accepted, refused with 429 (the queue's bound,
 *    16), sendBoc latency p50 / p99. Pending falls behind where 429s start: the emulation queue stays full.
 * Prints the load average and the VM's steal time next to the figures (the machine is shared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { toNano, type Address, type Cell } from '@ton/core';
import { runIndexer } from '../pipelines/index.ts';
import { buildGateway, KeyStore, LiteNode } from '../src/api/index.ts';
import { MemoryBus } from '../src/bus/index.ts';
import { LiveChain } from '../src/devnet/chain/index.ts';
import { comment, createDevnet, jettonMintBody, jettonMinterInit, jettonTransferBody, jettonWalletAddress, walletExternal, type Wallet } from '../src/devnet/generate/index.ts';
import { startLiteServer } from '../src/devnet/liteserver/index.ts';
import type { EmulationService } from '../src/emulate/index.ts';
import { LiteserverPool } from '../src/source/index.ts';
import { openStore } from '../src/store/client/index.ts';
import { InProcessFeed, NotificationPublisher } from '../src/feed/index.ts';
import { stealSeconds, stealSince } from './steal.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const N = Number(opt('--n', '200'));
const SECONDS = Number(opt('--seconds', '5'));
const RATES = opt('--rates', '5,10,20,40,80').split(',').map(Number);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

const START = Math.floor(Date.now() / 1000) - 3600;
const VALID = START + 10_000_000;
const live = await createDevnet({ seed: 'bench-emulate', startTime: START });
const zs = live.devnet.zeroState.mc.ref;
const chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
const { alice, bob, carol } = live.scenarios;
const send = (m: Cell) => live.sendMessage(m.toBoc());
send(walletExternal(alice, [{ to: bob.address, value: toNano('0.1'), bounce: false, body: comment('deploy') }], VALID, true));
send(walletExternal(bob, [{ to: alice.address, value: toNano('0.1'), bounce: false, body: comment('deploy') }], VALID, true));
const minterInit = jettonMinterInit(carol.address, 'https://devnet.example/jetton/bench.json');
const minter: Address = live.devnet.addressOf(minterInit);
send(walletExternal(carol, [{ to: minter, value: toNano('0.5'), bounce: false, init: minterInit }], VALID, true));
await chain.produce();
await chain.produce();
send(walletExternal(carol, [{ to: minter, value: toNano('0.3'), bounce: true, body: jettonMintBody(1n, alice.address, toNano('0.2'), 10n ** 15n, carol.address, toNano('0.01'), null) }], VALID));
for (let i = 0; i < 4; i++) await chain.produce();
const tip = chain.lastMasterchain().id.seqno;

const ls = await startLiteServer({ source: chain, key: Buffer.alloc(32, 44), host: '127.0.0.1', port: 0 });
const data = mkdtempSync(join(tmpdir(), 'tg-bench-emulate-'));
const store = await openStore({ dataDir: data });
const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 10_000 });
await pool.start();
const feed = new InProcessFeed();
let finalized = 0;
await feed.subscribe((e) => {
  if (e.kind === 'finalized') finalized = Math.max(finalized, e.mc_seqno);
});
const networks = [{ name: 'devnet', testnet: true, services: { node: LiteNode.fromPool(pool), store, feed } as Record<string, unknown> }];
const app = await buildGateway({ networks, keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const service = networks[0].services.emulation as EmulationService;
const h = await runIndexer({ bus: new MemoryBus(), source: pool, store, fromSeqno: 1, notifications: new NotificationPublisher(feed, { store }) });
h.done.catch(() => undefined);
while (finalized < tip) await new Promise((r) => setTimeout(r, 50));

const jettonWallet = jettonWalletAddress(alice.address, minter);
const seqno = alice.seqno;
let q = 100n;
/** A distinct jetton transfer of alice's for her current seqno (valid against the indexed state; never included). */
const transfer = (w: Wallet = alice): Cell => {
  w.seqno = seqno;
  q++;
  return walletExternal(w, [{ to: jettonWallet, value: toNano('0.3'), bounce: true, body: jettonTransferBody(q, 1_000_000_000n, bob.address, alice.address, toNano('0.05'), comment(`bench ${q}`)) }], VALID);
};

const t0 = loadavg()[0];
const steal0 = stealSeconds();
// warm-up: the emulator's WebAssembly, the first reads
for (let i = 0; i < 5; i++) await service.emulate(transfer());
const svc: number[] = [];
const phases = { stateMs: [] as number[], emulateMs: [] as number[], rowsMs: [] as number[] };
let txs = 0;
let heldChars = 0;
for (let i = 0; i < N; i++) {
  const s = performance.now();
  const rows = await service.emulate(transfer());
  svc.push(performance.now() - s);
  txs = rows.txs.length;
  heldChars = rows.docs.reduce((a, d) => a + d.length, 0) + JSON.stringify(rows.actions).length + JSON.stringify(rows.trace).length;
  const t = service.lastTimings!;
  phases.stateMs.push(t.stateMs);
  phases.emulateMs.push(t.emulateMs);
  phases.rowsMs.push(t.rowsMs);
}
const http: number[] = [];
for (let i = 0; i < N; i++) {
  const boc = transfer().toBoc().toString('base64');
  const s = performance.now();
  const r = await fetch(`${base}/api/emulate/v1/emulateTrace`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc, with_actions: true }) });
  await r.arrayBuffer();
  http.push(performance.now() - s);
  if (r.status !== 200) throw new Error(`emulateTrace answered ${r.status}`);
}
console.log(`\n1. latency of a ${txs}-transaction trace (jetton transfer), ${N} messages one at a time`);
console.log(`   service  p50 ${ms(pct(svc, 50))}  p99 ${ms(pct(svc, 99))}  (${(1000 / (svc.reduce((a, b) => a + b, 0) / svc.length)).toFixed(1)} traces/s)`);
console.log(`   http     p50 ${ms(pct(http, 50))}  p99 ${ms(pct(http, 99))}`);
console.log(`   a pending trace holds ${heldChars} characters of documents, actions and trace row`);
console.log(`   p50 of its parts: state ${ms(pct(phases.stateMs, 50))}, trace in the emulator (with the accounts' reads) ${ms(pct(phases.emulateMs, 50))}, rows and classification ${ms(pct(phases.rowsMs, 50))}`);

console.log(`\n2. sendBoc at a rate, ${SECONDS} s each (queue bound ${service.maxQueued})`);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const heap0 = process.memoryUsage();
for (const rate of RATES) {
  const lat: number[] = [];
  let ok = 0;
  let busy = 0;
  let other = 0;
  const inflight: Promise<void>[] = [];
  const end = performance.now() + SECONDS * 1000;
  const every = 1000 / rate;
  let next = performance.now();
  while (performance.now() < end) {
    const boc = transfer().toBoc().toString('base64');
    const s = performance.now();
    inflight.push(
      fetch(`${base}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status === 200) {
          ok++;
          lat.push(performance.now() - s);
        } else if (r.status === 429) busy++;
        else other++;
      }),
    );
    next += every;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(inflight);
  console.log(`   ${String(rate).padStart(3)}/s: ${ok} accepted, ${busy} refused 429${other ? `, ${other} other` : ''}; sendBoc p50 ${ms(pct(lat, 50))} p99 ${ms(pct(lat, 99))}; pending held ${service.pending.size}`);
}
const heap1 = process.memoryUsage();
console.log(`   memory before / after the load: heap ${mib(heap0.heapUsed)} / ${mib(heap1.heapUsed)}, rss ${mib(heap0.rss)} / ${mib(heap1.rss)} (no forced GC: indicative)`);
console.log(`\nload average ${t0.toFixed(2)} -> ${loadavg()[0].toFixed(2)}; steal ${stealSince(steal0)}`);
await h.stop();
await app.close();
await pool.close();
await ls.close();
await store.close();
rmSync(data, { recursive: true, force: true });
process.exit(0);
