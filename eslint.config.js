import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The floors of the shipped code, lowest first: a folder imports only folders on floors below its own (no upward
 * and no sideways import), and another folder only through its `index.ts` (schemas/ excepted: declarations, one
 * file per contract). test/layout/imports.test.ts checks the same graph for cycles.
 */
const FLOORS = [
  ['util', 'format'],
  ['tl', 'ton', 'bus', 'kv', 'engine', 'schemas'],
  ['tvm', 'proofs'],
  ['contracts', 'source'],
  ['decode'],
  ['store', 'actions'],
  ['entities', 'metadata'],
  ['traces'],
  ['feed', 'emulate'],
  ['api', 'devnet'],
  ['pipelines'],
  ['cli'],
];
const THROUGH_INDEX_EXCEPT = new Set(['schemas']);
/**
 * Entry points besides index.ts, each for a load-time reason: the devnet is three tools and a command loads only the
 * one it runs (the generator brings the TVM emulator); the store is five parts by job, each behind its own index
 * (each user names the job it needs of the store); `serve` needs the metrics registry without the stages; the
 * native SHA-256 under @ton/core is a process-wide patch, imported for its effect where cells are hashed in bulk; the
 * traces stage's worker threads load the entity-state derivation alone (no store: index.ts brings the ClickHouse client).
 */
const ENTRIES = {
  devnet: ['(chain|generate|liteserver|live)/index\\.ts'],
  store: ['(client|write|read|traces|ingest)/index\\.ts'],
  pipelines: ['metrics\\.ts'],
  format: ['ton-core-sha256\\.ts'],
  entities: ['derive\\.ts'],
};

const floorOf = (f) => FLOORS.findIndex((fl) => fl.includes(f));
const dirOf = (f) => (f === 'pipelines' || f === 'schemas' ? f : `src/${f}`);
// A relative import of folder `f` from anywhere under src/, pipelines/ or schemas/: `../store/x.ts`, `../../src/store/x.ts`.
const into = (f) => `^(\\.\\./)+(src/)?${f}/`;

const boundaries = FLOORS.flat().map((self) => {
  const patterns = [];
  for (const other of FLOORS.flat()) {
    if (other === self) continue;
    if (floorOf(other) >= floorOf(self)) {
      patterns.push({ regex: into(other), message: `no upward or sideways import: ${self} stands on a floor below or beside ${other} (FLOORS in eslint.config.js)` });
    } else if (!THROUGH_INDEX_EXCEPT.has(other)) {
      patterns.push({
        regex: `${into(other)}(?!(${['index\\.ts', ...(ENTRIES[other] ?? [])].join('|')})$)`,
        message: `another stage only through its index.ts: import ${other}/index.ts`,
      });
    }
  }
  return { files: [`${dirOf(self)}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  ...boundaries,
);
