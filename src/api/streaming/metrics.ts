/** Prometheus metrics of the streaming API, registered once per registry (the gateway's /metrics). */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface StreamingMetrics {
  connections: Gauge<'transport'>;
  notifications: Counter<'type' | 'finality'>;
  cut: Counter<'reason'>;
  deliverySeconds: Histogram<'finality'>;
}

const byRegistry = new WeakMap<Registry, StreamingMetrics>();

export function streamingMetrics(registry: Registry): StreamingMetrics {
  let m = byRegistry.get(registry);
  if (m) return m;
  const registers = [registry];
  m = {
    connections: new Gauge({ name: 'ton_streaming_connections', help: 'Open streaming API connections', labelNames: ['transport'], registers }),
    notifications: new Counter({ name: 'ton_streaming_notifications_total', help: 'Notifications sent (one per subscriber)', labelNames: ['type', 'finality'], registers }),
    cut: new Counter({ name: 'ton_streaming_cut_total', help: 'Connections cut by the server: slow (its buffer bound), error (a render failed), behind (the hub fell behind the feed)', labelNames: ['reason'], registers }),
    deliverySeconds: new Histogram({
      name: 'ton_streaming_delivery_seconds',
      help: 'From a seqno published on the feed (processed by the traces stage) to its notifications written to the subscribers, per finality level',
      labelNames: ['finality'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
  };
  byRegistry.set(registry, m);
  return m;
}
