/**
 * A worker thread of the traces stage's pool (classify-pool.ts): classifies each batch of traces it is sent, or
 * derives the entity-state rows of each batch of accounts (src/entities/derive.ts, the TVM emulator loaded here on
 * the first), and replies with the results in order. Everything not caught per trace or per contract (a reply that
 * cannot be cloned) is the batch's error.
 */
import { parentPort } from 'node:worker_threads';
import type { DedustPoolAssets } from '../actions/index.ts';
import { deriveEntityStates } from '../entities/derive.ts';
import { classifyOne, type ClassifyReply, type ClassifyRequest } from './classify-pool.ts';

if (!parentPort) throw new Error('classify-worker.ts runs as a worker thread (classify-pool.ts)');
const port = parentPort;

const fail = (id: number, e: unknown) => {
  const reply: ClassifyReply = { id, error: e instanceof Error ? e.message : String(e) };
  port.postMessage(reply);
};

/** The DeDust pool list the stage last sent this worker (classify-pool.ts sends it when it changed). */
let pools: ReadonlyMap<string, DedustPoolAssets> = new Map();

/** Derivations one after the other (get-methods are asynchronous): each one's `ms` is then its own. */
let derives: Promise<void> = Promise.resolve();

port.on('message', (m: ClassifyRequest) => {
  if (m.kind === 'derive') {
    derives = derives.then(async () => {
      try {
        const t0 = performance.now();
        const results = await deriveEntityStates(m.candidates, m.codes);
        const reply: ClassifyReply = { id: m.id, results, ms: performance.now() - t0 };
        port.postMessage(reply);
      } catch (e) {
        fail(m.id, e);
      }
    });
    return;
  }
  try {
    if (m.dedustPools) pools = new Map(m.dedustPools);
    const t0 = performance.now();
    const results = m.traces.map((t) => classifyOne(t, pools));
    const reply: ClassifyReply = { id: m.id, results, ms: performance.now() - t0 };
    port.postMessage(reply);
  } catch (e) {
    fail(m.id, e);
  }
});
