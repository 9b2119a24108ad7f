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

/**
 * Functions are kept under MAX_FUNCTION_LINES lines (blank and comment-only lines not counted, as ESLint's
 * max-lines-per-function counts them). The functions longer today are listed with their length: each may shrink,
 * never grow, and leaves the list once it is short enough (the rule says so: the list only shrinks).
 */
const MAX_FUNCTION_LINES = 100;
const LONG_FUNCTIONS = {
};

/** The name of what holds a method or an object's property: its class, or the variable the object is given to. */
function holderName(node) {
  let n = node.parent;
  while (n && (n.type === 'ClassBody' || n.type === 'ObjectExpression' || n.type === 'CallExpression' || n.type === 'TSAsExpression' || n.type === 'TSSatisfiesExpression')) n = n.parent;
  if (!n) return null;
  if ((n.type === 'ClassDeclaration' || n.type === 'ClassExpression') && n.id) return n.id.name;
  if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') return n.id.name;
  if (n.type === 'Property' && n.key.type === 'Identifier') return n.key.name;
  return n.type === 'ClassExpression' ? holderName(n) : null;
}

/**
 * The name a function is listed by: its own, or the variable it is given to; a method or an object's property as
 * `Holder.name`; else `<anonymous>`.
 */
function functionName(node) {
  if (node.id?.name) return node.id.name;
  const p = node.parent;
  if (p?.type === 'VariableDeclarator' && p.id.type === 'Identifier') return p.id.name;
  if ((p?.type === 'Property' || p?.type === 'MethodDefinition' || p?.type === 'PropertyDefinition') && p.key.type === 'Identifier') {
    const holder = holderName(p);
    return holder ? `${holder}.${p.key.name}` : p.key.name;
  }
  return '<anonymous>';
}

/**
 * The `house/function-length` rule: MAX_FUNCTION_LINES, and LONG_FUNCTIONS for the functions listed (the option
 * `{ long }` lists others instead: test/layout/boundaries.test.ts probes the listed case with it).
 */
const functionLength = {
  meta: { type: 'suggestion', schema: [{ type: 'object', properties: { long: { type: 'object' } }, additionalProperties: false }] },
  create(context) {
    const long = context.options[0]?.long ?? LONG_FUNCTIONS;
    const file = relative(ROOT, context.filename);
    const source = context.sourceCode;
    const lines = source.lines;
    // lines that hold only comments (and space)
    const commentOnly = new Set();
    const code = new Set();
    for (const token of source.ast.tokens) for (let l = token.loc.start.line; l <= token.loc.end.line; l++) code.add(l);
    for (const c of source.getAllComments()) for (let l = c.loc.start.line; l <= c.loc.end.line; l++) if (!code.has(l)) commentOnly.add(l);
    const seen = new Map();
    const measure = (node) => {
      let n = 0;
      for (let l = node.loc.start.line; l <= node.loc.end.line; l++) if (lines[l - 1].trim() !== '' && !commentOnly.has(l)) n++;
      const name = functionName(node);
      const key = `${file}:${name}`;
      const allowed = long[key];
      if (allowed !== undefined) seen.set(key, Math.max(seen.get(key) ?? 0, n));
      if (n <= MAX_FUNCTION_LINES) return;
      if (allowed === undefined) {
        context.report({ node, message: `${name} has ${n} lines (at most ${MAX_FUNCTION_LINES}): split it (LONG_FUNCTIONS in eslint.config.js lists the ones longer today)` });
      } else if (n > allowed) {
        context.report({ node, message: `${name} has ${n} lines: it is listed at ${allowed} (LONG_FUNCTIONS in eslint.config.js), and may only get shorter` });
      }
    };
    return {
      FunctionDeclaration: measure,
      FunctionExpression: measure,
      ArrowFunctionExpression: measure,
      'Program:exit'(program) {
        for (const [key, allowed] of Object.entries(long)) {
          if (!key.startsWith(`${file}:`)) continue;
          const n = seen.get(key);
          if (n === undefined) context.report({ node: program, message: `${key} is listed in LONG_FUNCTIONS but not found: take it off the list` });
          else if (n <= MAX_FUNCTION_LINES) context.report({ node: program, message: `${key} has ${n} lines now: take it off LONG_FUNCTIONS` });
          else if (n < allowed) context.report({ node: program, message: `${key} has ${n} lines now: lower its entry in LONG_FUNCTIONS from ${allowed} to ${n}` });
        }
      },
    };
  },
};

const house = { rules: { 'sub-floors': subFloors, 'function-length': functionLength } };

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
    rules: { 'house/sub-floors': 'error', 'house/function-length': 'error' },
  },
);
