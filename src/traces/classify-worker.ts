/**
 * A worker thread of the traces stage's pool (classify-pool.ts): classifies each batch of traces it is sent, or
 * derives the entity-state rows of each batch of accounts (src/entities/derive.ts, the TVM emulator loaded here on
 * the first), and replies with the results in order. Everything not caught per trace or per contract (a reply that
 * cannot be cloned) is the batch's error. The worker's state (the pool list it was last sent, its chain of
 * derivations) is the serving function's own, one per thread: nothing is kept in the module.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { DedustPoolAssets } from '../actions/index.ts';
import { deriveEntityStates } from '../entities/derive.ts';
import { classifyOne, type ClassifyReply, type ClassifyRequest } from './classify-pool.ts';

function reply(port: MessagePort, r: ClassifyReply): void {
  port.postMessage(r);
}

const fail = (port: MessagePort, id: number, e: unknown) => reply(port, { id, error: e instanceof Error ? e.message : String(e) });

/** Answers the pool's requests on `port` until the thread ends. */
function serve(port: MessagePort): void {
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
          reply(port, { id: m.id, results, ms: performance.now() - t0 });
        } catch (e) {
          fail(port, m.id, e);
        }
      });
      return;
    }
    try {
      if (m.dedustPools) pools = new Map(m.dedustPools);
      const t0 = performance.now();
      const results = m.traces.map((t) => classifyOne(t, pools));
      reply(port, { id: m.id, results, ms: performance.now() - t0 });
    } catch (e) {
      fail(port, m.id, e);
    }
  });
}

if (!parentPort) throw new Error('classify-worker.ts runs as a worker thread (classify-pool.ts)');
serve(parentPort);
