import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { storeSuite } from './suite.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// `both`: the RocksDB point-read tables (a server's) and the key-value store (the embedded default) are both written
storeSuite('the embedded engine', () => ({ dataDir: dir, pointReads: 'both' }));
