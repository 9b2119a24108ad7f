/** Loopback ports for the engine's two servers. */
import { createServer } from 'node:net';

/** Whether `port` can be listened on at `host` now. */
export function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host, exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** A port the system gives out as free at `host` now (it may be taken again before it is used). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen({ port: 0, host, exclusive: true }, () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Raised when a port the user chose is taken. */
export class PortTakenError extends Error {
  constructor(
    readonly which: 'http' | 'tcp',
    readonly port: number,
    readonly host: string,
  ) {
    super(`the engine's ${which === 'http' ? 'HTTP' : 'native (TCP)'} port ${host}:${port} is in use by another program: choose another, or leave it unset to take a free one`);
    this.name = 'PortTakenError';
  }
}

/**
 * The two ports: the chosen ones (PortTakenError when taken), else the ones used last time when both are still
 * free (tools configured against the engine keep working across restarts), else two free ones.
 */
export async function choosePorts(o: { host: string; http?: number; tcp?: number; previous?: { http: number; tcp: number } }): Promise<{ http: number; tcp: number }> {
  for (const [which, port] of [['http', o.http], ['tcp', o.tcp]] as const) {
    if (port !== undefined && !(await portFree(port, o.host))) throw new PortTakenError(which, port, o.host);
  }
  const prev = o.previous;
  const reuse = prev && prev.http !== prev.tcp && (await portFree(prev.http, o.host)) && (await portFree(prev.tcp, o.host));
  let http = o.http ?? (reuse ? prev.http : await freePort(o.host));
  let tcp = o.tcp ?? (reuse ? prev.tcp : await freePort(o.host));
  // two free ports asked for one after the other can be the same one
  while (tcp === http) {
    if (o.tcp === undefined) tcp = await freePort(o.host);
    else http = await freePort(o.host);
  }
  return { http, tcp };
}
