/**
 * The traces stage's CPU work after the fold, in this thread or on a pool of worker threads (`--workers N`):
 * classification of completed traces, and entity-state derivation (src/entities/derive.ts: interfaces and
 * get-methods of the accounts a batch changed).
 *
 * The classifier is pure and synchronous (src/actions), and its input (`Trace`, built on the stage's thread with
 * its context records) and output (action rows and a state) are plain data, so a batch of traces goes to a worker
 * by structured clone and comes back the same. The derivation is pure too: account states and code BoCs in
 * (read on the stage's thread before), rows to complete out. One message carries a seqno's traces, or a seqno's
 * accounts (split between workers when there are many), never one, and results come back in the input order.
 *
 * Failures: a trace whose classification throws is marked `failed` with no actions, in a worker as inline (the
 * stage's catch, `classifyOne`); a contract whose get-methods fail is counted, never thrown. A batch whose worker
 * crashes, exits or cannot clone its input or output rejects: the stage then fails (its traces are never marked
 * classified, nothing of the seqno is written); the pool replaces the worker for the next batch.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { classifyTrace, DedustPoolList, type ActionRow, type DedustPoolAssets, type Trace } from '../actions/index.ts';
// derive.ts, not index.ts: this module is loaded by the workers too, which need no store
import { deriveEntityStates, type DerivedEntityStates } from '../entities/derive.ts';
import type { AccountStateRow } from '../ton/index.ts';

export interface Classified {
  actions: ActionRow[];
  /** the trace row's classification_state */
  state: 'ok' | 'broken' | 'failed';
}

/**
 * One trace as the stage classifies it: the classifier's own state, or `failed` (no actions) when it throws.
 * `dedustPools`: the DeDust pool list (src/actions/dedust-pools.ts), the fallback for pools no record describes.
 */
export function classifyOne(trace: Trace, dedustPools?: ReadonlyMap<string, DedustPoolAssets>): Classified {
  try {
    const cls = classifyTrace(trace, { dedustPools });
    // the classifier's own state: ok, broken, or failed (then its actions are the basic fallback's)
    return { actions: cls.actions, state: cls.state };
  } catch {
    // never drop a trace: it stays readable, marked as not classified
    return { actions: [], state: 'failed' };
  }
}

export interface ClassifierStats {
  /** worker threads (0: the stage's own thread classifies and derives) */
  workers: number;
  batches: number;
  traces: number;
  /** time spent classifying (summed over the workers when pooled) */
  ms: number;
  /** entity-state derivation: seqnos with accounts to derive, messages sent (0 inline), accounts, time (summed over the workers) */
  derive: { batches: number; jobs: number; accounts: number; ms: number };
}

/** Entity-state derivation of one seqno: its candidates (src/entities `planEntityStates`) and their codes (BoC). */
export interface DeriveInput {
  candidates: readonly AccountStateRow[];
  codes: ReadonlyMap<string, string>;
}

export interface Classifier {
  readonly stats: ClassifierStats;
  /** The traces' classifications in their order. Inline: computed before it returns (the promise only carries it). */
  classify(traces: readonly Trace[]): Promise<Classified[]>;
  /** `deriveEntityStates` of a seqno's candidates: found rows in candidate order, counts summed. */
  derive(input: DeriveInput): Promise<DerivedEntityStates>;
  /** Terminates the workers (batches in flight reject). */
  close(): Promise<void>;
}

function emptyStats(workers: number): ClassifierStats {
  return { workers, batches: 0, traces: 0, ms: 0, derive: { batches: 0, jobs: 0, accounts: 0, ms: 0 } };
}

/** What a classifier is made with: the DeDust pool list (`--dedust-pools-api`; default: an empty one). */
export interface ClassifierOptions {
  dedustPools?: DedustPoolList;
}

/** Classifies and derives on the calling thread, as the stage always did. */
export function inlineClassifier(opts: ClassifierOptions = {}): Classifier {
  const pools = opts.dedustPools ?? new DedustPoolList();
  const stats = emptyStats(0);
  return {
    stats,
    classify(traces) {
      const t0 = performance.now();
      const out = traces.map((t) => classifyOne(t, pools.pools));
      stats.ms += performance.now() - t0;
      stats.batches++;
      stats.traces += traces.length;
      return Promise.resolve(out);
    },
    async derive({ candidates, codes }) {
      if (!candidates.length) return { found: [], no_code: 0, failed: 0 };
      const t0 = performance.now();
      const out = await deriveEntityStates(candidates, codes);
      stats.derive.ms += performance.now() - t0;
      stats.derive.batches++;
      stats.derive.accounts += candidates.length;
      return out;
    },
    close: () => Promise.resolve(),
  };
}

