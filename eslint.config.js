import { dirname, relative, resolve } from 'node:path';
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
  ['bench'],
];
const THROUGH_INDEX_EXCEPT = new Set(['schemas']);
/**
 * Entry points besides index.ts, each for a load-time reason: the devnet is three tools and a command loads only the
 * one it runs (the generator brings the TVM emulator); the store is five parts by job, each behind its own index
 * (each user names the job it needs of the store); API v3 (with the store's client) loads only where a network
 * has a store, so a user that wants it alone (bench:api) imports it apart from the API's index; `serve` needs the metrics registry without the stages; the
 * native SHA-256 under @ton/core is a process-wide patch, imported for its effect where cells are hashed in bulk; the
 * traces stage's worker threads load the entity-state derivation alone (no store: index.ts brings the ClickHouse client).
 */
const ENTRIES = {
  devnet: ['(chain|generate|liteserver|live)/index\\.ts'],
  store: ['(client|write|read|traces|ingest)/index\\.ts'],
  pipelines: ['metrics\\.ts'],
  api: ['v3/index\\.ts'],
  format: ['ton-core-sha256\\.ts'],
  entities: ['derive\\.ts'],
};

const floorOf = (f) => FLOORS.findIndex((fl) => fl.includes(f));
const dirOf = (f) => (f === 'pipelines' || f === 'schemas' || f === 'bench' ? f : `src/${f}`);
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

/**
 * Floors inside a stage: the same rule one level down. A part (a sub-folder, or a file at the folder's root) imports
 * only parts on floors below its own; where `throughIndex`, a sub-folder part is reached only through its index.ts.
 * A folder inside another (src/api/v3 in src/api) keeps both sets of floors.
 */
const SUB_FLOORS = {
  'src/ton': { floors: [['errors.ts'], ['cell'], ['tlb', 'validators.ts'], ['block'], ['index.ts']] },
  'src/store': { floors: [['client'], ['ingest', 'write', 'traces'], ['read']], throughIndex: true },
  'src/api': { floors: [['errors.ts', 'redact.ts'], ['auth'], ['server.ts'], ['v2', 'v3'], ['streaming', 'emulate', 'cluster.ts'], ['gateway.ts'], ['index.ts']], throughIndex: true },
  'src/api/v3': {
    floors: [['decode', 'docs-page.ts', 'actions.ts', 'caches.ts', 'params.ts'], ['db.ts'], ['route.ts', 'address-book.ts'], ['queries'], ['render.ts'], ['routes'], ['index.ts']],
  },
};

const ROOT = import.meta.dirname;

/** The `house/sub-floors` rule: SUB_FLOORS, on the relative imports of every file under those folders. */
const subFloors = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = relative(ROOT, context.filename);
    const levels = Object.keys(SUB_FLOORS).filter((f) => file.startsWith(`${f}/`));
    if (!levels.length) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(ROOT, resolve(dirname(context.filename), spec));
      for (const folder of levels) {
        if (!target.startsWith(`${folder}/`)) continue;
        const { floors, throughIndex } = SUB_FLOORS[folder];
        const partOf = (p) => p.slice(folder.length + 1).split('/')[0];
        const self = partOf(file);
        const other = partOf(target);
        if (other === self) continue;
        const a = floors.findIndex((fl) => fl.includes(self));
        const b = floors.findIndex((fl) => fl.includes(other));
        if (a < 0 || b < 0) {
          context.report({ node, message: `${folder}/${a < 0 ? self : other} has no floor in SUB_FLOORS['${folder}'] (eslint.config.js)` });
        } else if (b >= a) {
          context.report({ node, message: `no upward or sideways import in ${folder}: ${self} stands on a floor below or beside ${other} (SUB_FLOORS in eslint.config.js)` });
        } else if (throughIndex && !other.endsWith('.ts') && target !== `${folder}/${other}/index.ts`) {
          context.report({ node, message: `another part of ${folder} only through its index.ts: import ${folder}/${other}/index.ts` });
        }
      }
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};

const house = { rules: { 'sub-floors': subFloors } };

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
  {
    files: ['src/**/*.ts', 'pipelines/**/*.ts', 'schemas/**/*.ts', 'bench/**/*.ts'],
    plugins: { house },
    rules: { 'house/sub-floors': 'error' },
  },
);
