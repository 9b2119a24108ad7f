// The import graph of the shipped code (src/, pipelines/, schemas/), read from the files' own import lines:
// no file imports itself through others, and the folders of src/ form no loop either, so every folder has a
// floor: what it imports stands below it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SHIPPED = ['src', 'pipelines', 'schemas'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

// `import ... from '.'`, `export ... from '.'`, `import '.'` and `import('.')`, type-only ones included
const SPEC = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** file -> the files it imports (repository-relative paths). */
function importGraph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const top of SHIPPED) {
    for (const file of tsFiles(join(ROOT, top))) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const out: string[] = [];
      for (const m of text.matchAll(SPEC)) out.push(relative(ROOT, resolve(dirname(file), m[1] ?? m[2] ?? m[3])));
      g.set(relative(ROOT, file), out);
    }
  }
  return g;
}

/** Strongly connected components with more than one member, or a member importing itself (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** src/<folder> of a path under src/ (the stage it belongs to), else its top folder. */
const folderOf = (p: string) => (p.startsWith('src/') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]);

describe('the import graph', () => {
  const g = importGraph();

  it('reads every import line (a file the graph names exists)', () => {
    expect(g.size).toBeGreaterThan(300);
    const missing = [...g.values()].flat().filter((p) => !g.has(p) && !/\.(json|js)$/.test(p));
    expect(missing).toEqual([]);
  });

  it('no file cycles', () => {
    expect(cycles(g)).toEqual([]);
  });

  it('no folder cycles among the stages of src/', () => {
    const folders = new Map<string, string[]>();
    for (const [file, deps] of g) {
      if (!file.startsWith('src/')) continue;
      const f = folderOf(file);
      const out = folders.get(f) ?? [];
      for (const d of deps) if (d.startsWith('src/') && folderOf(d) !== f && !out.includes(folderOf(d))) out.push(folderOf(d));
      folders.set(f, out);
    }
    expect(cycles(folders)).toEqual([]);
  });

  it('contract layouts stand below the stages that read them: src/contracts imports none of them', () => {
    const up = [...g].filter(([f]) => f.startsWith('src/contracts/')).flatMap(([f, deps]) => deps.filter((d) => /^src\/(actions|entities|store|traces|api|source|devnet|cli)\//.test(d)).map((d) => `${f} -> ${d}`));
    expect(up).toEqual([]);
    // and they read it through its index.ts
    const past = [...g].filter(([f]) => !f.startsWith('src/contracts/')).flatMap(([f, deps]) => deps.filter((d) => d.startsWith('src/contracts/') && d !== 'src/contracts/index.ts').map((d) => `${f} -> ${d}`));
    expect(past).toEqual([]);
  });
});
