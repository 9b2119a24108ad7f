/**
 * A classifier worker thread (classify-pool.ts): classifies each batch of traces it is sent and replies with their
 * classifications in order. Everything not caught per trace (a reply that cannot be cloned) is the batch's error.
 */
import { parentPort } from 'node:worker_threads';
import { setDedustPools } from '../actions/index.ts';
import { classifyOne, type ClassifyReply, type ClassifyRequest } from './classify-pool.ts';

if (!parentPort) throw new Error('classify-worker.ts runs as a worker thread (classify-pool.ts)');
const port = parentPort;

port.on('message', (m: ClassifyRequest) => {
  try {
    if (m.dedustPools) setDedustPools(new Map(m.dedustPools));
    const t0 = performance.now();
    const results = m.traces.map(classifyOne);
    const reply: ClassifyReply = { id: m.id, results, ms: performance.now() - t0 };
    port.postMessage(reply);
  } catch (e) {
    const reply: ClassifyReply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    port.postMessage(reply);
  }
});
