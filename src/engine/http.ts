/** The few HTTP calls the engine's lifecycle makes to the engine itself (not the store's client: this is below it). */
import { request } from 'node:http';
import { ENGINE_USERS } from './config.ts';

export interface EngineAddress {
  host: string;
  httpPort: number;
}

export function engineUrl(a: EngineAddress): string {
  return `http://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.httpPort}`;
}

/**
 * Runs `sql` as the writer user and returns the response text; throws with the engine's message on an error, and
 * when no answer comes within `timeoutMs`. One connection per call, closed after it: an engine that stops waits for
 * the connections left open (and then exits by force), so these leave none.
 */
export function engineStatement(a: EngineAddress, secret: string, sql: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: a.host,
        port: a.httpPort,
        method: 'POST',
        path: '/',
        agent: false,
        headers: { 'X-ClickHouse-User': ENGINE_USERS.writer, 'X-ClickHouse-Key': secret, Connection: 'close', 'Content-Length': Buffer.byteLength(sql) },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(text.trim().split('\n')[0] || `HTTP ${res.statusCode}`))));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(sql);
  });
}

/** Whether an engine answers at `a` with this password (a ping alone could be another program on a reused port). */
export async function engineAnswers(a: EngineAddress, secret: string, timeoutMs = 2000): Promise<boolean> {
  try {
    return (await engineStatement(a, secret, 'SELECT 1', timeoutMs)).trim() === '1';
  } catch {
    return false;
  }
}
