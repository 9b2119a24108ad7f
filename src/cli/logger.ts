/**
 * The CLI's logger: JSON lines (pino) for log collectors, one short text line per record on a terminal (a person
 * reading `npm start` should not parse JSON). LOG_FORMAT=json|text overrides the choice, LOG_LEVEL the level.
 */
import pino, { type Logger } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/** One pino JSON record as a text line: `12:00:01 WARN message key=value ...`. */
export function textLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : json + '\n';
  }
  const t = new Date(Number(rec.time ?? Date.now()));
  const hms = [t.getHours(), t.getMinutes(), t.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  const fields = Object.entries(rec)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  return `${hms} ${LEVELS[Number(rec.level)] ?? rec.level} ${String(rec.msg ?? '')}${fields ? `  ${fields}` : ''}\n`;
}

export function cliLogger(opts: { level?: string; format?: string } = {}): Logger {
  const level = opts.level ?? process.env.LOG_LEVEL ?? 'info';
  const format = opts.format || process.env.LOG_FORMAT || (process.stderr.isTTY ? 'text' : 'json');
  if (format !== 'text') return pino({ level }, pino.destination(2));
  // on a terminal a log line first clears the progress line (index-chain.ts startProgress), which is redrawn on its next tick
  const clear = process.stderr.isTTY ? '\r\x1b[2K' : '';
  return pino({ level }, { write: (line: string) => void process.stderr.write(clear + textLine(line)) });
}