/** Messages between the pool and its workers (classify-worker.ts). */
export type ClassifyRequest =
  | {
      kind: 'classify';
      id: number;
      traces: readonly Trace[];
      /** the DeDust pool list (src/actions/dedust-pools.ts), when it changed since this worker's last batch */
      dedustPools?: [string, DedustPoolAssets][];
    }
  | { kind: 'derive'; id: number; candidates: readonly AccountStateRow[]; codes: ReadonlyMap<string, string> };
export type ClassifyReply = { id: number; results: Classified[] | DerivedEntityStates; ms: number } | { id: number; error: string };

/** Fewer traces than this per message are not split between workers (a message has a fixed cost). */
const MIN_CHUNK = 16;
/** Accounts: each costs a few get-method runs (~2 ms each), so fewer make a message worth it. */
const MIN_DERIVE_CHUNK = 4;

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void; size: number; kind: ClassifyRequest['kind'] }>;
  load: number;
  /** the registry last sent to this worker (the classifier reads it as a fallback; a worker starts with none) */
  pools: ReadonlyMap<string, DedustPoolAssets> | null;
  dead: boolean;
}

/**
 * The worker's entry: the compiled .js beside this module in dist/, or the TypeScript source (tests, tsx). A .ts
 * worker registers tsx itself (an eval'd bootstrap), whatever loader the parent thread runs under (vitest's is not
 * inherited by workers).
 */
function spawn(resourceLimits: ResourceLimits | undefined): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./classify-worker.js', self), { resourceLimits });
  const entry = new URL('./classify-worker.ts', self).href;
  const require = createRequire(self);
  const pkg = require.resolve('tsx/package.json');
  const exp = (require(pkg) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'].import.default;
  const api = pathToFileURL(fileURLToPath(new URL(exp, pathToFileURL(pkg)))).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, resourceLimits });
}

/** Stops a slot's worker (once) and fails what it had in flight with `err`. */
function killSlot(slot: Slot, err: Error): void {
  if (slot.dead) return;
  slot.dead = true;
  for (const p of slot.pending.values()) p.reject(err);
  slot.pending.clear();
  void slot.worker.terminate();
}

/**
 * A new worker in a slot: its replies settle their requests (their times counted in `stats`); a reply that cannot
 * be read, an error or an exit is the worker's end (`kill`).
 */
function startSlot(resourceLimits: ResourceLimits | undefined, stats: ClassifierStats, kill: (slot: Slot, err: Error) => void): Slot {
  const worker = spawn(resourceLimits);
  const slot: Slot = { worker, pending: new Map(), load: 0, pools: null, dead: false };
  worker.on('message', (m: ClassifyReply) => {
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    slot.load -= p.size;
    if ('error' in m) p.reject(new Error(`classifier worker: ${m.error}`));
    else {
      if (p.kind === 'derive') stats.derive.ms += m.ms;
      else stats.ms += m.ms;
      p.resolve(m.results);
    }
  });
  worker.on('messageerror', (e) => kill(slot, new Error(`classifier worker: a reply could not be read: ${e.message}`)));
  worker.on('error', (e) => kill(slot, new Error(`classifier worker failed: ${e.message}`)));
  worker.on('exit', (code) => kill(slot, new Error(`classifier worker exited (code ${code})`)));
  return slot;
}

/**
 * Posts `msg` to the slot's worker, as `size` of its load; settles with the worker's reply to it. A message that
 * cannot be cloned rejects at once, and is not pending then (`slot.pending.has(msg.id)` says it went).
 */
function request<T>(slot: Slot, msg: ClassifyRequest, size: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // a message that cannot be cloned throws here: the batch fails, the worker is untouched
    slot.worker.postMessage(msg);
    slot.pending.set(msg.id, { resolve: resolve as (r: unknown) => void, reject, size, kind: msg.kind });
    slot.load += size;
  });
}

