import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { storeSuite } from './suite.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-chdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeSuite('chdb (embedded)', () => ({ dataDir: dir }));
