/** The README's "SQL for analysts" reports, read from the README as written, and a runner on the `sql` command's path. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from '@ton/core';
import { expect } from 'vitest';
import { runReadOnlySql } from '../../src/store/read/index.ts';
import { type StoreClient } from '../../src/store/client/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** The report SQL of the README's "SQL for analysts", by the title of its section. */
export function readmeReports(): Map<string, string> {
  const md = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = md.indexOf('\n## SQL for analysts\n');
  expect(start).toBeGreaterThan(0);
  const end = md.indexOf('\n## ', start + 5);
  const section = md.slice(start, end);
  const out = new Map<string, string>();
  for (const m of section.matchAll(/\n### \d\. ([^\n]+)\n[\s\S]*?```sql\n([\s\S]*?)```/g)) out.set(m[1], m[2]);
  return out;
}

const REPORTS = readmeReports();
export function report(title: string): string {
  const sql = REPORTS.get(title);
  if (!sql) throw new Error(`README has no report "${title}"`);
  return sql;
}

export async function run(store: StoreClient, sql: string): Promise<Record<string, string>[]> {
  const text = await runReadOnlySql(store, sql, 'JSONEachRow');
  return text
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Record<string, string>);
}

export const raw = (a: Address) => a.toRawString().toUpperCase();