/** Only the codes of these accounts, of all of a seqno's (what one derive message carries). */
function codesOf(candidates: readonly AccountStateRow[], all: ReadonlyMap<string, string>): Map<string, string> {
  const codes = new Map<string, string>();
  for (const st of candidates) {
    const b = st.code_hash ? all.get(st.code_hash) : undefined;
    if (b !== undefined) codes.set(st.code_hash!, b);
  }
  return codes;
}

/**
 * `workers` worker threads classifying. `resourceLimits` bounds each worker's heaps (a worker over them dies, and
 * its batch fails).
 */
export function classifierPool(workers: number, opts: ClassifierOptions & { resourceLimits?: ResourceLimits } = {}): Classifier {
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`classifierPool: expected at least 1 worker, got ${workers}`);
  const stats = emptyStats(workers);
  const slots: (Slot | null)[] = new Array<Slot | null>(workers).fill(null);
  let nextId = 1;
  let closed = false;
  const list = opts.dedustPools ?? new DedustPoolList();

  const kill = (slot: Slot, err: Error) => {
    const i = slots.indexOf(slot);
    if (i >= 0 && !slot.dead) slots[i] = null;
    killSlot(slot, err);
  };
  const start = (i: number): Slot => (slots[i] = startSlot(opts.resourceLimits, stats, kill));

  /** The live worker with the least work queued (a dead one is replaced). */
  const pick = (): Slot => {
    let best: Slot | null = null;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i] ?? start(i);
      if (!best || s.load < best.load) best = s;
    }
    return best!;
  };

  const send = async (traces: readonly Trace[]): Promise<Classified[]> => {
    const slot = pick();
    const msg: ClassifyRequest = { kind: 'classify', id: nextId++, traces };
    const pools = list.pools;
    if (slot.pools !== pools) msg.dedustPools = [...pools];
    const reply = request<Classified[]>(slot, msg, traces.length);
    // the worker has the list only if the message went
    if (slot.pending.has(msg.id)) slot.pools = pools;
    return reply;
  };

  const sendDerive = async (candidates: readonly AccountStateRow[], all: ReadonlyMap<string, string>): Promise<DerivedEntityStates> => {
    const slot = pick();
    const msg: ClassifyRequest = { kind: 'derive', id: nextId++, candidates, codes: codesOf(candidates, all) };
    const reply = request<DerivedEntityStates>(slot, msg, candidates.length);
    if (slot.pending.has(msg.id)) stats.derive.jobs++;
    return reply;
  };

  // started now: a worker takes a while to load the classifier (seconds from the TypeScript sources), which the
  // stage's first reads and folds cover
  for (let i = 0; i < workers; i++) start(i);

  return {
    stats,
    async classify(traces) {
      if (closed) throw new Error('classifier pool is closed');
      stats.batches++;
      stats.traces += traces.length;
      if (!traces.length) return [];
      const size = Math.max(MIN_CHUNK, Math.ceil(traces.length / workers));
      const parts: Promise<Classified[]>[] = [];
      for (let i = 0; i < traces.length; i += size) parts.push(send(traces.slice(i, i + size)));
      return (await Promise.all(parts)).flat();
    },
    async derive({ candidates, codes }) {
      if (closed) throw new Error('classifier pool is closed');
      if (!candidates.length) return { found: [], no_code: 0, failed: 0 };
      stats.derive.batches++;
      stats.derive.accounts += candidates.length;
      const size = Math.max(MIN_DERIVE_CHUNK, Math.ceil(candidates.length / workers));
      const parts: Promise<DerivedEntityStates>[] = [];
      for (let i = 0; i < candidates.length; i += size) parts.push(sendDerive(candidates.slice(i, i + size), codes));
      const out: DerivedEntityStates = { found: [], no_code: 0, failed: 0 };
      for (const p of await Promise.all(parts)) {
        out.found.push(...p.found);
        out.no_code += p.no_code;
        out.failed += p.failed;
      }
      return out;
    },
    async close() {
      closed = true;
      const live = slots.filter((s): s is Slot => s !== null);
      for (const s of live) kill(s, new Error('classifier pool closed'));
      await Promise.all(live.map((s) => s.worker.terminate()));
    },
  };
}

/** `--workers`: 0 classifies and derives on the stage's thread; N >= 1 on N worker threads. */
export function createClassifier(workers: number, opts: ClassifierOptions & { resourceLimits?: ResourceLimits } = {}): Classifier {
  return workers === 0 ? inlineClassifier(opts) : classifierPool(workers, opts);
}
